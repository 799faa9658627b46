"""Rounds, turns and the main phase of Scratch Wars (``rules/scratch_wars.md`` sections 4-7, 10).

Rounds (section 4): the starter plays first in every round. At level >= 2 round r is time of day
``(r-1) % 4`` of day ``(r-1) // 4 + 1``; from day 3 both heroes lose 5 lives at the start of every
round, before anything else (a draw when both fall).

A turn (section 5): repairs finish, energy comes in (level 3, cap 12), 4 actions. In ``main`` the
active seat spins a weapon (1 action and, level 3, its energy cost, +1 off-type), repairs a broken
one, cancels an own deferred effect for free, or ends the turn. A spin is a chance step (``spin``)
whose segment is public; then in ``decide`` the seat uses the effect (with one hero bonus, negative
bonuses mandatory) or skips it (section 5.3). Attacks go through :mod:`.attack`. The main phase ends
on 0 actions, a red field, a used orange effect or (level 3) no energy for any spin or repair
(AMBIGUITY 6). Then every permanent attack fires, in the order the owner picks while two or more
are queued (``order``, AMBIGUITY 16; matches stored before that rule fire them in loadout order,
see :class:`.state.Config`), and the seat may detonate combos (``combo``: add combos one by one,
then detonate with a bonus, or keep them; section 6.2).

Steps with a single legal choice (a green field at level 1, one possible target, no shields to
spend) are applied at once, so every listed choice is a real decision.

Every step is ``step(book, state, action, ev) -> state`` for a legal action (the rules facade
checks legality first); ``ev`` collects the events, or is ``None`` for the bots' look-ahead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ..core.errors import IllegalAction
from ..core.rules import Outcome
from . import attack
from . import effects as fx
from .actions import (
    ADD_COMBO,
    CANCEL,
    END_TURN,
    FIRE_PERMANENT,
    KEEP_COMBOS,
    REPAIR,
    SKIP,
    SPIN_WEAPON,
    AddCombo,
    Cancel,
    Detonate,
    EndTurn,
    FirePermanent,
    KeepCombos,
    Repair,
    ScratchAction,
    Segment,
    Skip,
    SpinWeapon,
    Use,
)
from .actions import (
    detonate as detonate_action,
)
from .actions import (
    segment as segment_action,
)
from .actions import (
    use as use_action,
)
from .data import (
    ATTACK_WEAPON,
    COMBO,
    DEFERRED,
    EFFECTS,
    ENERGY,
    FIELDS,
    HEAL,
    ORANGE,
    PERMANENT_ATTACK,
    RED,
    TIMES_OF_DAY,
    CardBook,
)
from .events import Events, emit
from .state import (
    ACTIONS_PER_TURN,
    DAY3_PENALTY,
    DECIDE,
    GAME,
    MAIN,
    MAX_ENERGY,
    MAX_WEAPONS,
    NO_EFFECT,
    OVER,
    READY,
    REPAIRING,
    SPIN,
    SRC_COMBO,
    SRC_PERMANENT,
    SRC_SPIN,
    Seat,
    Seats,
    Spin,
    State,
    evolve,
    set_seat,
    set_slot,
)
from .state import (
    COMBO as PH_COMBO,
)
from .state import (
    ORDER as PH_ORDER,
)
from .state import (
    replace_at as _replaced,
)

# ------------------------------------------------------------------------------ rounds and turns

NOTHING: Mapping[str, Any] = MappingProxyType({})  #: no changes
#: what the end of the main phase changes (besides the queue of permanent attacks)
_MAIN_ENDED: Mapping[str, Any] = MappingProxyType(
    {"phase": MAIN, "ending": True, "actions": 0, "spin": None, "attack": None, "queue": ()}
)


def begin_round(book: CardBook, st: State, ev: Events, ended: Mapping[str, Any] = NOTHING) -> State:
    """Round ``st.round + 1`` begins: its time of day, the day-3 penalty, the starter's turn.

    :param ended: changes the end of the last turn still owes the state (see :func:`finish_turn`).
    """
    r = st.round + 1
    if st.config.day_cycle:
        tod, day = (r - 1) % 4, (r - 1) // 4 + 1
        if ev is not None:
            emit(ev, "round_started", round=r, day=day, time_of_day=tod, time_of_day_name=TIMES_OF_DAY[tod])
        if day >= 3:  # section 4: both lose 5 at once, before anything else; not an attack
            a, b = st.seat(0), st.seat(1)
            a = evolve(a, lives=a.lives - DAY3_PENALTY)
            b = evolve(b, lives=b.lives - DAY3_PENALTY)
            st = evolve(st, **ended, round=r, seats=(a, b))
            if ev is not None:
                emit(ev, "day3_penalty", lives=[a.lives, b.lives], amount=DAY3_PENALTY)
            if a.lives <= 0 or b.lives <= 0:
                return over(st, "day3_penalty", ev)
    elif ev is not None:
        emit(ev, "round_started", round=r, day=None, time_of_day=None, time_of_day_name=None)
    return begin_turn(book, st, st.starter, ev, r)


def begin_turn(book: CardBook, st: State, seat_index: int, ev: Events, round_: int = 0) -> State:
    """``seat_index``'s turn begins (section 5.1): repairs finish, energy comes in, 4 actions.

    :param round_: the round number when a round begins with this turn (0: the state's round).
    """
    r = round_ or st.round
    seat = st.seat(seat_index)
    slots = seat.slots
    repaired = [j for j, sl in enumerate(slots) if sl.status == REPAIRING]
    if repaired:  # section 5.1 step 1
        slots = tuple(evolve(sl, status=READY) if sl.status == REPAIRING else sl for sl in slots)
    energy = seat.energy
    if st.config.energy:  # section 5.1 step 2, AMBIGUITY 10
        energy = min(MAX_ENERGY, energy + book.hero_rows[seat.hero].columns[(r - 1) % 4].energy)
    gained = energy - seat.energy
    if repaired or gained:
        seat = evolve(seat, slots=slots, energy=energy)
    st = evolve(
        st,
        seats=set_seat(st.seats, seat_index, seat),
        round=r,
        phase=MAIN,
        active=seat_index,
        actions=ACTIONS_PER_TURN,
        used=0,
        ending=False,
        spin=None,
        attack=None,
        queue=(),
        combos=(),
    )
    if ev is not None:
        emit(ev, "turn_started", seat=seat_index, round=r, energy=energy, energy_gained=gained, repaired=repaired)
    return st


def finish_turn(book: CardBook, st: State, ev: Events, ended: Mapping[str, Any] = NOTHING) -> State:
    """Pass the turn.

    :param ended: changes of the ending turn not yet made to ``st``, among the fields the next
        turn sets anyway (phase, actions, ending, spin, attack, queue): they matter only when the
        day-3 penalty ends the game before the next turn begins.
    """
    nxt = 1 - st.active
    if nxt == st.starter:
        return begin_round(book, st, ev, ended)
    return begin_turn(book, st, nxt, ev)


def after_main_action(book: CardBook, st: State, ev: Events, **changes: Any) -> State:
    """A spin or repair has fully resolved, making ``changes`` to the state (fields of
    :class:`State`): continue the main phase or end it (section 5.4)."""
    st = evolve(st, phase=MAIN, spin=None, attack=None, **changes)
    if st.ending:
        return end_main(book, st, "field", ev)
    if st.actions <= 0:
        return end_main(book, st, "actions", ev)
    if st.config.energy and fx.out_of_energy(book, st):
        return end_main(book, st, "energy", ev)
    return st


def end_main(book: CardBook, st: State, reason: str, ev: Events) -> State:
    """The main phase is over (``reason``: voluntary, actions, field, energy); the end-of-turn
    effects follow (section 5.5)."""
    seat = st.seat(st.active)
    queue = tuple(j for j, sl in enumerate(seat.slots) if sl.held == PERMANENT_ATTACK)
    if ev is not None:
        emit(ev, "main_phase_ended", seat=st.active, reason=reason, actions_lost=st.actions)
    if not queue and not fx.can_detonate(book, st):  # nothing happens at the end: the turn passes
        return finish_turn(book, st, ev, _MAIN_ENDED)
    st = evolve(st, **{**_MAIN_ENDED, "queue": queue})
    return end_steps(book, st, ev)


def end_steps(book: CardBook, st: State, ev: Events) -> State:
    """Fire the next permanent attack (AMBIGUITIES 7, 16), then offer combos, then pass.

    With two or more still queued the owner picks the next (phase ``order``) when the match's
    config says so; else the first in loadout order fires."""
    if st.config.owner_orders and len(st.queue) > 1:
        slots = st.seat(st.active).slots
        queue = tuple(j for j in st.queue if slots[j].held == PERMANENT_ATTACK)
        if len(queue) > 1:
            return evolve(st, phase=PH_ORDER, queue=queue)
        st = evolve(st, queue=queue)
    while st.queue:
        j, st = st.queue[0], evolve(st, queue=st.queue[1:])
        slot = st.seat(st.active).slots[j]
        if slot.held == PERMANENT_ATTACK:
            return attack.declare(book, st, SRC_PERMANENT, PERMANENT_ATTACK, slot.value, j, ev)
    if fx.can_detonate(book, st):
        return evolve(st, phase=PH_COMBO, combos=())
    return finish_turn(book, st, ev)


def order_choices(book: CardBook, st: State, seat_index: int) -> list[ScratchAction]:
    """Phase ``order``: fire any queued permanent attack next, in loadout order of the slots."""
    return [FIRE_PERMANENT[j] for j in st.queue]


def fire(book: CardBook, st: State, action: FirePermanent, ev: Events) -> State:
    """The owner's pick: the permanent attack on ``action.slot`` fires now; the rest stay queued."""
    j = action.slot
    slot = st.seat(st.active).slots[j]
    st = evolve(st, phase=MAIN, queue=tuple(k for k in st.queue if k != j))
    return attack.declare(book, st, SRC_PERMANENT, PERMANENT_ATTACK, slot.value, j, ev)


def after_attack(book: CardBook, st: State, source: int, seats: Seats, ev: Events) -> State:
    """An attack from ``source`` has resolved, leaving ``seats``, and nobody fell: the step it
    interrupted goes on."""
    if source == SRC_SPIN:
        return after_main_action(book, st, ev, seats=seats)
    st = evolve(st, phase=MAIN, attack=None, seats=seats)
    if source == SRC_PERMANENT:
        return end_steps(book, st, ev)
    return finish_turn(book, st, ev)


def over(st: State, reason: str, ev: Events) -> State:
    """A hero is at 0 lives or fewer (section 10): the other wins; both (day 3) is a draw."""
    a, b = st.seat(0).lives, st.seat(1).lives
    if a <= 0 and b <= 0:
        results = ("draw", "draw")
    elif a <= 0:
        results = ("loss", "win")
    else:
        results = ("win", "loss")
    outcome = Outcome(results, (max(0, a), max(0, b)), reason)
    if ev is not None:
        emit(ev, "game_over", **outcome.to_json())
    return evolve(st, phase=OVER, outcome=outcome, spin=None, attack=None, queue=(), combos=())


# ---------------------------------------------------------------------------------- main phase


def main_choices(book: CardBook, st: State, seat_index: int) -> list[ScratchAction]:
    """Per weapon slot in order, its choice (:func:`slot_choice`), then end the turn (always)."""
    seat = st.seat(st.active)
    out: list[ScratchAction] = []
    for j in range(len(seat.slots)):
        choice = slot_choice(book, st, seat, j)
        if choice is not None:
            out.append(choice)
    out.append(END_TURN)
    return out


_SLOT_KINDS = frozenset({SpinWeapon, Repair, Cancel})


def slot_choice(book: CardBook, st: State, seat: Seat, j: int) -> ScratchAction | None:
    """The main-phase choice on the active seat's weapon slot ``j``: cancel its deferred effect
    (always), else spin it when ready or repair it when broken (with an action left and, level 3,
    the energy), else none (section 5.2)."""
    slot = seat.slots[j]
    if slot.held != NO_EFFECT:
        return CANCEL[j]
    if st.actions <= 0 or slot.status == REPAIRING:
        return None
    if st.config.energy and book.spin_cost(seat.hero, slot.weapon) > seat.energy:
        return None
    return SPIN_WEAPON[j] if slot.status == READY else REPAIR[j]


def main_allows(book: CardBook, st: State, seat_index: int, action: ScratchAction) -> bool:
    """Whether :func:`main_choices` lists ``action``, without listing them all."""
    if type(action) in _SLOT_KINDS:
        j: int = action.slot  # type: ignore[attr-defined]  # SpinWeapon, Repair or Cancel
        seat = st.seat(st.active)
        if not 0 <= j < len(seat.slots):
            return False
        choice = slot_choice(book, st, seat, j)
        return choice is action or choice == action
    return type(action) is EndTurn


def spin(book: CardBook, st: State, action: SpinWeapon, ev: Events) -> State:
    """Spin the weapon on ``action.slot``: 1 action and (level 3) its energy cost; chance next."""
    j = action.slot
    seat = st.seat(st.active)
    cost = book.spin_cost(seat.hero, seat.slots[j].weapon) if st.config.energy else 0
    seats = st.seats
    if cost:
        seat = evolve(seat, energy=seat.energy - cost)
        seats = set_seat(seats, st.active, seat)
    st = evolve(st, seats=seats, phase=SPIN, actions=st.actions - 1, spin=_SPINS[j])
    if ev is not None:
        emit(
            ev,
            "spin_started",
            seat=st.active,
            slot=j,
            weapon=seat.slots[j].weapon,
            cost=cost,
            actions=st.actions,
            energy=seat.energy,
        )
    return st


_SPINS = tuple(Spin(j) for j in range(MAX_WEAPONS))  #: a spin of slot j, before the wheel stops


def sample_segment(book: CardBook, rng: random.Random, st: State) -> Segment:
    """Chance: a uniform segment of the wheel being spun (AMBIGUITY 17)."""
    slot = st.seat(st.active).slots[st.spin_now().slot]
    return segment_action(rng.randrange(len(book.weapon_rows[slot.weapon].wheel)))


def spun(book: CardBook, st: State, action: Segment, ev: Events) -> State:
    """The wheel landed on ``action.index``: decide, or go on at once when there is one choice.

    :raises IllegalAction: a segment that is not on the wheel.
    """
    pending = st.spin_now()
    weapon = book.weapon_rows[st.seat(st.active).slots[pending.slot].weapon]
    i = action.index
    if not 0 <= i < len(weapon.wheel):
        raise IllegalAction(f"{GAME}: segment {i!r} is not on the wheel of {weapon.code}")
    effect, value, field = weapon.wheel[i]
    st = evolve(st, phase=DECIDE, spin=evolve(pending, segment=i, effect=effect, value=value, field=field))
    if ev is not None:
        emit(
            ev,
            "spin_result",
            seat=st.active,
            slot=pending.slot,
            weapon=weapon.code,
            segment=i,
            effect=EFFECTS[effect],
            value=value,
            field=FIELDS[field],
            resolves_as=EFFECTS[fx.resolves_as(st, effect)],
        )
    options = decide_choices(book, st, st.active)
    if len(options) == 1:  # nothing to decide (level 1 green/red, or only "skip")
        only = options[0]
        return use(book, st, only, ev) if isinstance(only, Use) else skip(book, st, SKIP, ev)
    return st


def decide_choices(book: CardBook, st: State, seat_index: int) -> list[ScratchAction]:
    """Use the spun effect with each allowed bonus (:func:`usable`), or skip it (:func:`skippable`)."""
    out: list[ScratchAction] = [use_action(b) for b in fx.spin_bonus_options(book, st) if usable(book, st, b)]
    if skippable(st):
        out.append(SKIP)
    return out


def usable(book: CardBook, st: State, bonus: int) -> bool:
    """The spun effect may be used with ``bonus`` (one of :func:`.effects.spin_bonus_options`)
    unless it attacks a weapon and no weapon or effect is in reach of its value."""
    pending = st.spin_now()
    if fx.resolves_as(st, pending.effect) != ATTACK_WEAPON:
        return True
    value = max(0, pending.value + fx.bonus_value(book, st, bonus))
    return bool(fx.targets(book, st, ATTACK_WEAPON, value))


def skippable(st: State) -> bool:
    """The spun effect may be skipped: always from level 2; at level 1 only on an orange field
    (green and red are used, AMBIGUITY 2)."""
    return st.config.bonuses or st.spin_now().field == ORANGE


def decide_allows(book: CardBook, st: State, seat_index: int, action: ScratchAction) -> bool:
    """Whether :func:`decide_choices` lists ``action``, without listing them all."""
    if isinstance(action, Use):
        return action.bonus in fx.spin_bonus_options(book, st) and usable(book, st, action.bonus)
    return isinstance(action, Skip) and skippable(st)


def skip(book: CardBook, st: State, action: Skip, ev: Events) -> State:
    """Skip the spun effect; a red field still ends the main phase (AMBIGUITY 2)."""
    pending = st.spin_now()
    if ev is not None:
        emit(ev, "effect_skipped", seat=st.active, slot=pending.slot, field=FIELDS[pending.field])
    if pending.field == RED:
        return after_main_action(book, st, ev, ending=True)
    return after_main_action(book, st, ev)


def use(book: CardBook, st: State, action: Use, ev: Events) -> State:
    """Use the spun effect with the chosen bonus (sections 6, 8.6): energy, heal, hold a deferred
    effect, or declare an attack."""
    bonus = action.bonus
    pending = st.spin_now()
    kind = fx.resolves_as(st, pending.effect)
    extra = fx.bonus_value(book, st, bonus)
    value = max(0, pending.value + extra)  # AMBIGUITY 11
    a = st.active
    seat = st.seat(a)
    used = st.used | (1 << bonus) if bonus >= 0 else st.used
    ending = st.ending or pending.field >= ORANGE
    if ev is not None:
        emit(
            ev,
            "effect_used",
            seat=a,
            slot=pending.slot,
            effect=EFFECTS[kind],
            printed=EFFECTS[pending.effect],
            base=pending.value,
            bonus=None if bonus < 0 else bonus,
            bonus_value=extra,
            value=value,
        )
    if kind == ENERGY:
        if not st.config.energy:  # level 2b: an empty action (AMBIGUITY 3)
            return after_main_action(book, st, ev, used=used, ending=ending)
        energy = min(MAX_ENERGY, seat.energy + value)
        if ev is not None:
            emit(ev, "energy_gained", seat=a, amount=energy - seat.energy, energy=energy)
        return after_main_action(
            book, st, ev, used=used, ending=ending, seats=set_seat(st.seats, a, evolve(seat, energy=energy))
        )
    if kind == HEAL:
        top = book.hero_rows[seat.hero].lives
        lives = max(seat.lives, min(top, seat.lives + value))
        if ev is not None:
            emit(ev, "healed", seat=a, amount=lives - seat.lives, lives=lives)
        return after_main_action(
            book, st, ev, used=used, ending=ending, seats=set_seat(st.seats, a, evolve(seat, lives=lives))
        )
    if kind in DEFERRED:
        j = pending.slot
        slot = evolve(seat.slots[j], held=kind, value=value)
        if ev is not None:
            emit(ev, "effect_deferred", seat=a, slot=j, weapon=slot.weapon, effect=EFFECTS[kind], value=value)
        return after_main_action(
            book, st, ev, used=used, ending=ending, seats=set_seat(st.seats, a, set_slot(seat, j, slot))
        )
    st = evolve(st, used=used, ending=ending)
    return attack.declare(book, st, SRC_SPIN, kind, value, pending.slot, ev)


def repair(book: CardBook, st: State, action: Repair, ev: Events) -> State:
    """Start repairing (section 7.3): 1 action and (level 3) the spin cost; ready from the next own turn."""
    j = action.slot
    a = st.active
    seat = st.seat(a)
    slot = seat.slots[j]
    cost = book.spin_cost(seat.hero, slot.weapon) if st.config.energy else 0
    seat = evolve(seat, energy=seat.energy - cost, slots=_replaced(seat.slots, j, evolve(slot, status=REPAIRING)))
    actions = st.actions - 1
    if ev is not None:
        emit(ev, "repair_started", seat=a, slot=j, weapon=slot.weapon, cost=cost, actions=actions, energy=seat.energy)
    return after_main_action(book, st, ev, seats=set_seat(st.seats, a, seat), actions=actions)


def cancel(book: CardBook, st: State, action: Cancel, ev: Events) -> State:
    """Cancel an own deferred effect: free; the weapon is ready again (section 5.2)."""
    j = action.slot
    a = st.active
    seat = st.seat(a)
    slot = seat.slots[j]
    seat = set_slot(seat, j, evolve(slot, held=NO_EFFECT, value=0))
    if ev is not None:
        emit(
            ev,
            "effect_cancelled",
            seat=a,
            slot=j,
            weapon=slot.weapon,
            effect=EFFECTS[slot.held],
            value=slot.value,
            by="owner",
        )
    return evolve(st, seats=set_seat(st.seats, a, seat))


def end_turn(book: CardBook, st: State, action: EndTurn, ev: Events) -> State:
    """End the main phase now; the end-of-turn effects follow."""
    return end_main(book, st, "voluntary", ev)


# --------------------------------------------------------------------------------- combos (6.2)


def combo_choices(book: CardBook, st: State, seat_index: int) -> list[ScratchAction]:
    """Add an unselected own combo, detonate the selection with each allowed bonus, or keep them."""
    selected = st.combos
    out: list[ScratchAction] = [ADD_COMBO[j] for j in fx.own_combos(st) if j not in selected]
    out += [detonate_action(b) for b in fx.detonate_bonus_options(book, st, len(selected))]
    out.append(KEEP_COMBOS)
    return out


def add_combo(book: CardBook, st: State, action: AddCombo, ev: Events) -> State:
    """Add a combo to the selection (kept sorted, so the order of adding does not matter)."""
    return evolve(st, combos=tuple(sorted((*st.combos, action.slot))))


def detonate(book: CardBook, st: State, action: Detonate, ev: Events) -> State:
    """Detonate the selected combos: their values add up, with the bonus; then an attack."""
    bonus = action.bonus
    a = st.active
    seat = st.seat(a)
    slots = list(seat.slots)
    values = [slots[j].value for j in st.combos]
    extra = fx.bonus_value(book, st, bonus)
    value = max(0, sum(values) + extra)
    for j in st.combos:
        slots[j] = evolve(slots[j], held=NO_EFFECT, value=0)
    if ev is not None:
        emit(
            ev,
            "combo_detonated",
            seat=a,
            slots=list(st.combos),
            weapons=[slots[j].weapon for j in st.combos],
            values=values,
            bonus=None if bonus < 0 else bonus,
            bonus_value=extra,
            value=value,
        )
    st = evolve(
        st,
        seats=set_seat(st.seats, a, evolve(seat, slots=tuple(slots))),
        used=st.used | (1 << bonus) if bonus >= 0 else st.used,
        combos=(),
    )
    return attack.declare(book, st, SRC_COMBO, COMBO, value, -1, ev)


def keep_combos(book: CardBook, st: State, action: KeepCombos, ev: Events) -> State:
    """Keep every combo for a later turn; the turn passes."""
    if ev is not None:
        emit(ev, "combos_kept", seat=st.active, slots=fx.own_combos(st))
    return finish_turn(book, st, ev)


__all__ = [
    "add_combo",
    "after_attack",
    "after_main_action",
    "begin_round",
    "begin_turn",
    "cancel",
    "combo_choices",
    "decide_allows",
    "decide_choices",
    "detonate",
    "end_main",
    "end_steps",
    "end_turn",
    "finish_turn",
    "fire",
    "keep_combos",
    "main_allows",
    "main_choices",
    "order_choices",
    "over",
    "repair",
    "sample_segment",
    "skip",
    "skippable",
    "slot_choice",
    "spin",
    "spun",
    "usable",
    "use",
]
