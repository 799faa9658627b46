"""Stratego Junior actions: one frozen value per kind, and the game's codec
(``rules/stratego_junior.md`` sections 3-5).

=====================  ==================================================  ==================
class                  wire form                                           who, when
=====================  ==================================================  ==================
:class:`Setup`         ``{"setup": {"towers": [3 ids], "rows": [[4 ids] x 4]}}``  both seats, setup
:class:`Move`          ``{"move": {"from": [r, c], "to": [r, c]}}``        Victory 5.1.1
:class:`Attack`        ``{"attack": {"from": [r, c], "to": [r, c]}}``      Victory 5.1.2
:class:`TowerAttack`   ``{"attack_tower": {"from": [r, c], "tower": t}}``  Victory 5.1.3
                       ``{"attack_tower": {"tower": t}}``                  Quest 4.2 B
:class:`Roll`          ``{"roll": true}``                                  Quest 4.2 A
:class:`Die`           ``{"die": "<face>"}``                               chance (Quest die)
:class:`Flip`          ``{"flip": [r, c]}``                                Quest 4.2 A
:class:`Place`         ``{"place": [r, c]}``                               Quest Black Knight
:class:`PlaceTower`    ``{"place": {"tower": t}}``                         Quest Black Knight
:class:`DeclineReturn` ``{"decline_return": true}``                        Quest (option)
=====================  ==================================================  ==================

Squares are ints inside (``row * columns + column``, :mod:`.board`) and ``[row, column]`` on the
wire; a setup lists piece ids in its owner's orientation (towers and each row from the owner's left
to right, rows front row first). The JSON is the one stored in every match log since the first
release, byte for byte.

:class:`Place` and :class:`PlaceTower` share the wire key ``"place"``: the codec registers
:class:`Place`, whose :meth:`Place.from_value` returns a :class:`PlaceTower` for an object value,
and :class:`StrategoCodec` encodes :class:`PlaceTower` under the shared key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from ..core.actions import JSON, ActionCodec
from ..core.actions import Action as BaseAction
from ..core.errors import BadAction
from .board import RC, parse_slot, parse_square, rc
from .data import DATA

D = DATA

#: A setup's towers or one of its rows: castle ids in the owner's left-to-right order.
Ids = tuple[str, ...]


class StrategoAction(BaseAction):
    """Base of the game's actions (for typing: every value the rules take or list is one)."""

    __slots__ = ()


def _true(key: str, value: JSON) -> None:
    if value is not True:
        raise BadAction(f"{key!r} takes true, got {value!r}")


def _from_to(key: str, value: JSON) -> tuple[int, int]:
    if not isinstance(value, dict) or set(value) != {"from", "to"}:
        raise BadAction(f"{key!r} needs {{'from': [r, c], 'to': [r, c]}}, got {value!r}")
    return parse_square(value["from"]), parse_square(value["to"])


@dataclass(frozen=True, slots=True)
class Setup(StrategoAction):
    """A seat's whole placement (spec section 3), in its owner's orientation.

    :param towers: the 3 big castles, tower slots from the owner's left to right.
    :param rows: the 4 formation rows, front row first, each from the owner's left to right.

    Decoding checks only the shape (lists of strings); whether the castles are exactly the side's
    is the rules' legality check (:func:`.setup.check_setup`), so a wrong placement is an illegal
    action, not a malformed one.
    """

    key: ClassVar[str] = "setup"
    towers: Ids
    rows: tuple[Ids, ...]

    def to_value(self) -> JSON:
        """``{"towers": [ids], "rows": [[ids], ...]}`` (also the form of a saved deck)."""
        return {"towers": list(self.towers), "rows": [list(r) for r in self.rows]}

    @classmethod
    def from_value(cls, value: JSON) -> Setup:
        """:raises BadAction: not ``{"towers": [str], "rows": [[str]]}``."""
        if not isinstance(value, dict) or set(value) != {"towers", "rows"}:
            raise BadAction("'setup' needs {'towers': [...], 'rows': [[...], ...]}")
        towers, rows = value["towers"], value["rows"]
        if not isinstance(towers, list | tuple) or not isinstance(rows, list | tuple):
            raise BadAction("'towers' and 'rows' are lists")
        if not all(isinstance(r, list | tuple) for r in rows):
            raise BadAction("each row is a list of castle ids")
        for pid in (*towers, *(p for r in rows for p in r)):
            if not isinstance(pid, str):
                raise BadAction(f"castle ids are strings, got {pid!r}")
        return cls(tuple(towers), tuple(tuple(r) for r in rows))

    @classmethod
    def of(cls, towers: Sequence[str], rows: Sequence[Sequence[str]]) -> Setup:
        """A setup from any sequences (not checked)."""
        return cls(tuple(towers), tuple(tuple(r) for r in rows))


@dataclass(frozen=True, slots=True)
class Move(StrategoAction):
    """Victory 5.1.1: the castle on ``from_square`` steps to the empty neighbour ``to_square``."""

    key: ClassVar[str] = "move"
    from_square: int
    to_square: int

    def to_value(self) -> JSON:
        """``{"from": [r, c], "to": [r, c]}``."""
        return {"from": list(RC[self.from_square]), "to": list(RC[self.to_square])}

    @classmethod
    def from_value(cls, value: JSON) -> Move:
        """:raises BadAction: not ``{"from": [r, c], "to": [r, c]}`` with squares on the board."""
        return cls(*_from_to(cls.key, value))


@dataclass(frozen=True, slots=True)
class Attack(StrategoAction):
    """Victory 5.1.2: the castle on ``from_square`` attacks the opposing castle on the
    neighbouring ``to_square`` (combat, spec 5.2)."""

    key: ClassVar[str] = "attack"
    from_square: int
    to_square: int

    def to_value(self) -> JSON:
        """``{"from": [r, c], "to": [r, c]}``."""
        return {"from": list(RC[self.from_square]), "to": list(RC[self.to_square])}

    @classmethod
    def from_value(cls, value: JSON) -> Attack:
        """:raises BadAction: not ``{"from": [r, c], "to": [r, c]}`` with squares on the board."""
        return cls(*_from_to(cls.key, value))


@dataclass(frozen=True, slots=True)
class TowerAttack(StrategoAction):
    """An attack on the opponent's big castle in tower ``slot``: Victory 5.1.3 from the castle on
    ``from_square`` (a square of the opponent's back row), Quest 4.2 B without an attacker
    (``from_square`` is -1)."""

    key: ClassVar[str] = "attack_tower"
    from_square: int
    slot: int

    def to_value(self) -> JSON:
        """``{"from": [r, c], "tower": slot}``, or ``{"tower": slot}`` in Quest."""
        if self.from_square < 0:
            return {"tower": self.slot}
        return {"from": rc(self.from_square), "tower": self.slot}

    @classmethod
    def from_value(cls, value: JSON) -> TowerAttack:
        """:raises BadAction: not ``{"tower": slot}`` or ``{"from": [r, c], "tower": slot}``."""
        if not isinstance(value, dict) or "tower" not in value or not set(value) <= {"from", "tower"}:
            raise BadAction("'attack_tower' needs {'tower': slot} (and 'from' in Victory)")
        origin = parse_square(value["from"]) if "from" in value else -1
        return cls(origin, parse_slot(value["tower"]))


@dataclass(frozen=True, slots=True)
class Roll(StrategoAction):
    """Quest 4.2 A: roll the die (the chance pseudo-seat then draws a :class:`Die`)."""

    key: ClassVar[str] = "roll"

    def to_value(self) -> JSON:
        """``true``."""
        return True

    @classmethod
    def from_value(cls, value: JSON) -> Roll:
        """:raises BadAction: not ``true``."""
        _true(cls.key, value)
        return ROLL_ACTION


@dataclass(frozen=True, slots=True)
class Die(StrategoAction):
    """The chance outcome of a Quest roll: the face shown, a kind (index into ``DATA.kinds``)."""

    key: ClassVar[str] = "die"
    face: int

    def to_value(self) -> JSON:
        """The face's piece id, e.g. ``"wizard"``."""
        return D.kinds[self.face]

    @classmethod
    def from_value(cls, value: JSON) -> Die:
        """:raises BadAction: not the id of a face of the die."""
        if not isinstance(value, str) or value not in D.index or D.index[value] not in D.die_faces:
            raise BadAction(f"unknown die face {value!r}")
        return DIE[D.index[value]]


@dataclass(frozen=True, slots=True)
class Flip(StrategoAction):
    """Quest 4.2 A: turn round the opposing castle on ``square`` (after the roll)."""

    key: ClassVar[str] = "flip"
    square: int

    def to_value(self) -> JSON:
        """``[r, c]``."""
        return rc(self.square)

    @classmethod
    def from_value(cls, value: JSON) -> Flip:
        """:raises BadAction: not a square on the board."""
        return cls(parse_square(value))


@dataclass(frozen=True, slots=True)
class Place(StrategoAction):
    """Quest Black Knight (4.2 B): put the next returned small castle on the empty formation
    ``square``. Registered for the wire key ``"place"`` shared with :class:`PlaceTower`."""

    key: ClassVar[str] = "place"
    square: int

    def to_value(self) -> JSON:
        """``[r, c]``."""
        return rc(self.square)

    @classmethod
    def from_value(cls, value: JSON) -> Place | PlaceTower:
        """``[r, c]`` gives a :class:`Place`, ``{"tower": slot}`` a :class:`PlaceTower`.

        :raises BadAction: neither shape.
        """
        if isinstance(value, dict):
            if set(value) != {"tower"}:
                raise BadAction("'place' takes [r, c] or {'tower': slot}")
            return PlaceTower(parse_slot(value["tower"]))
        return cls(parse_square(value))


@dataclass(frozen=True, slots=True)
class PlaceTower(StrategoAction):
    """Quest Black Knight (4.2 B, AMBIGUITY 5): put the returned jester in the empty tower
    ``slot``. Decoded by :meth:`Place.from_value` (same wire key)."""

    key: ClassVar[str] = "place"
    slot: int

    def to_value(self) -> JSON:
        """``{"tower": slot}``."""
        return {"tower": self.slot}

    @classmethod
    def from_value(cls, value: JSON) -> Place | PlaceTower:
        """As :meth:`Place.from_value`."""
        return Place.from_value(value)


@dataclass(frozen=True, slots=True)
class DeclineReturn(StrategoAction):
    """Quest, option ``black_knight_return_optional``: leave every returned castle out."""

    key: ClassVar[str] = "decline_return"

    def to_value(self) -> JSON:
        """``true``."""
        return True

    @classmethod
    def from_value(cls, value: JSON) -> DeclineReturn:
        """:raises BadAction: not ``true``."""
        _true(cls.key, value)
        return DECLINE_RETURN_ACTION


class StrategoCodec(ActionCodec[StrategoAction]):
    """:class:`~app.games.core.actions.ActionCodec` plus kinds that share a registered kind's
    wire key (decoded by that kind's ``from_value``, encoded here under the shared key).

    :param shared: the classes that share a key with one of ``kinds``.
    :raises ValueError: two of ``kinds`` share a key, or a shared class's key is not registered.
    """

    def __init__(self, game: str, *kinds: type[StrategoAction], shared: Sequence[type[StrategoAction]] = ()) -> None:
        super().__init__(game, *kinds)
        for kind in shared:
            if kind.key not in self.by_key:
                raise ValueError(f"{game}: {kind.__name__} shares the unregistered key {kind.key!r}")
        #: every class this codec encodes
        self.encodable: frozenset[type[StrategoAction]] = frozenset((*kinds, *shared))

    def encode(self, action: StrategoAction) -> JSON:
        """``{key: value}``.

        :raises BadAction: ``action`` is not one of this game's action classes.
        """
        if type(action) not in self.encodable:
            raise BadAction(f"{self.game}: {action!r} is not an action of this game")
        return {action.key: action.to_value()}


CODEC = StrategoCodec(
    "stratego_junior",
    Setup,
    Move,
    Attack,
    TowerAttack,
    Roll,
    Die,
    Flip,
    Place,
    DeclineReturn,
    shared=(PlaceTower,),
)

# ------------------------------------------------------------------ values built once
# Listing legal actions hands out these instances, so listing allocates nothing and ``in`` finds an
# action by identity before comparing fields.

ROLL_ACTION = Roll()
DECLINE_RETURN_ACTION = DeclineReturn()
#: per kind, its die outcome (every kind, so an index by kind always works)
DIE: tuple[Die, ...] = tuple(Die(k) for k in range(len(D.kinds)))
#: per square, per neighbour index: the move and the attack to that neighbour (``D.adj`` order)
STEPS: tuple[tuple[tuple[int, Move, Attack], ...], ...] = tuple(
    tuple((b, Move(a, b), Attack(a, b)) for b in D.adj[a]) for a in range(D.squares)
)
#: per square, per slot: the tower attack from that square; the last row (also index -1) holds Quest's
#: tower attacks, which have no attacking square (``from_square`` -1)
TOWER_ATTACKS: tuple[tuple[TowerAttack, ...], ...] = tuple(
    tuple(TowerAttack(a, t) for t in range(D.towers)) for a in [*range(D.squares), -1]
)
FLIPS: tuple[Flip, ...] = tuple(Flip(s) for s in range(D.squares))
PLACES: tuple[Place, ...] = tuple(Place(s) for s in range(D.squares))
PLACE_TOWERS: tuple[PlaceTower, ...] = tuple(PlaceTower(t) for t in range(D.towers))
