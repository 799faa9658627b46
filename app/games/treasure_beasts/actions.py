"""Treasure Beasts actions: one frozen dataclass per kind, and the game's :data:`CODEC`.

Wire forms (``{"<key>": <value>}``; creatures are named by uid, cards by id, zones by name):

=====================================================  ===================================================
``{"shuffle": [card ids]}``                            chance: the new deck order, top first (3.4, AMB. 19)
``{"pick": "fang_wolf"}``                              draft: keep one card of the pack (3.5)
``{"deploy": "fang_wolf"}``                            1 AP: deploy to the card's start zone (5.1)
``{"attach": {"card": "tick_swarm", "host": 7}}``      1 AP: attach to creature 7 (5.2)
``{"alt_use": "hedgehog_hermit"}``                     1 AP + extra cost: alternative use (5.3)
``{"move": {"creature": 3, "zone": "center"}}``        move one zone (6.1)
``{"reattach": {"creature": 5, "host": 2}}``           re-attach (6.2)
``{"take": 3}``                                        take treasure from the central pool (6.3)
``{"steal": {"creature": 3, "victim": 1}}``            theft from seat 1 (section 10)
``{"activate": 3}``                                    tire: the activated ability (11.1)
``{"target": 9}``                                      declare creature 9 the target of an attack (9.1)
``{"join": 3}``                                        add an attacker to the declared attack
``{"strike": true}``                                   resolve the attack (9.2)
``{"lose": 3}``                                        the defender's owner picks an attacker to destroy
``{"discard": "fang_wolf"}``                           discard down to the hand limit (4.4)
``{"pass": true}``                                     end the turn
=====================================================  ===================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.actions import JSON, Action, ActionCodec
from ..core.errors import BadAction
from .data import ZONE_INDEX, ZONES


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadAction(f"{what} must be an integer, got {value!r}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise BadAction(f"{what} must be a card id, got {value!r}")
    return value


def _obj(value: Any, key: str, names: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict) or set(value) != set(names):
        raise BadAction(f"{key!r} takes an object with {sorted(names)}, got {value!r}")
    return value


class TBAction(Action):
    """Base of the Treasure Beasts actions."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Shuffle(TBAction):
    """Chance: the deck's new order, top first."""

    key: ClassVar[str] = "shuffle"
    order: tuple[str, ...]

    def to_value(self) -> JSON:
        return list(self.order)

    @classmethod
    def from_value(cls, value: JSON) -> Shuffle:
        if not isinstance(value, list):
            raise BadAction(f"'shuffle' takes a list of card ids, got {value!r}")
        return cls(tuple(_str(v, "a shuffled card") for v in value))


@dataclass(frozen=True, slots=True)
class _CardAction(TBAction):
    card: str

    def to_value(self) -> JSON:
        return self.card

    @classmethod
    def from_value(cls, value: JSON) -> _CardAction:
        return cls(_str(value, f"{cls.key!r}"))


@dataclass(frozen=True, slots=True)
class _CreatureAction(TBAction):
    creature: int

    def to_value(self) -> JSON:
        return self.creature

    @classmethod
    def from_value(cls, value: JSON) -> _CreatureAction:
        return cls(_int(value, f"{cls.key!r}"))


@dataclass(frozen=True, slots=True)
class _FlagAction(TBAction):
    def to_value(self) -> JSON:
        return True

    @classmethod
    def from_value(cls, value: JSON) -> _FlagAction:
        if value is not True:
            raise BadAction(f"{cls.key!r} takes true, got {value!r}")
        return cls()


@dataclass(frozen=True, slots=True)
class Pick(_CardAction):
    """Draft: keep ``card`` from the pack."""

    key: ClassVar[str] = "pick"


@dataclass(frozen=True, slots=True)
class Deploy(_CardAction):
    """1 AP: deploy ``card`` from hand to its start zone."""

    key: ClassVar[str] = "deploy"


@dataclass(frozen=True, slots=True)
class AltUse(_CardAction):
    """1 AP plus the card's extra cost: discard ``card`` from hand and resolve its alternative use."""

    key: ClassVar[str] = "alt_use"


@dataclass(frozen=True, slots=True)
class Discard(_CardAction):
    """Hand limit: discard ``card``."""

    key: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Attach(TBAction):
    """1 AP: attach ``card`` from hand to creature ``host``."""

    key: ClassVar[str] = "attach"
    card: str
    host: int

    def to_value(self) -> JSON:
        return {"card": self.card, "host": self.host}

    @classmethod
    def from_value(cls, value: JSON) -> Attach:
        v = _obj(value, cls.key, ("card", "host"))
        return cls(_str(v["card"], "attach card"), _int(v["host"], "attach host"))


@dataclass(frozen=True, slots=True)
class Move(TBAction):
    """Move ``creature`` to the adjacent ``zone`` (0 Start, 1 Bushes, 2 Center; named on the wire)."""

    key: ClassVar[str] = "move"
    creature: int
    zone: int

    def to_value(self) -> JSON:
        return {"creature": self.creature, "zone": ZONES[self.zone]}

    @classmethod
    def from_value(cls, value: JSON) -> Move:
        v = _obj(value, cls.key, ("creature", "zone"))
        zone = v["zone"]
        if not isinstance(zone, str) or zone not in ZONE_INDEX:
            raise BadAction(f"zone must be one of {list(ZONES)}, got {zone!r}")
        return cls(_int(v["creature"], "move creature"), ZONE_INDEX[zone])


@dataclass(frozen=True, slots=True)
class Reattach(TBAction):
    """Re-attach ``creature`` to ``host``."""

    key: ClassVar[str] = "reattach"
    creature: int
    host: int

    def to_value(self) -> JSON:
        return {"creature": self.creature, "host": self.host}

    @classmethod
    def from_value(cls, value: JSON) -> Reattach:
        v = _obj(value, cls.key, ("creature", "host"))
        return cls(_int(v["creature"], "reattach creature"), _int(v["host"], "reattach host"))


@dataclass(frozen=True, slots=True)
class Steal(TBAction):
    """Theft by ``creature`` from seat ``victim``'s treasury."""

    key: ClassVar[str] = "steal"
    creature: int
    victim: int

    def to_value(self) -> JSON:
        return {"creature": self.creature, "victim": self.victim}

    @classmethod
    def from_value(cls, value: JSON) -> Steal:
        v = _obj(value, cls.key, ("creature", "victim"))
        return cls(_int(v["creature"], "steal creature"), _int(v["victim"], "steal victim"))


@dataclass(frozen=True, slots=True)
class Take(_CreatureAction):
    """``creature`` takes treasure from the central pool."""

    key: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Activate(_CreatureAction):
    """Tire ``creature`` to use its activated ability."""

    key: ClassVar[str] = "activate"


@dataclass(frozen=True, slots=True)
class Target(_CreatureAction):
    """Declare the enemy ``creature`` the target of an attack."""

    key: ClassVar[str] = "target"


@dataclass(frozen=True, slots=True)
class Join(_CreatureAction):
    """Add own ``creature`` to the declared attack."""

    key: ClassVar[str] = "join"


@dataclass(frozen=True, slots=True)
class Lose(_CreatureAction):
    """The defender's owner picks attacker ``creature`` to be destroyed."""

    key: ClassVar[str] = "lose"


@dataclass(frozen=True, slots=True)
class Strike(_FlagAction):
    """Resolve the declared attack."""

    key: ClassVar[str] = "strike"


@dataclass(frozen=True, slots=True)
class Pass(_FlagAction):
    """End the turn."""

    key: ClassVar[str] = "pass"


CODEC: ActionCodec[TBAction] = ActionCodec(
    "treasure_beasts",
    Shuffle,
    Pick,
    Deploy,
    Attach,
    AltUse,
    Move,
    Reattach,
    Take,
    Steal,
    Activate,
    Target,
    Join,
    Strike,
    Lose,
    Discard,
    Pass,
)
