"""The Stratego Junior position: options (:class:`Config`), the frozen state, who acts, and the
state's JSON (stored as the match snapshot; the shape has not changed since the first release).

States are changed only with :func:`evolve` (:func:`app.games.core.state.evolve` compiled for
:class:`StrategoState`, see :func:`compile_evolve`); nothing is cached on them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from ..core.rules import CHANCE, JSON, Outcome
from .data import DATA

D = DATA
T = TypeVar("T")

QUEST = "quest"
VICTORY = "victory"
VARIANTS = (QUEST, VICTORY)

SETUP = "setup"  #: both seats place their castles (spec section 3)
PLAY = "play"  #: the seat to move chooses (Victory: any action; Quest: roll or tower attack)
ROLL = "roll"  #: Quest: chance rolls the die
FLIP = "flip"  #: Quest: the seat to move flips an attackable castle
RETURN = "return"  #: Quest: the Black Knight's owner places the returned castles
OVER = "over"
PHASES = (SETUP, PLAY, ROLL, FLIP, RETURN, OVER)

#: ``(uid, from, to)`` of a Victory move, for the back-and-forth rule (spec 5.4)
MoveRecord = tuple[int, int, int]
#: per seat, its (previous, last) actions: a :data:`MoveRecord` for a move, ``None`` otherwise
History = tuple[tuple[MoveRecord | None, MoveRecord | None], tuple[MoveRecord | None, MoveRecord | None]]
#: a value per seat
Pair = tuple[T, T]

NO_HISTORY: tuple[None, None] = (None, None)
_EMPTY: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (see ``StrategoRules.default_options``).

    :param variant: ``"quest"`` or ``"victory"``.
    :param memory_aid: keep the identities a seat has seen marked in its view (spec 4.2 A.4, 5.5).
    :param move_cap: 0 = none; else a draw after that many turns (AMBIGUITY 8).
    :param black_knight_returns_jester: Quest: a removed jester comes back too (AMBIGUITY 5).
    :param black_knight_return_optional: Quest: the owner may leave the returned castles out.
    """

    variant: str = VICTORY
    memory_aid: bool = False
    move_cap: int = 0
    black_knight_returns_jester: bool = True
    black_knight_return_optional: bool = False

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object (keys in this order)."""
        return {"variant": self.variant, "memory_aid": self.memory_aid, "move_cap": self.move_cap,
                "black_knight_returns_jester": self.black_knight_returns_jester,
                "black_knight_return_optional": self.black_knight_return_optional}


@dataclass(frozen=True, slots=True)
class StrategoState:
    """An immutable Stratego Junior position. Castles on the grid are numbered (``uid``); the
    numbers are public and say nothing about identities (they follow the squares' order when the
    castles are placed).

    :param config: the match options.
    :param phase: one of :data:`PHASES`.
    :param to_move: the seat whose turn it is (during ``"return"``: the seat placing castles).
    :param turn: turns completed (Quest: rolls and tower attacks; Victory: actions).
    :param board: per square, the uid on it or -1.
    :param kinds: per uid, its kind (index into ``DATA.kinds``); secret until revealed.
    :param owners: per uid, its seat.
    :param pos: per uid, its square, or -1 once removed.
    :param towers: per seat, per tower slot, the big castle's kind or -1 (empty slot).
    :param revealed: uids whose identity has been shown to everybody (flip, combat).
    :param moved: uids that have moved (Victory; public, and tells that they are not dragons).
    :param history: Victory: per seat, its two latest actions (:data:`History`, spec 5.4).
    :param removed: per seat, uids of its small castles taken off the board, oldest first (Quest:
        those not yet returned by a Black Knight).
    :param big_out: per seat, kinds of its big castles taken out, oldest first.
    :param die: Quest, phase ``"flip"``: the die face rolled this turn (kind), else -1.
    :param returning: Quest, phase ``"return"``: kinds still to place, in placing order.
    :param staged: Quest, phase ``"return"``: placed so far, ``(kind, target)`` with target a square
        or ``-1 - slot`` for a tower slot; hidden from the other seat until the last is placed.
    :param outcome: the result once over.
    """

    config: Config
    phase: str
    to_move: int
    turn: int
    board: tuple[int, ...]
    kinds: tuple[int, ...] = ()
    owners: tuple[int, ...] = ()
    pos: tuple[int, ...] = ()
    towers: Pair[tuple[int, ...]] = ((), ())
    revealed: frozenset[int] = _EMPTY
    moved: frozenset[int] = _EMPTY
    history: History = (NO_HISTORY, NO_HISTORY)
    removed: Pair[tuple[int, ...]] = ((), ())
    big_out: Pair[tuple[int, ...]] = ((), ())
    die: int = -1
    returning: tuple[int, ...] = ()
    staged: tuple[tuple[int, int], ...] = ()
    outcome: Outcome | None = None

    @property
    def variant(self) -> str:
        """``"quest"`` or ``"victory"``."""
        return self.config.variant


def compile_evolve(cls: type[T]) -> Callable[..., T]:
    """:func:`app.games.core.state.evolve` specialised to the frozen slotted dataclass ``cls``:
    the same semantics (a copy with ``changes``, ``__init__`` not run, :class:`TypeError` for a
    name that is not a field), about twice as fast, because the generated code reads and writes
    each slot through its descriptor instead of looping over the fields by name. A Victory game
    makes a state per move, so this is the engine's hottest allocation.

    (A candidate for ``app/games/core/state.py``, which this package may not change.)

    :raises TypeError: ``cls`` is not a slotted dataclass.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    if getattr(cls, "__slots__", None) is None:
        raise TypeError(f"{cls.__name__} is not a slotted dataclass")
    scope: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_names": frozenset(names)}
    lines = [
        "def evolve(obj, /, **changes):",
        "    if not _names.issuperset(changes):",
        "        unknown = sorted(changes.keys() - _names)[0]",
        "        raise TypeError(f'{_cls.__name__} has no field {unknown!r}')",
        "    new = _new(_cls)",
    ]
    for i, name in enumerate(names):
        scope[f"_set{i}"] = cls.__dict__[name].__set__
        lines.append(f"    _set{i}(new, changes[{name!r}] if {name!r} in changes else obj.{name})")
    lines.append("    return new")
    exec("\n".join(lines), scope)
    function: Callable[..., T] = scope["evolve"]
    function.__doc__ = f"A copy of a {cls.__name__} with ``changes`` (see :func:`compile_evolve`)."
    return function


#: ``evolve(state, **changes)``: a copy of a :class:`StrategoState` with ``changes``
evolve: Callable[..., StrategoState] = compile_evolve(StrategoState)

_BOTH_SEATS = frozenset({0, 1})
_NOBODY: frozenset[int] = frozenset()
_CHANCE_ONLY = frozenset({CHANCE})
_SEAT = (frozenset({0}), frozenset({1}))


def to_act(state: StrategoState) -> frozenset[int]:
    """``{0, 1}`` during setup, ``{CHANCE}`` while the Quest die rolls, the seat to move (or the
    seat placing returned castles), empty when over."""
    phase = state.phase
    if phase == SETUP:
        return _BOTH_SEATS
    if phase == OVER:
        return _NOBODY
    if phase == ROLL:
        return _CHANCE_ONLY
    return _SEAT[state.to_move]


def with_item(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with ``values[index]`` replaced by ``value``."""
    return (*values[:index], value, *values[index + 1:])


def for_seat(pair: Pair[T], seat: int, value: T) -> Pair[T]:
    """``pair`` with seat ``seat``'s entry replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


# ------------------------------------------------------------------ JSON


def encode_state(state: StrategoState) -> dict[str, JSON]:
    """The whole state as JSON (holds every secret: storage only).

    ``{"config", "phase", "to_move", "turn", "board", "kinds": [ids], "owners", "pos", "towers":
    [[id | null] x 3] x 2, "revealed", "moved", "history": [[[uid, from, to] | null] x 2] x 2,
    "removed", "big_out": [[ids], [ids]], "die": id | null, "returning": [ids], "staged": [[id,
    target]], "outcome": Outcome JSON | null}``.
    """
    kinds = D.kinds
    return {
        "config": state.config.to_json(),
        "phase": state.phase,
        "to_move": state.to_move,
        "turn": state.turn,
        "board": list(state.board),
        "kinds": [kinds[k] for k in state.kinds],
        "owners": list(state.owners),
        "pos": list(state.pos),
        "towers": [[None if k < 0 else kinds[k] for k in row] for row in state.towers],
        "revealed": sorted(state.revealed),
        "moved": sorted(state.moved),
        "history": [[None if m is None else list(m) for m in h] for h in state.history],
        "removed": [list(r) for r in state.removed],
        "big_out": [[kinds[k] for k in r] for r in state.big_out],
        "die": None if state.die < 0 else kinds[state.die],
        "returning": [kinds[k] for k in state.returning],
        "staged": [[kinds[k], t] for k, t in state.staged],
        "outcome": None if state.outcome is None else state.outcome.to_json(),
    }


def decode_state(obj: Mapping[str, JSON]) -> StrategoState:
    """Inverse of :func:`encode_state`.

    :raises ValueError: an unknown phase or variant, or a malformed snapshot.
    :raises KeyError: a missing key or an unknown piece id.
    """
    if obj.get("phase") not in PHASES:
        raise ValueError(f"stratego_junior: unknown phase {obj.get('phase')!r}")
    config = Config(**obj["config"])
    if config.variant not in VARIANTS:
        raise ValueError(f"stratego_junior: unknown variant {config.variant!r}")
    idx = D.index
    return StrategoState(
        config=config,
        phase=obj["phase"],
        to_move=int(obj["to_move"]),
        turn=int(obj["turn"]),
        board=tuple(obj["board"]),
        kinds=tuple(idx[k] for k in obj["kinds"]),
        owners=tuple(obj["owners"]),
        pos=tuple(obj["pos"]),
        towers=_pair(tuple(-1 if k is None else idx[k] for k in row) for row in obj["towers"]),
        revealed=frozenset(obj["revealed"]),
        moved=frozenset(obj["moved"]),
        history=_pair(_history(h) for h in obj["history"]),
        removed=_pair(tuple(r) for r in obj["removed"]),
        big_out=_pair(tuple(idx[k] for k in r) for r in obj["big_out"]),
        die=-1 if obj["die"] is None else idx[obj["die"]],
        returning=tuple(idx[k] for k in obj["returning"]),
        staged=tuple((idx[k], int(t)) for k, t in obj["staged"]),
        outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
    )


def _history(entry: Iterable[Any]) -> tuple[MoveRecord | None, MoveRecord | None]:
    prev, last = (None if m is None else (int(m[0]), int(m[1]), int(m[2])) for m in entry)
    return (prev, last)


def _pair(items: Iterable[T]) -> Pair[T]:
    first, second = items
    return (first, second)
