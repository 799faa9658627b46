"""Scratch Wars actions: one frozen dataclass per kind, and the game's codec (engine kit,
:mod:`app.games.core.actions`).

Wire forms (unchanged from the first engine, so stored matches replay)::

    Loadout("BRAM", ("IRON", ...))   {"loadout": {"hero": "BRAM", "weapons": ["IRON", ...]}}
    RandomLoadout()                  {"loadout": "random"}
    StartWeapon(0)                   {"start_weapon": 0}
    Starter(1)                       {"starter": 1}
    SpinWeapon(2)                    {"spin": 2}
    Repair(2)                        {"repair": 2}
    Cancel(2)                        {"cancel": 2}
    EndTurn()                        {"end_turn": true}
    Use(bonus)                       {"use": {"bonus": null | 0 | 1}}   bonus index in the column
    Skip()                           {"skip": true}
    Target("hero")                   {"target": "hero"}
    Target("weapon" | "effect", 1)   {"target": "weapon" | "effect", "slot": 1}
    SpendShield(3)                   {"shield": 3}      the defender spends the shield on slot 3
    TakeHit()                        {"take_hit": true} the defender spends no (more) shields
    FirePermanent(1)                 {"fire": 1}        the permanent attack on slot 1 fires next
    AddCombo(1)                      {"combo": 1}       add the combo on slot 1 to the detonation
    Detonate(bonus)                  {"detonate": {"bonus": null | 0}}
    KeepCombos()                     {"keep_combos": true}
  chance:
    Segment(4)                       {"segment": 4}
    StartSpin(4, 7)                  {"start_spin": [4, 7]}
    DrawnLoadouts(((0, Loadout(..)),))  {"loadouts": {"0": {"hero": ..., "weapons": [...]}}}

Two forms do not fit the kit's ``{key: value}`` rule and are kept as they were: a target on a
weapon or effect carries a second key, ``slot``, and the quick random loadout shares the key
``loadout``. :class:`ScratchCodec` handles both; every other action goes through the kit's codec.

A bonus of ``-1`` (:data:`NO_BONUS`) means "no bonus" (``null`` on the wire). The engine lists
actions from the constant tables at the end of this module (values, not caches).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ..core.actions import JSON, Action, ActionCodec
from ..core.errors import BadAction
from .state import MAX_WEAPONS, NO_BONUS, TARGET_NAMES


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _index(key: str, value: JSON, what: str = "a slot number") -> int:
    """:raises BadAction: ``value`` is not an int (bools are not)."""
    if not _is_int(value):
        raise BadAction(f"{key!r} takes {what}, got {value!r}")
    number: int = value
    return number


def _flag(key: str, value: JSON) -> None:
    """:raises BadAction: ``value`` is not ``true``."""
    if value is not True:
        raise BadAction(f"{key!r} takes true, got {value!r}")


def _bonus(key: str, value: JSON) -> int:
    """``{"bonus": null | index}`` -> index or :data:`NO_BONUS`. :raises BadAction: another shape."""
    if (
        not isinstance(value, dict)
        or set(value) != {"bonus"}
        or not (value["bonus"] is None or _is_int(value["bonus"]))
    ):
        raise BadAction(f"{key!r} takes {{'bonus': null | index}}, got {value!r}")
    bonus: int | None = value["bonus"]
    return NO_BONUS if bonus is None else bonus


class ScratchAction(Action):
    """Base of every Scratch Wars action (a frozen, slotted dataclass per kind)."""

    __slots__ = ()


class _Number(ScratchAction):
    """An action whose wire value is one int, its only field :attr:`field` (a slot, a seat, a segment)."""

    __slots__ = ()
    field: ClassVar[str] = "slot"
    what: ClassVar[str] = "a slot number"

    def to_value(self) -> JSON:
        return getattr(self, self.field)

    @classmethod
    def from_value(cls, value: JSON) -> ScratchAction:
        """:raises BadAction: not an int (bools are not)."""
        return cls(_index(cls.key, value, cls.what))  # type: ignore[call-arg]


class _Flag(ScratchAction):
    """An action without fields; its wire value is ``true``."""

    __slots__ = ()

    def to_value(self) -> JSON:
        return True

    @classmethod
    def from_value(cls, value: JSON) -> ScratchAction:
        """:raises BadAction: not ``true``."""
        _flag(cls.key, value)
        return cls()


# ----------------------------------------------------------------------------------- loadouts (3.1)


@dataclass(frozen=True, slots=True)
class Loadout(ScratchAction):
    """A seat's loadout: a hero code and 1-5 weapon codes, in slot order (section 3.1). Checked
    against the card set and the level by the rules, not here."""

    key: ClassVar[str] = "loadout"
    hero: str
    weapons: tuple[str, ...]

    def to_value(self) -> JSON:
        return {"hero": self.hero, "weapons": list(self.weapons)}

    @classmethod
    def from_value(cls, value: JSON) -> ScratchAction:
        """Also parses ``"random"`` (:class:`RandomLoadout`, which shares this key).

        :raises BadAction: not ``"random"`` nor ``{"hero": code, "weapons": [codes]}``.
        """
        if value == "random":
            return RANDOM_LOADOUT
        return cls.parse(value)

    @classmethod
    def parse(cls, value: JSON) -> Loadout:
        """``{"hero": code, "weapons": [codes]}`` -> :class:`Loadout`.

        :raises BadAction: another shape (a hero or weapon code that is not a string included).
        """
        if (
            not isinstance(value, dict)
            or set(value) != {"hero", "weapons"}
            or not isinstance(value["hero"], str)
            or not isinstance(value["weapons"], list | tuple)
            or not all(isinstance(w, str) for w in value["weapons"])
        ):
            raise BadAction(f"a loadout is {{'hero': code, 'weapons': [codes]}} or 'random', got {value!r}")
        return cls(value["hero"], tuple(value["weapons"]))


@dataclass(frozen=True, slots=True)
class RandomLoadout(ScratchAction):
    """ "Quick random": chance draws this seat's loadout (public). Wire: ``{"loadout": "random"}``."""

    key: ClassVar[str] = "loadout"

    def to_value(self) -> JSON:
        return "random"

    @classmethod
    def from_value(cls, value: JSON) -> ScratchAction:
        """:raises BadAction: ``value`` is not ``"random"``."""
        if value != "random":
            raise BadAction(f"'loadout' is 'random' here, got {value!r}")
        return RANDOM_LOADOUT


@dataclass(frozen=True, slots=True)
class DrawnLoadouts(ScratchAction):
    """Chance: the loadouts drawn for the seats that asked for a random one, ``((seat, loadout), ...)``
    in seat order."""

    key: ClassVar[str] = "loadouts"
    loadouts: tuple[tuple[int, Loadout], ...]

    def to_value(self) -> JSON:
        return {str(seat): loadout.to_value() for seat, loadout in self.loadouts}

    @classmethod
    def from_value(cls, value: JSON) -> DrawnLoadouts:
        """:raises BadAction: not ``{"0" | "1": {"hero", "weapons"}}``."""
        if not isinstance(value, dict):
            raise BadAction(f"'loadouts' maps seats to loadouts, got {value!r}")
        drawn = []
        for key, loadout in sorted(value.items()):
            if key not in ("0", "1"):
                raise BadAction(f"malformed drawn loadout {key!r}: {loadout!r}")
            drawn.append((int(key), Loadout.parse(loadout)))
        return cls(tuple(drawn))


# -------------------------------------------------------------------------------- start (3.3-3.4)


@dataclass(frozen=True, slots=True)
class StartWeapon(_Number):
    """The weapon slot a seat spins for the start (section 3.3)."""

    key: ClassVar[str] = "start_weapon"
    slot: int


@dataclass(frozen=True, slots=True)
class StartSpin(ScratchAction):
    """Chance: the segments both start weapons land on (seat 0's, seat 1's)."""

    key: ClassVar[str] = "start_spin"
    first: int
    second: int

    def to_value(self) -> JSON:
        return [self.first, self.second]

    @classmethod
    def from_value(cls, value: JSON) -> StartSpin:
        """:raises BadAction: not two ints."""
        if not isinstance(value, list | tuple) or len(value) != 2 or not all(_is_int(v) for v in value):
            raise BadAction(f"'start_spin' takes two segment indices, got {value!r}")
        return cls(value[0], value[1])


@dataclass(frozen=True, slots=True)
class Starter(_Number):
    """The winner of the start spin names the seat that starts (section 3.4)."""

    key: ClassVar[str] = "starter"
    field: ClassVar[str] = "seat"
    what: ClassVar[str] = "a seat"
    seat: int


# ------------------------------------------------------------------------------------ a turn (5-7)


@dataclass(frozen=True, slots=True)
class SpinWeapon(_Number):
    """Spin the weapon on ``slot`` (section 5.2): 1 action and, at level 3, its energy cost."""

    key: ClassVar[str] = "spin"
    slot: int


@dataclass(frozen=True, slots=True)
class Segment(_Number):
    """Chance: the segment the spun wheel lands on (uniform, AMBIGUITY 17)."""

    key: ClassVar[str] = "segment"
    field: ClassVar[str] = "index"
    what: ClassVar[str] = "a segment index"
    index: int


@dataclass(frozen=True, slots=True)
class Use(ScratchAction):
    """Use the spun effect, with the bonus of that index in the current column or none (8.6)."""

    key: ClassVar[str] = "use"
    bonus: int = NO_BONUS

    def to_value(self) -> JSON:
        return {"bonus": None if self.bonus < 0 else self.bonus}

    @classmethod
    def from_value(cls, value: JSON) -> Use:
        """:raises BadAction: not ``{"bonus": null | index}``."""
        return cls(_bonus(cls.key, value))


@dataclass(frozen=True, slots=True)
class Skip(_Flag):
    """Do not use the spun effect (section 5.3)."""

    key: ClassVar[str] = "skip"


@dataclass(frozen=True, slots=True)
class Repair(_Number):
    """Start repairing the broken weapon on ``slot`` (section 7.3)."""

    key: ClassVar[str] = "repair"
    slot: int


@dataclass(frozen=True, slots=True)
class Cancel(_Number):
    """Cancel the own deferred effect on ``slot``, for free (section 5.2)."""

    key: ClassVar[str] = "cancel"
    slot: int


@dataclass(frozen=True, slots=True)
class EndTurn(_Flag):
    """End the main phase now (section 5.4)."""

    key: ClassVar[str] = "end_turn"


# -------------------------------------------------------------------------------- attacks (8)


@dataclass(frozen=True, slots=True)
class Target(ScratchAction):
    """The attacker's target: ``"hero"``, or ``"weapon"`` / ``"effect"`` on the defender's ``slot``
    (section 8 step 2). Wire: ``{"target": "hero"}`` or ``{"target": kind, "slot": n}``."""

    key: ClassVar[str] = "target"
    kind: str
    slot: int = -1

    def to_value(self) -> JSON:
        return self.kind

    def to_json(self) -> JSON:
        if self.kind == "hero":
            return {"target": "hero"}
        return {"target": self.kind, "slot": self.slot}

    @classmethod
    def from_value(cls, value: JSON) -> Target:
        """The one-key form: only ``"hero"``.

        :raises BadAction: anything else (a weapon or effect needs its slot).
        """
        if value != "hero":
            raise BadAction(
                f"a target is {{'target': 'hero'}} or {{'target': 'weapon'|'effect', 'slot': n}}, "
                f"got {{'target': {value!r}}}"
            )
        return TARGET_HERO

    @classmethod
    def from_json(cls, obj: Mapping[str, JSON]) -> Target:
        """The two-key form ``{"target": "weapon" | "effect", "slot": n}``.

        :raises BadAction: another kind, or a slot that is not an int.
        """
        kind, slot = obj.get("target"), obj.get("slot")
        if kind not in ("weapon", "effect") or not _is_int(slot):
            raise BadAction(
                f"a target is {{'target': 'hero'}} or {{'target': 'weapon'|'effect', 'slot': n}}, got {dict(obj)!r}"
            )
        return cls(str(kind), int(slot))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class SpendShield(_Number):
    """The defender spends the deferred shield on its ``slot`` against the attack (step 3)."""

    key: ClassVar[str] = "shield"
    slot: int


@dataclass(frozen=True, slots=True)
class TakeHit(_Flag):
    """The defender spends no (more) shields; the attack applies (step 4)."""

    key: ClassVar[str] = "take_hit"


# ------------------------------------------------------------------- end of turn (6.1, AMBIGUITY 16)


@dataclass(frozen=True, slots=True)
class FirePermanent(_Number):
    """Fire the own permanent attack on ``slot`` next, when two or more are queued at the end of
    the turn (AMBIGUITY 16: the owner chooses their order). Wire: ``{"fire": slot}``."""

    key: ClassVar[str] = "fire"
    slot: int


# ---------------------------------------------------------------------------------- combos (6.2)


@dataclass(frozen=True, slots=True)
class AddCombo(_Number):
    """Add the own deferred combo on ``slot`` to the detonation."""

    key: ClassVar[str] = "combo"
    slot: int


@dataclass(frozen=True, slots=True)
class Detonate(ScratchAction):
    """Detonate the selected combos, with the bonus of that index or none."""

    key: ClassVar[str] = "detonate"
    bonus: int = NO_BONUS

    def to_value(self) -> JSON:
        return {"bonus": None if self.bonus < 0 else self.bonus}

    @classmethod
    def from_value(cls, value: JSON) -> Detonate:
        """:raises BadAction: not ``{"bonus": null | index}``."""
        return cls(_bonus(cls.key, value))


@dataclass(frozen=True, slots=True)
class KeepCombos(_Flag):
    """Keep every combo for a later turn; the turn passes."""

    key: ClassVar[str] = "keep_combos"


# ------------------------------------------------------------------------------------------ codec


class ScratchCodec(ActionCodec[ScratchAction]):
    """The kit's codec plus the two older wire forms (module docstring): ``{"target": kind,
    "slot": n}`` and :class:`RandomLoadout` under the key of :class:`Loadout`.

    :param kinds: the action classes decoded by their key (distinct keys).
    :param sharing: classes encoded under the key of one of ``kinds`` (decoded by that class).
    """

    def __init__(self, game: str, *kinds: type[ScratchAction], sharing: tuple[type[ScratchAction], ...] = ()) -> None:
        super().__init__(game, *kinds)
        self.encodable = frozenset((*kinds, *sharing))

    def encode(self, action: ScratchAction) -> JSON:
        """The wire form of ``action`` (its ``to_json``).

        :raises BadAction: not a Scratch Wars action.
        """
        if type(action) not in self.encodable:
            raise BadAction(f"{self.game}: {action!r} is not an action of this game")
        return action.to_json()

    def decode(self, obj: JSON) -> ScratchAction:
        """Parse a wire action.

        :raises BadAction: not one of the shapes in the module docstring.
        """
        if isinstance(obj, Mapping) and len(obj) == 2 and "target" in obj:
            if set(obj) != {"target", "slot"}:
                raise BadAction(f"{self.game}: an action has one key, got {sorted(obj)}")
            try:
                return Target.from_json(obj)
            except BadAction as exc:
                raise BadAction(f"{self.game}: {exc}") from None
        return super().decode(obj)


CODEC = ScratchCodec(
    "scratch_wars",
    Loadout,
    DrawnLoadouts,
    StartWeapon,
    StartSpin,
    Starter,
    SpinWeapon,
    Segment,
    Use,
    Skip,
    Repair,
    Cancel,
    EndTurn,
    Target,
    SpendShield,
    TakeHit,
    FirePermanent,
    AddCombo,
    Detonate,
    KeepCombos,
    sharing=(RandomLoadout,),
)

# ------------------------------------------------------------------- constant values the rules list

RANDOM_LOADOUT = RandomLoadout()
END_TURN = EndTurn()
SKIP = Skip()
TAKE_HIT = TakeHit()
KEEP_COMBOS = KeepCombos()
TARGET_HERO = Target("hero")
#: by slot
SPIN_WEAPON = tuple(SpinWeapon(j) for j in range(MAX_WEAPONS))
REPAIR = tuple(Repair(j) for j in range(MAX_WEAPONS))
CANCEL = tuple(Cancel(j) for j in range(MAX_WEAPONS))
START_WEAPON = tuple(StartWeapon(j) for j in range(MAX_WEAPONS))
SPEND_SHIELD = tuple(SpendShield(j) for j in range(MAX_WEAPONS))
ADD_COMBO = tuple(AddCombo(j) for j in range(MAX_WEAPONS))
FIRE_PERMANENT = tuple(FirePermanent(j) for j in range(MAX_WEAPONS))
STARTER = (Starter(0), Starter(1))
#: ``TARGETS[t][j]``: target kind ``t`` (``T_WEAPON``/``T_EFFECT``) on slot ``j``; ``TARGETS[T_HERO][0]`` the hero
TARGETS = ((TARGET_HERO,), *(tuple(Target(name, j) for j in range(MAX_WEAPONS)) for name in TARGET_NAMES[1:]))
_SEGMENTS = tuple(Segment(i) for i in range(256))
_USES = tuple(Use(b) for b in range(-1, 8))
_DETONATES = tuple(Detonate(b) for b in range(-1, 8))


def segment(index: int) -> Segment:
    """``Segment(index)`` (a shared value for wheels of up to 256 segments)."""
    return _SEGMENTS[index] if 0 <= index < 256 else Segment(index)


def use(bonus: int) -> Use:
    """``Use(bonus)`` (a shared value for the usual indices)."""
    return _USES[bonus + 1] if -1 <= bonus < 7 else Use(bonus)


def detonate(bonus: int) -> Detonate:
    """``Detonate(bonus)`` (a shared value for the usual indices)."""
    return _DETONATES[bonus + 1] if -1 <= bonus < 7 else Detonate(bonus)


def target(kind: int, slot: int) -> Target:
    """The :class:`Target` for ``(T_HERO | T_WEAPON | T_EFFECT, slot)`` as :func:`.effects.targets` lists it."""
    return TARGETS[kind][0] if kind == 0 else TARGETS[kind][slot]


__all__ = [
    "CODEC",
    "NO_BONUS",
    "AddCombo",
    "Cancel",
    "Detonate",
    "DrawnLoadouts",
    "EndTurn",
    "FirePermanent",
    "KeepCombos",
    "Loadout",
    "RandomLoadout",
    "Repair",
    "ScratchAction",
    "ScratchCodec",
    "Segment",
    "Skip",
    "SpendShield",
    "SpinWeapon",
    "StartSpin",
    "StartWeapon",
    "Starter",
    "TakeHit",
    "Target",
    "Use",
]
