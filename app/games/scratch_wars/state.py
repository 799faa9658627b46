"""Scratch Wars state values: the match options, a seat's hero and weapons, the pending spin and
attack, and the whole immutable :class:`State` (``rules/scratch_wars.md`` sections 3-8), with the
state's JSON form (the match snapshot).

Every value is a frozen, slotted dataclass of ints, strings and tuples, changed only with
:func:`evolve` (the engine kit's one state idiom; see its docstring for why it is compiled here).
Indices used throughout:

* seat 0 / 1 (seat 0 is the spec's player A in the golden cases);
* a weapon *slot* is its position in the seat's loadout (0-4), so a level-1 loadout may hold the same
  weapon twice;
* effects, fields and bonus kinds are the integer constants of :mod:`.data`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.rules import Outcome
from ..core.state import evolve as evolve  # the kit's one way to change a state, re-exported for the game's modules

JSON = Any
T = TypeVar("T")

GAME = "scratch_wars"  #: the registry id, for error messages

# ------------------------------------------------------------------------------------------ phases

LOADOUT = "loadout"  #: both seats choose hero + weapons at the same time (hidden until both chose)
DRAW_LOADOUTS = "draw_loadouts"  #: chance draws the loadouts asked for with "random"
START_WEAPON = "start_weapon"  #: both seats choose the weapon for the start spin (section 3.3)
START_SPIN = "start_spin"  #: chance spins both start weapons (again on a tie, AMBIGUITY 9)
START_CHOICE = "start_choice"  #: the higher spin decides who starts
MAIN = "main"  #: the active seat spins, repairs, cancels or ends its turn (section 5.2)
SPIN = "spin"  #: chance picks the segment of the weapon just spun
DECIDE = "decide"  #: use (with which bonus) or skip the spun effect (sections 5.3, 8.6)
TARGET = "target"  #: the attacker picks the target of an attack (section 8 step 2)
SHIELD = "shield"  #: the *defender* may spend deferred shields one at a time (section 8 step 3)
COMBO = "combo"  #: end of turn: pick combos to detonate, or keep them (section 6.2)
ORDER = "order"  #: end of turn: the owner picks which queued permanent attack fires next (AMBIGUITY 16)
OVER = "over"
PHASES = (
    LOADOUT,
    DRAW_LOADOUTS,
    START_WEAPON,
    START_SPIN,
    START_CHOICE,
    MAIN,
    SPIN,
    DECIDE,
    TARGET,
    SHIELD,
    COMBO,
    ORDER,
    OVER,
)

# ------------------------------------------------------------------------------------ weapon state

READY, BROKEN, REPAIRING = 0, 1, 2
STATUS_NAMES = ("ready", "broken", "repairing")
NO_EFFECT = -1  #: ``Slot.held`` when the weapon holds no deferred effect
#: A bonus choice is the index of the bonus in the current time-of-day column, or this for none.
NO_BONUS = -1

# attack sources and targets
SRC_SPIN, SRC_PERMANENT, SRC_COMBO = 0, 1, 2
SOURCE_NAMES = ("spin", "permanent_attack", "combo")
T_HERO, T_WEAPON, T_EFFECT = 0, 1, 2
TARGET_NAMES = ("hero", "weapon", "effect")
TARGET_INDEX = {n: i for i, n in enumerate(TARGET_NAMES)}

MAX_ENERGY = 12  #: the energy cap (section 5.4, AMBIGUITY 10)
ACTIONS_PER_TURN = 4
START_PENALTY = 2  #: lives the starting player loses at once (section 3.4)
DAY3_PENALTY = 5  #: lives both heroes lose at the start of every round from day 3 (section 4)
MAX_WEAPONS = 5

LEVELS = (1, 2, 3)
EFFECT_MODES = ("distinguished", "every_effect_attacks")  #: level 2b / 2a (section 9)
#: who orders two or more permanent attacks at the end of a turn (AMBIGUITY 16): the owner chooses
#: (``"choose"``, every match created since the option exists), or they fire in loadout order
#: (``"loadout"``, the rule of matches stored before it: their logs replay unchanged)
PERMANENT_ORDERS = ("choose", "loadout")
LEGACY_PERMANENT_ORDER = "loadout"


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (section 1, 9), and the rule switches they fix.

    :param level: 1, 2 or 3.
    :param effects: level 2 only: ``"distinguished"`` (2b) or ``"every_effect_attacks"`` (2a).
    :param random_loadouts: skip the loadout phase; chance draws both loadouts.
    :param permanent_order: one of :data:`PERMANENT_ORDERS`; a config without it (a snapshot
        stored before the option existed) fires permanent attacks in loadout order.
    :param distinguished: effects are distinguished (level 3, or 2b); else every segment attacks
        the hero.
    :param bonuses: hero bonuses apply (level >= 2).
    :param energy: energy is paid and gained (level 3).
    :param day_cycle: times of day and the day-3 penalty (level >= 2).

    Build it with :meth:`of`: the switches are functions of the options (checked on
    construction; read on every step, so they are plain fields, not properties).

    :raises ValueError: switches that do not match the options.
    """

    level: int = 3
    effects: str = "distinguished"
    random_loadouts: bool = False
    distinguished: bool = True
    bonuses: bool = True
    energy: bool = True
    day_cycle: bool = True
    permanent_order: str = LEGACY_PERMANENT_ORDER

    def __post_init__(self) -> None:
        if (self.distinguished, self.bonuses, self.energy, self.day_cycle) != _switches(self.level, self.effects):
            raise ValueError(f"scratch_wars: the rule switches of {self!r} do not fit its level; use Config.of")
        if self.permanent_order not in PERMANENT_ORDERS:
            raise ValueError(
                f"scratch_wars: permanent_order must be one of {PERMANENT_ORDERS}, got {self.permanent_order!r}"
            )

    @staticmethod
    def of(
        level: int = 3,
        effects: str = "distinguished",
        random_loadouts: bool = False,
        permanent_order: str = LEGACY_PERMANENT_ORDER,
    ) -> Config:
        """The config of these options, with their switches."""
        return Config(level, effects, random_loadouts, *_switches(level, effects), permanent_order)

    @property
    def owner_orders(self) -> bool:
        """The owner picks the order of two or more permanent attacks (AMBIGUITY 16)."""
        return self.permanent_order == "choose"

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object ``{"level", "effects", "random_loadouts"[, "permanent_order"]}``
        (the switches follow); ``permanent_order`` only when the owner orders, so a state of a match
        stored before the option encodes as it did."""
        out: dict[str, JSON] = {"level": self.level, "effects": self.effects, "random_loadouts": self.random_loadouts}
        if self.permanent_order != LEGACY_PERMANENT_ORDER:
            out["permanent_order"] = self.permanent_order
        return out


def _switches(level: int, effects: str) -> tuple[bool, bool, bool, bool]:
    """``(distinguished, bonuses, energy, day_cycle)`` at ``level`` with ``effects`` (sections 1, 9)."""
    return level == 3 or (level == 2 and effects == "distinguished"), level >= 2, level == 3, level >= 2


@dataclass(frozen=True, slots=True)
class Slot:
    """One equipped weapon: its card code, ``status`` (``READY``/``BROKEN``/``REPAIRING``) and the
    deferred effect it holds (``held`` = effect index or ``NO_EFFECT``, with its fixed ``value``)."""

    weapon: str
    status: int = READY
    held: int = NO_EFFECT
    value: int = 0


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's hero: card code, lives (may go below 0 at the end), energy and weapon slots."""

    hero: str
    lives: int
    energy: int
    slots: tuple[Slot, ...]


@dataclass(frozen=True, slots=True)
class Spin:
    """The pending spin of the active seat: the weapon slot, then (after chance) the segment index
    and its printed ``effect``, ``value`` and ``field``; ``segment == -1`` while the wheel turns."""

    slot: int
    segment: int = -1
    effect: int = -1
    value: int = 0
    field: int = -1


@dataclass(frozen=True, slots=True)
class Attack:
    """An attack being resolved (section 8).

    :param source: ``SRC_SPIN``, ``SRC_PERMANENT`` or ``SRC_COMBO``.
    :param effect: the effect attacking (``ATTACK_HERO``, ``ATTACK_WEAPON``, ``UNIVERSAL_ATTACK``,
        ``PERMANENT_ATTACK`` or ``COMBO``), which decides the allowed targets.
    :param value: the value now (after the shields spent so far); ``declared``: before shields.
    :param target: ``T_HERO``/``T_WEAPON``/``T_EFFECT``, or -1 until chosen; ``slot``: the
        defender's weapon slot for a weapon or effect target (-1 for the hero).
    :param shields: the defender's slots whose shields were spent on this attack.
    :param origin: the attacker's slot it comes from (-1 for a combo detonation).
    """

    source: int
    effect: int
    value: int
    declared: int
    target: int = -1
    slot: int = -1
    shields: tuple[int, ...] = ()
    origin: int = -1


Seats = tuple[Seat | None, Seat | None]


@dataclass(frozen=True, slots=True)
class State:
    """An immutable Scratch Wars position.

    :param config: the match options.
    :param phase: one of :data:`PHASES`.
    :param seats: both seats (``None`` until the seat's loadout is known).
    :param starter: the seat that starts every round (-1 until chosen).
    :param active: whose turn it is; in ``START_CHOICE`` the seat that won the start spin.
    :param round: rounds begun (round r: time of day ``(r-1) % 4``, day ``(r-1) // 4 + 1``).
    :param actions: actions left this turn.
    :param used: bit mask of the active hero's current-column bonuses used this turn.
    :param ending: the main phase ends once the current spin is resolved (red field, orange used),
        and stays true through the end-of-turn steps.
    :param spin: the pending spin (``None`` when none).
    :param attack: the attack being resolved (``None`` when none).
    :param queue: slots of the active seat's permanent attacks still to fire this end of turn.
    :param combos: slots of the combos selected for detonation (``COMBO`` phase).
    :param start: ``(weapon slot 0, weapon slot 1, segment 0, segment 1)`` of the start spin, or ``()``.
    :param random_seats: seats whose loadout chance draws (``DRAW_LOADOUTS``).
    :param outcome: the result once over.

    Outside the loadout phases both seats are set; :meth:`seat` reads one of them, and
    :meth:`spin_now` / :meth:`attack_now` the spin or attack a phase works on.
    """

    config: Config
    phase: str
    seats: Seats
    starter: int = -1
    active: int = -1
    round: int = 0
    actions: int = 0
    used: int = 0
    ending: bool = False
    spin: Spin | None = None
    attack: Attack | None = None
    queue: tuple[int, ...] = ()
    combos: tuple[int, ...] = ()
    start: tuple[int, ...] = ()
    random_seats: tuple[int, ...] = ()
    outcome: Outcome | None = None

    def seat(self, i: int) -> Seat:
        """Seat ``i``, once the loadouts are known.

        :raises ValueError: seat ``i`` has no loadout yet (the loadout phases).
        """
        seat = self.seats[i]
        if seat is None:
            raise ValueError(f"scratch_wars: seat {i} has no loadout yet (phase {self.phase!r})")
        return seat

    def spin_now(self) -> Spin:
        """The pending spin (phases ``SPIN`` and ``DECIDE``, and an attack it started).

        :raises ValueError: no spin is pending.
        """
        spin = self.spin
        if spin is None:
            raise ValueError(f"scratch_wars: no spin is pending (phase {self.phase!r})")
        return spin

    def attack_now(self) -> Attack:
        """The attack being resolved (phases ``TARGET`` and ``SHIELD``).

        :raises ValueError: no attack is being resolved.
        """
        attack = self.attack
        if attack is None:
            raise ValueError(f"scratch_wars: no attack is being resolved (phase {self.phase!r})")
        return attack


def set_seat(seats: Seats, i: int, seat: Seat) -> Seats:
    """``seats`` with seat ``i`` replaced."""
    return (seat, seats[1]) if i == 0 else (seats[0], seat)


def set_slot(seat: Seat, j: int, slot: Slot) -> Seat:
    """``seat`` with weapon slot ``j`` replaced."""
    return evolve(seat, slots=replace_at(seat.slots, j, slot))


def replace_at(items: tuple[T, ...], i: int, item: T) -> tuple[T, ...]:
    """``items`` with the one at index ``i`` replaced by ``item``."""
    return (*items[:i], item, *items[i + 1 :])


# ------------------------------------------------------------------------------------------- JSON


def _seat_json(s: Seat | None) -> JSON:
    if s is None:
        return None
    return {
        "hero": s.hero,
        "lives": s.lives,
        "energy": s.energy,
        "slots": [[sl.weapon, sl.status, sl.held, sl.value] for sl in s.slots],
    }


def encode_state(state: State) -> dict[str, JSON]:
    """The whole state as JSON (the match snapshot)::

        {"config": {"level", "effects", "random_loadouts"}, "phase", "seats": [seat | null] x2,
         "starter", "active", "round", "actions", "used", "ending",
         "spin": [slot, segment, effect, value, field] | null,
         "attack": [source, effect, value, declared, target, slot, [shields], origin] | null,
         "queue", "combos", "start", "random_seats", "outcome": Outcome.to_json() | null}

    A seat is ``{"hero", "lives", "energy", "slots": [[weapon, status, held, value], ...]}``.
    """
    spin, attack = state.spin, state.attack
    return {
        "config": state.config.to_json(),
        "phase": state.phase,
        "seats": [_seat_json(state.seats[0]), _seat_json(state.seats[1])],
        "starter": state.starter,
        "active": state.active,
        "round": state.round,
        "actions": state.actions,
        "used": state.used,
        "ending": state.ending,
        "spin": None if spin is None else [spin.slot, spin.segment, spin.effect, spin.value, spin.field],
        "attack": None
        if attack is None
        else [
            attack.source,
            attack.effect,
            attack.value,
            attack.declared,
            attack.target,
            attack.slot,
            list(attack.shields),
            attack.origin,
        ],
        "queue": list(state.queue),
        "combos": list(state.combos),
        "start": list(state.start),
        "random_seats": list(state.random_seats),
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def _decode_seat(s: JSON) -> Seat | None:
    if s is None:
        return None
    return Seat(
        str(s["hero"]),
        int(s["lives"]),
        int(s["energy"]),
        tuple(Slot(str(w), int(st), int(h), int(v)) for w, st, h, v in s["slots"]),
    )


def _decode_attack(a: JSON) -> Attack:
    source, effect, value, declared, target, slot = (int(x) for x in a[:6])
    return Attack(source, effect, value, declared, target, slot, tuple(int(x) for x in a[6]), int(a[7]))


def decode_state(obj: JSON) -> State:
    """Inverse of :func:`encode_state`.

    :raises ValueError: a malformed snapshot.
    """
    try:
        if obj["phase"] not in PHASES:
            raise ValueError(f"unknown phase {obj['phase']!r}")
        spin, attack = obj["spin"], obj["attack"]
        return State(
            config=Config.of(**obj["config"]),
            phase=obj["phase"],
            seats=(_decode_seat(obj["seats"][0]), _decode_seat(obj["seats"][1])),
            starter=int(obj["starter"]),
            active=int(obj["active"]),
            round=int(obj["round"]),
            actions=int(obj["actions"]),
            used=int(obj["used"]),
            ending=bool(obj["ending"]),
            spin=None if spin is None else Spin(*(int(x) for x in spin)),
            attack=None if attack is None else _decode_attack(attack),
            queue=tuple(int(x) for x in obj["queue"]),
            combos=tuple(int(x) for x in obj["combos"]),
            start=tuple(int(x) for x in obj["start"]),
            random_seats=tuple(int(x) for x in obj["random_seats"]),
            outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"scratch_wars: malformed state snapshot ({exc!r})") from None
