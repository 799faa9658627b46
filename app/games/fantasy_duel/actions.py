"""Fantasy súboj actions: one frozen dataclass per kind, and the game's :data:`CODEC`.

==============  =====================================  ==========================================
class           wire form                              when
==============  =====================================  ==========================================
:class:`Shuffle`  ``{"shuffle": [card, ...]}``         chance: the deck order, top first (secret)
:class:`Dice`     ``{"dice": [1..6, ...]}``            chance: the start roll (one die per rolling
                                                       seat, seat order) or an attack's dice
:class:`Attacker` ``{"attacker": card}``               the active seat picks its attacking unit
:class:`Target`   ``{"target": card}``                 ... then an enemy unit (spec 4.1)
:class:`Back`     ``{"back": true}``                   ... or goes back to choosing the attacker
:class:`Imprison` ``{"imprison": true}``               the winner of a margin > 10 sends the
                                                       defeated unit to its prison (spec 4.7 a)
:class:`Recruit`  ``{"recruit": card}``                ... or recruits it, sending its own unit
                                                       ``card`` to prison instead (spec 4.7 b)
:class:`Draw`     ``{"draw": true}``                   a Tactics player takes one owed card
:class:`Defer`    ``{"defer": true}``                  ... or declines it for now (spec 5.8 b)
==============  =====================================  ==========================================

Cards are numbers (see :mod:`.data`); a card's unit is public once it is on the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..core.actions import JSON, Action, ActionCodec
from ..core.errors import BadAction

#: The largest number of dice a :class:`Dice` may carry (a start roll of 8 seats, or an attack).
MAX_DICE_IN_ACTION = 16


def _card(key: str, value: JSON) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadAction(f"{key!r} takes a card number (int >= 0), got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Shuffle(Action):
    """Chance: the deck order after the opening shuffle, top card first (spec section 2)."""

    key: ClassVar[str] = "shuffle"
    order: tuple[int, ...]

    def to_value(self) -> JSON:
        return list(self.order)

    @classmethod
    def from_value(cls, value: JSON) -> Shuffle:
        """:raises BadAction: not a list of card numbers."""
        if not isinstance(value, list):
            raise BadAction(f"'shuffle' takes a list of card numbers, got {value!r}")
        return cls(tuple(_card("shuffle", v) for v in value))


@dataclass(frozen=True, slots=True)
class Dice(Action):
    """Chance: d6 results, 1..6 each (spec 2 start roll, spec 4.2 attack dice)."""

    key: ClassVar[str] = "dice"
    values: tuple[int, ...]

    def to_value(self) -> JSON:
        return list(self.values)

    @classmethod
    def from_value(cls, value: JSON) -> Dice:
        """:raises BadAction: not a list of 1 to 16 integers from 1 to 6."""
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_DICE_IN_ACTION:
            raise BadAction(f"'dice' takes a list of 1 to {MAX_DICE_IN_ACTION} die results, got {value!r}")
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
                raise BadAction(f"a die shows 1 to 6, got {v!r}")
        return cls(tuple(value))


@dataclass(frozen=True, slots=True)
class Attacker(Action):
    """The active seat's attacking unit (spec 4.1: not poisoned)."""

    key: ClassVar[str] = "attacker"
    card: int

    def to_value(self) -> JSON:
        return self.card

    @classmethod
    def from_value(cls, value: JSON) -> Attacker:
        """:raises BadAction: not a card number."""
        return cls(_card(cls.key, value))


@dataclass(frozen=True, slots=True)
class Target(Action):
    """The attacked enemy unit (spec 4.1: taunt and tactics decide which are allowed)."""

    key: ClassVar[str] = "target"
    card: int

    def to_value(self) -> JSON:
        return self.card

    @classmethod
    def from_value(cls, value: JSON) -> Target:
        """:raises BadAction: not a card number."""
        return cls(_card(cls.key, value))


@dataclass(frozen=True, slots=True)
class Back(Action):
    """Take back the chosen attacker before picking a target (nothing is rolled yet)."""

    key: ClassVar[str] = "back"


@dataclass(frozen=True, slots=True)
class Imprison(Action):
    """The winner of a margin over 10 sends the defeated unit to its own prison (spec 4.7 a)."""

    key: ClassVar[str] = "imprison"


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """The winner recruits the defeated unit and sends its own unit ``card`` to prison (4.7 b)."""

    key: ClassVar[str] = "recruit"
    card: int

    def to_value(self) -> JSON:
        return self.card

    @classmethod
    def from_value(cls, value: JSON) -> Recruit:
        """:raises BadAction: not a card number."""
        return cls(_card(cls.key, value))


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """A Tactics player takes one owed card from the deck now (spec 5.8 b, section 6)."""

    key: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class Defer(Action):
    """A Tactics player declines the owed card for now (spec 5.8 b): at the start of a turn it
    ends the drawing and goes to the attack."""

    key: ClassVar[str] = "defer"


FantasyAction = Shuffle | Dice | Attacker | Target | Back | Imprison | Recruit | Draw | Defer

CODEC: ActionCodec[FantasyAction] = ActionCodec(
    "fantasy_duel",
    Shuffle,
    Dice,
    Attacker,
    Target,
    Back,
    Imprison,
    Recruit,
    Draw,
    Defer,
)
