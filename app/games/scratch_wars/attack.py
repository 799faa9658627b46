"""Attacks in Scratch Wars (``rules/scratch_wars.md`` section 8, AMBIGUITY 14).

An attack comes from a used spin, a permanent attack firing at the end of a turn, or a combo
detonation. Step 1, :func:`declare`: its effect and value. Step 2, ``target`` phase: the attacker
picks the target (hero, a ready weapon, or a deferred effect, within reach of the value; asked only
when there is a choice). Step 3, ``shield`` phase: the *defender* may spend its deferred shields one
at a time, each lowering the value (``to_act`` switches to the defender for this choice). Step 4,
:func:`hit`: the hero loses lives, or a weapon breaks / an effect is cancelled when the value
reaches its durability. Then the step the attack interrupted goes on (:func:`.turn.after_attack`).
"""

from __future__ import annotations

from ..core.rules import JSON
from . import effects as fx
from . import turn
from .actions import SPEND_SHIELD, TAKE_HIT, ScratchAction, SpendShield, TakeHit, Target, target
from .data import EFFECTS, CardBook
from .events import Events, emit
from .state import (
    BROKEN,
    NO_EFFECT,
    SOURCE_NAMES,
    T_HERO,
    T_WEAPON,
    TARGET_INDEX,
    TARGET_NAMES,
    Attack,
    State,
    evolve,
    set_seat,
    set_slot,
)
from .state import (
    SHIELD as SHIELD_PHASE,
)
from .state import (
    TARGET as TARGET_PHASE,
)


def declare(book: CardBook, st: State, source: int, effect: int, value: int, origin: int, ev: Events) -> State:
    """Step 1: an attack by ``effect`` with ``value`` from ``source`` (``SRC_*``), from the
    attacker's slot ``origin`` (-1 for a combo); the target is asked for unless only one fits."""
    options = fx.targets(book, st, effect, value)
    if len(options) == 1:
        kind, j = options[0]
        return _aimed(book, st, Attack(source, effect, value, value, kind, j, origin=origin), ev)
    return evolve(st, phase=TARGET_PHASE, attack=Attack(source, effect, value, value, origin=origin))


def target_choices(book: CardBook, st: State, seat_index: int) -> list[ScratchAction]:
    """Step 2: every target in reach of the attack (:func:`.effects.targets`)."""
    a = st.attack_now()
    return [target(t, j) for t, j in fx.targets(book, st, a.effect, a.value)]


def aim(book: CardBook, st: State, action: Target, ev: Events) -> State:
    """Step 2: the attacker's target."""
    return _aimed(book, st, evolve(st.attack_now(), target=TARGET_INDEX[action.kind], slot=action.slot), ev)


def _aimed(book: CardBook, st: State, attack: Attack, ev: Events) -> State:
    """``attack`` has its target: the defender may answer with shields, else it hits. The attack
    enters the state only when the defender is asked (it is resolved and gone otherwise)."""
    if ev is not None:
        emit(
            ev,
            "attack_declared",
            seat=st.active,
            source=SOURCE_NAMES[attack.source],
            effect=EFFECTS[attack.effect],
            value=attack.value,
            target=target_json(book, st, attack),
        )
    if attack.value > 0 and fx.shield_slots(st, attack):
        return evolve(st, phase=SHIELD_PHASE, attack=attack)
    return _hit(book, st, attack, ev)


def shield_choices(book: CardBook, st: State, seat_index: int) -> list[ScratchAction]:
    """Step 3, the defender: spend one of its shields that may answer the attack, or take the hit."""
    return [*(SPEND_SHIELD[j] for j in fx.shield_slots(st)), TAKE_HIT]


def spend_shield(book: CardBook, st: State, action: SpendShield, ev: Events) -> State:
    """Step 3: the defender's shield on ``action.slot`` lowers the attack by its value and is gone;
    the attack applies once it is 0 or no shield is left."""
    j = action.slot
    d = 1 - st.active
    seat = st.seat(d)
    slot = seat.slots[j]
    attack = st.attack_now()
    value = max(0, attack.value - slot.value)
    seat = set_slot(seat, j, evolve(slot, held=NO_EFFECT, value=0))
    attack = evolve(attack, value=value, shields=(*attack.shields, j))
    st = evolve(st, seats=set_seat(st.seats, d, seat), attack=attack)
    if ev is not None:
        emit(ev, "shield_spent", seat=d, slot=j, weapon=slot.weapon, shield=slot.value, value=value)
    if value == 0 or not fx.shield_slots(st):
        return _hit(book, st, attack, ev)
    return st


def take_hit(book: CardBook, st: State, action: TakeHit, ev: Events) -> State:
    """Step 3: the defender spends no (more) shields."""
    return _hit(book, st, st.attack_now(), ev)


def _hit(book: CardBook, st: State, attack: Attack, ev: Events) -> State:
    """Step 4: apply ``attack`` after shields, check the end, continue (the steps that follow
    clear the state's attack)."""
    d = 1 - st.active
    seat = st.seat(d)
    value = attack.value
    if attack.target == T_HERO:
        lives = seat.lives - value
        seats = set_seat(st.seats, d, evolve(seat, lives=lives))
        if ev is not None:
            emit(
                ev,
                "attack_resolved",
                seat=st.active,
                source=SOURCE_NAMES[attack.source],
                target=target_json(book, st, attack),
                value=value,
                lives=lives,
            )
        if lives <= 0:
            return turn.over(evolve(st, seats=seats), "defeated", ev)
        return turn.after_attack(book, st, attack.source, seats, ev)
    j = attack.slot
    slot = seat.slots[j]
    hit = value >= book.weapon_rows[slot.weapon].durability
    if ev is not None:
        key = "broken" if attack.target == T_WEAPON else "cancelled"
        emit(
            ev,
            "attack_resolved",
            seat=st.active,
            source=SOURCE_NAMES[attack.source],
            target=target_json(book, st, attack),
            value=value,
            **{key: hit},
        )
    if not hit:
        return turn.after_attack(book, st, attack.source, st.seats, ev)
    if attack.target == T_WEAPON:
        slot = evolve(slot, status=BROKEN)
    else:
        if ev is not None:
            emit(
                ev,
                "effect_cancelled",
                seat=d,
                slot=j,
                weapon=slot.weapon,
                effect=EFFECTS[slot.held],
                value=slot.value,
                by="attack",
            )
        slot = evolve(slot, held=NO_EFFECT, value=0)
    return turn.after_attack(book, st, attack.source, set_seat(st.seats, d, set_slot(seat, j, slot)), ev)


def target_json(book: CardBook, st: State, attack: Attack) -> dict[str, JSON]:
    """The attack's target as events and observations show it: ``{"kind": "hero", "seat"}`` or
    ``{"kind": "weapon" | "effect", "seat", "slot", "weapon", "durability"}``."""
    if attack.target == T_HERO:
        return {"kind": "hero", "seat": 1 - st.active}
    slot = st.seat(1 - st.active).slots[attack.slot]
    return {
        "kind": TARGET_NAMES[attack.target],
        "seat": 1 - st.active,
        "slot": attack.slot,
        "weapon": slot.weapon,
        "durability": book.weapon_rows[slot.weapon].durability,
    }
