"""Scratch Wars effects: which hero bonus may go with a spun effect or a combo detonation, which
targets an attack may take, which shields may answer it, and the energy rules
(``rules/scratch_wars.md`` sections 5.2, 5.4, 6, 7, 8).

Pure functions of a :class:`~.data.CardBook` and a :class:`~.state.State`; the rules list their
results as legal actions and the bots search them.
"""

from __future__ import annotations

from .data import (
    ATTACK_HERO,
    ATTACK_WEAPON,
    B_BLESSING,
    B_COMBO_BONUS,
    B_DETONATOR,
    B_EFFECT,
    COMBO,
    ONE_SHOT,
    ORANGE,
    PERMANENT_ATTACK,
    SHIELD,
    CardBook,
    ColumnRow,
)
from .state import BROKEN, NO_BONUS, NO_EFFECT, READY, T_EFFECT, T_HERO, T_WEAPON, Attack, State

TargetRef = tuple[int, int]  #: ``(T_HERO | T_WEAPON | T_EFFECT, defender's slot or -1)``


def time_of_day(state: State) -> int:
    """The time of day of the current round (0 morning ... 3 night; section 4)."""
    return (state.round - 1) % 4 if state.round > 0 else 0


def day(state: State) -> int:
    """The day of the current round (1-based)."""
    return (state.round - 1) // 4 + 1 if state.round > 0 else 1


def column(book: CardBook, state: State, seat: int) -> ColumnRow:
    """``seat``'s hero column for the current time of day."""
    return book.hero_rows[state.seat(seat).hero].columns[time_of_day(state)]


def resolves_as(state: State, effect: int) -> int:
    """The effect a printed icon resolves as: itself when effects are distinguished (level 3, 2b),
    else an attack on the hero (level 1, 2a; section 6)."""
    return effect if state.config.distinguished else ATTACK_HERO


def spin_bonus_options(book: CardBook, state: State) -> list[int]:
    """The bonus choices for using the pending spin (section 8.6, AMBIGUITIES 4, 11, 12).

    Applicable: unused bonuses of the current column that are an icon bonus with exactly the spun
    icon, or a blessing when the effect resolves as a one-shot effect. If any applicable bonus is
    negative it is mandatory: the choices are those negative bonuses only. Otherwise: no bonus
    (``NO_BONUS``) or any applicable positive bonus. Level 1: ``[NO_BONUS]``.
    """
    if not state.config.bonuses:
        return [NO_BONUS]
    icon = state.spin_now().effect
    one_shot = resolves_as(state, icon) in ONE_SHOT
    used = state.used
    negative: list[int] = []
    positive: list[int] = []
    for i, b in enumerate(column(book, state, state.active).bonuses):
        if used >> i & 1:
            continue
        if (b.kind == B_EFFECT and b.effect == icon) or (b.kind == B_BLESSING and one_shot):
            (negative if b.value < 0 else positive).append(i)
    if negative:
        return negative
    return [NO_BONUS, *positive]


def bonus_value(book: CardBook, state: State, bonus: int) -> int:
    """The value of bonus ``bonus`` of the active hero's current column (0 for ``NO_BONUS``)."""
    if bonus == NO_BONUS:
        return 0
    return column(book, state, state.active).bonuses[bonus].value


def targets(book: CardBook, state: State, effect: int, value: int) -> list[TargetRef]:
    """The targets an attack by ``effect`` with ``value`` may take (sections 6.1, 7.1, 7.2, 8).

    attack_hero and permanent_attack: the hero only. attack_weapon: an opponent weapon that is
    ready (not broken, not under repair, holding nothing) or a deferred effect, with durability
    <= ``value``. universal_attack and combo: the hero or any of those.
    """
    out: list[TargetRef] = []
    if effect != ATTACK_WEAPON:
        out.append((T_HERO, -1))
    if effect in (ATTACK_HERO, PERMANENT_ATTACK):
        return out
    rows = book.weapon_rows
    for j, slot in enumerate(state.seat(1 - state.active).slots):
        if rows[slot.weapon].durability > value:
            continue
        if slot.held != NO_EFFECT:
            out.append((T_EFFECT, j))
        elif slot.status == READY:
            out.append((T_WEAPON, j))
    return out


def shield_slots(state: State, attack: Attack | None = None) -> list[int]:
    """The defender's slots holding a deferred shield that may answer ``attack`` (default: the
    state's; section 8 step 3, AMBIGUITY 14). A shield targeted by the attack cannot protect itself;
    shields already spent are gone."""
    if attack is None:
        attack = state.attack_now()
    skip = attack.slot if attack.target == T_EFFECT else -1
    return [j for j, slot in enumerate(state.seat(1 - state.active).slots) if slot.held == SHIELD and j != skip]


def own_combos(state: State) -> list[int]:
    """The active seat's slots holding a deferred combo."""
    return [j for j, slot in enumerate(state.seat(state.active).slots) if slot.held == COMBO]


def _unused(book: CardBook, state: State, kind: int) -> list[int]:
    if not state.config.bonuses:
        return []
    used = state.used
    return [i for i, b in enumerate(column(book, state, state.active).bonuses) if b.kind == kind and not used >> i & 1]


def can_detonate(book: CardBook, state: State) -> bool:
    """Whether the active seat may detonate combos now: 2 or more deferred, or 1 with an unused
    combo detonator in the current column (section 6.2)."""
    n = len(own_combos(state))
    return n >= 2 or (n == 1 and bool(_unused(book, state, B_DETONATOR)))


def detonate_bonus_options(book: CardBook, state: State, count: int) -> list[int]:
    """The bonus choices for detonating ``count`` selected combos (sections 6.2, 8.6).

    One combo: it needs a detonator, so one of the unused detonators (its value applies, even a
    negative one). Two or more: an unused negative combo_bonus is mandatory (those only); otherwise
    no bonus, a positive combo_bonus, or a detonator. None: ``[]``.
    """
    if count <= 0:
        return []
    detonators = _unused(book, state, B_DETONATOR)
    if count == 1:
        return detonators
    combo_bonuses = _unused(book, state, B_COMBO_BONUS)
    col = column(book, state, state.active).bonuses if state.config.bonuses else ()
    negative = [i for i in combo_bonuses if col[i].value < 0]
    if negative:
        return negative
    return [NO_BONUS, *(i for i in combo_bonuses if col[i].value > 0), *detonators]


def is_spinnable(state: State, seat: int, j: int) -> bool:
    """Weapon slot ``j`` is equipped, ready and holds no deferred effect (section 5.2)."""
    slot = state.seat(seat).slots[j]
    return slot.status == READY and slot.held == NO_EFFECT


def out_of_energy(book: CardBook, state: State) -> bool:
    """Level 3: the active seat has run out of energy (section 5.4, AMBIGUITY 6): energy 0, or too
    little for any spin of a spinnable weapon and any repair of a broken one."""
    seat = state.seat(state.active)
    energy = seat.energy
    if energy <= 0:
        return True
    for slot in seat.slots:
        usable = (slot.status == READY and slot.held == NO_EFFECT) or slot.status == BROKEN
        if usable and book.spin_cost(seat.hero, slot.weapon) <= energy:
            return False
    return True


def ends_on_use(field: int) -> bool:
    """Using an effect on this field ends the main phase (orange or red, section 5.3)."""
    return field >= ORANGE


__all__ = [
    "NO_BONUS",
    "TargetRef",
    "bonus_value",
    "can_detonate",
    "column",
    "day",
    "detonate_bonus_options",
    "ends_on_use",
    "is_spinnable",
    "out_of_energy",
    "own_combos",
    "resolves_as",
    "shield_slots",
    "spin_bonus_options",
    "targets",
    "time_of_day",
]
