"""Scratch Wars state values: the match options, a seat's hero and weapons, the pending spin and
attack, and the whole immutable :class:`State` (``rules/scratch_wars.md`` sections 3-8).

Everything is a ``NamedTuple`` of ints, strings and tuples: immutable, comparable, cheap to build
(the engine makes a new state for every step). Indices used throughout:

* seat 0 / 1 (seat 0 is the spec's player A in the golden cases);
* a weapon *slot* is its position in the seat's loadout (0-4), so a level-1 loadout may hold the same
  weapon twice;
* effects, fields and bonus kinds are the integer constants of :mod:`.data`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..core.rules import Outcome

JSON = Any

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
OVER = "over"
PHASES = (LOADOUT, DRAW_LOADOUTS, START_WEAPON, START_SPIN, START_CHOICE, MAIN, SPIN, DECIDE, TARGET,
          SHIELD, COMBO, OVER)

# ------------------------------------------------------------------------------------ weapon state

READY, BROKEN, REPAIRING = 0, 1, 2
STATUS_NAMES = ("ready", "broken", "repairing")
NO_EFFECT = -1  #: ``Slot.held`` when the weapon holds no deferred effect

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


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries.

    :param level: 1, 2 or 3 (section 1).
    :param effects: level 2 only: ``"distinguished"`` (2b) or ``"every_effect_attacks"`` (2a).
    :param random_loadouts: skip the loadout phase; chance draws both loadouts.
    """

    level: int = 3
    effects: str = "distinguished"
    random_loadouts: bool = False
    #: effects are distinguished (level 3, or 2b); else every segment is an attack on the hero
    distinguished: bool = field(init=False, compare=False, repr=False)
    bonuses: bool = field(init=False, compare=False, repr=False)  #: hero bonuses (level >= 2)
    energy: bool = field(init=False, compare=False, repr=False)  #: energy (level 3)
    day_cycle: bool = field(init=False, compare=False, repr=False)  #: times of day, day 3 (level >= 2)

    def __post_init__(self) -> None:
        object.__setattr__(self, "distinguished",
                           self.level == 3 or (self.level == 2 and self.effects == "distinguished"))
        object.__setattr__(self, "bonuses", self.level >= 2)
        object.__setattr__(self, "energy", self.level == 3)
        object.__setattr__(self, "day_cycle", self.level >= 2)

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object."""
        return {"level": self.level, "effects": self.effects, "random_loadouts": self.random_loadouts}


class Slot(NamedTuple):
    """One equipped weapon: its card code, ``status`` (``READY``/``BROKEN``/``REPAIRING``) and the
    deferred effect it holds (``held`` = effect index or ``NO_EFFECT``, with its fixed ``value``)."""

    weapon: str
    status: int = READY
    held: int = NO_EFFECT
    value: int = 0


class Seat(NamedTuple):
    """A seat's hero: card code, lives (may go below 0 at the end), energy and weapon slots."""

    hero: str
    lives: int
    energy: int
    slots: tuple[Slot, ...]


class Spin(NamedTuple):
    """The pending spin of the active seat: the weapon slot, then (after chance) the segment index
    and its printed ``effect``, ``value`` and ``field``; ``segment == -1`` while the wheel turns."""

    slot: int
    segment: int = -1
    effect: int = -1
    value: int = 0
    field: int = -1


class Attack(NamedTuple):
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


class State(NamedTuple):
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
    """

    config: Config
    phase: str
    seats: tuple[Seat | None, Seat | None]
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


def _fast_replace(cls: Any) -> Any:
    """A faster ``cls._replace`` (``NamedTuple._replace`` costs several microseconds on a wide tuple)."""
    index = {f: i for i, f in enumerate(cls._fields)}
    new = tuple.__new__

    def replace(obj: Any, **changes: Any) -> Any:
        values = list(obj)
        for key, value in changes.items():
            values[index[key]] = value
        return new(cls, values)

    replace.__doc__ = f"``obj`` ({cls.__name__}) with the given fields replaced."
    return replace


replace_state = _fast_replace(State)
replace_seat = _fast_replace(Seat)
replace_slot = _fast_replace(Slot)
replace_attack = _fast_replace(Attack)


def set_seat(seats: tuple[Seat | None, Seat | None], i: int, seat: Seat) -> tuple[Seat | None, Seat | None]:
    """``seats`` with seat ``i`` replaced."""
    return (seat, seats[1]) if i == 0 else (seats[0], seat)


def set_slot(seat: Seat, j: int, slot: Slot) -> Seat:
    """``seat`` with weapon slot ``j`` replaced."""
    slots = seat.slots
    return tuple.__new__(Seat, (seat.hero, seat.lives, seat.energy, slots[:j] + (slot,) + slots[j + 1:]))


# ------------------------------------------------------------------------------------------- JSON


def encode_state(state: State) -> dict[str, JSON]:
    """The whole state as JSON (the match snapshot)."""

    def seat(s: Seat | None) -> JSON:
        if s is None:
            return None
        return {"hero": s.hero, "lives": s.lives, "energy": s.energy,
                "slots": [[sl.weapon, sl.status, sl.held, sl.value] for sl in s.slots]}

    return {
        "config": state.config.to_json(),
        "phase": state.phase,
        "seats": [seat(state.seats[0]), seat(state.seats[1])],
        "starter": state.starter,
        "active": state.active,
        "round": state.round,
        "actions": state.actions,
        "used": state.used,
        "ending": state.ending,
        "spin": None if state.spin is None else list(state.spin),
        "attack": None if state.attack is None else [*state.attack[:6], list(state.attack.shields),
                                                     state.attack.origin],
        "queue": list(state.queue),
        "combos": list(state.combos),
        "start": list(state.start),
        "random_seats": list(state.random_seats),
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def decode_state(obj: JSON) -> State:
    """Inverse of :func:`encode_state`.

    :raises ValueError: a malformed snapshot.
    """
    try:
        if obj["phase"] not in PHASES:
            raise ValueError(f"unknown phase {obj['phase']!r}")

        def seat(s: JSON) -> Seat | None:
            if s is None:
                return None
            return Seat(str(s["hero"]), int(s["lives"]), int(s["energy"]),
                        tuple(Slot(str(w), int(st), int(h), int(v)) for w, st, h, v in s["slots"]))

        attack = obj["attack"]
        return State(
            config=Config(**obj["config"]),
            phase=obj["phase"],
            seats=(seat(obj["seats"][0]), seat(obj["seats"][1])),
            starter=int(obj["starter"]),
            active=int(obj["active"]),
            round=int(obj["round"]),
            actions=int(obj["actions"]),
            used=int(obj["used"]),
            ending=bool(obj["ending"]),
            spin=None if obj["spin"] is None else Spin(*(int(x) for x in obj["spin"])),
            attack=None if attack is None else Attack(*(int(x) for x in attack[:6]),
                                                      tuple(int(x) for x in attack[6]), int(attack[7])),
            queue=tuple(int(x) for x in obj["queue"]),
            combos=tuple(int(x) for x in obj["combos"]),
            start=tuple(int(x) for x in obj["start"]),
            random_seats=tuple(int(x) for x in obj["random_seats"]),
            outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
        )
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"scratch_wars: malformed state snapshot ({exc!r})") from None
