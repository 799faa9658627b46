"""Actions as small frozen values with one codec per game (after python-chess's ``Move``).

Every game's action is a frozen dataclass, one class per kind of action, each naming its wire
``key``. On the wire an action is a JSON object with exactly one key, ``{"<key>": <value>}``
(``{"runes": ["fire", "ice", "wind"]}``, ``{"move": {"from": [0, 1], "to": [1, 1]}}``,
``{"roll": true}``), so the encoding the browser and the stored logs use is the same for every game.

An :class:`ActionCodec` dispatches on the Python type when encoding and on the wire key when
decoding; nothing decodes actions with a chain of ``if`` tests.

Example::

    @dataclass(frozen=True, slots=True)
    class Roll(Action):
        key: ClassVar[str] = "roll"

        def to_value(self) -> JSON:
            return True

        @classmethod
        def from_value(cls, value: JSON) -> Roll:
            if value is not True:
                raise BadAction("'roll' takes true")
            return cls()

    CODEC = ActionCodec("stratego_junior", Roll, Move, ...)
    CODEC.decode({"roll": True}) == Roll()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from .errors import BadAction

JSON = Any  # a value made of dict/list/str/int/float/bool/None only

A = TypeVar("A", bound="Action")


class Action:
    """Base of every game's action classes (mix into a ``@dataclass(frozen=True, slots=True)``).

    Subclasses set :attr:`key` and usually override :meth:`to_value` / :meth:`from_value`. The
    defaults encode the dataclass fields as an object (``{"field": value, ...}``), or ``true`` for an
    action without fields, and decode the same shape with no further checks: override
    :meth:`from_value` whenever a field needs checking (a square on the board, a known card id).
    """

    __slots__ = ()

    #: the wire key of this kind of action, unique within a game
    key: ClassVar[str]

    def to_value(self) -> JSON:
        """The JSON value stored under :attr:`key`."""
        names = [f.name for f in dataclasses.fields(self)]  # type: ignore[arg-type]
        if not names:
            return True
        return {name: getattr(self, name) for name in names}

    @classmethod
    def from_value(cls, value: JSON) -> Action:
        """Parse the JSON value found under :attr:`key`.

        :raises BadAction: ``value`` is not this action's shape.
        """
        names = [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
        if not names:
            if value is not True:
                raise BadAction(f"{cls.key!r} takes true, got {value!r}")
            return cls()
        if not isinstance(value, dict) or set(value) != set(names):
            raise BadAction(f"{cls.key!r} takes an object with {sorted(names)}, got {value!r}")
        return cls(**value)

    def to_json(self) -> JSON:
        """The whole wire form, ``{key: value}``."""
        return {self.key: self.to_value()}


class ActionCodec(Generic[A]):
    """Encode and decode one game's actions.

    :param game: the game id, for error messages.
    :param kinds: the action classes; their :attr:`Action.key` must be distinct.
    :raises ValueError: two classes share a key.
    """

    def __init__(self, game: str, *kinds: type[A]) -> None:
        self.game = game
        self.by_key: dict[str, type[A]] = {}
        for kind in kinds:
            if kind.key in self.by_key:
                raise ValueError(f"{game}: two action classes use the key {kind.key!r}")
            self.by_key[kind.key] = kind
        self.kinds: tuple[type[A], ...] = tuple(kinds)
        self._kinds = frozenset(kinds)

    def encode(self, action: A) -> JSON:
        """``{key: value}`` for ``action``.

        :raises BadAction: ``action`` is not one of this game's action classes.
        """
        kind = type(action)
        if kind not in self._kinds:
            raise BadAction(f"{self.game}: {action!r} is not an action of this game")
        return {kind.key: action.to_value()}

    def decode(self, obj: JSON) -> A:
        """Parse a wire action.

        :raises BadAction: not an object with exactly one key, an unknown key, or a value that is
            not the shape its kind takes (the message names the game and the input).
        """
        if not isinstance(obj, Mapping) or len(obj) != 1:
            raise BadAction(f"{self.game}: an action is an object with one key, got {_short(obj)}")
        key, value = next(iter(obj.items()))
        kind = self.by_key.get(key) if isinstance(key, str) else None
        if kind is None:
            raise BadAction(f"{self.game}: unknown action {_short(key)}; known: {sorted(self.by_key)}")
        try:
            action = kind.from_value(value)
        except BadAction as exc:
            raise BadAction(f"{self.game}: {exc}") from None
        except (TypeError, ValueError, KeyError, IndexError) as exc:
            raise BadAction(f"{self.game}: malformed {key!r}: {exc}") from None
        return action  # type: ignore[return-value]


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
