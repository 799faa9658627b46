"""The Stratego Junior position: options (:class:`Config`), the frozen state, who acts, and the
state's JSON (stored as the match snapshot; the shape has not changed since the first release).

States are changed only with :func:`~app.games.core.state.evolve`; nothing is cached on them. Two
fields are derived, as python-chess keeps bitboards beside its squares: ``movers`` (from ``kinds``
and ``owners``) and ``legal`` (the actions of the seat to move). They are part of the value like any
other field (compared, hashed), kept by every transition (``movers`` by :func:`with_castles`,
``legal`` by each variant's transitions, mostly when a turn starts), recomputed when a state is
decoded, and never in the JSON.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core.rules import CHANCE, JSON, Outcome
from ..core.state import evolve
from .actions import StrategoAction
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
        return {
            "variant": self.variant,
            "memory_aid": self.memory_aid,
            "move_cap": self.move_cap,
            "black_knight_returns_jester": self.black_knight_returns_jester,
            "black_knight_return_optional": self.black_knight_return_optional,
        }


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
    :param movers: derived from ``kinds`` and ``owners`` (:func:`movers_of`), not in the JSON: per
        seat, the uids of its castles that can ever move (not dragons), off the board or not. Victory
        lists moves from it at every turn.
    :param legal: derived, not in the JSON: in phases ``"play"``, ``"flip"`` and ``"return"``, the
        actions of ``to_move`` as the variant lists them (``_list`` of :class:`.rules.StrategoRules`;
        a seat with none when its turn starts loses); ``()`` in the other phases. ``legal_actions``
        returns it and ``apply`` finds the action in it, as the old engine did with its cache.
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
    movers: Pair[tuple[int, ...]] = ((), ())
    legal: tuple[StrategoAction, ...] = ()

    @property
    def variant(self) -> str:
        """``"quest"`` or ``"victory"``."""
        return self.config.variant


def movers_of(kinds: Sequence[int], owners: Sequence[int]) -> Pair[tuple[int, ...]]:
    """Per seat, the uids of its castles whose kind can move (:attr:`StrategoState.movers`)."""
    movable = D.movable
    found: tuple[list[int], list[int]] = ([], [])
    for uid, kind in enumerate(kinds):
        if movable[kind]:
            found[owners[uid]].append(uid)
    return (tuple(found[0]), tuple(found[1]))


def with_castles(
    state: StrategoState, kinds: tuple[int, ...], owners: tuple[int, ...], **changes: Any
) -> StrategoState:
    """``evolve(state, kinds=kinds, owners=owners, **changes)`` with the derived ``movers`` kept:
    the one way a transition changes which castles exist."""
    return evolve(state, kinds=kinds, owners=owners, movers=movers_of(kinds, owners), **changes)


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
    return (*values[:index], value, *values[index + 1 :])


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
    """Inverse of :func:`encode_state`, with ``movers`` derived (``legal`` is the variant's:
    :meth:`.rules.StrategoRules.decode_state` derives it).

    :raises ValueError: an unknown phase or variant, or a malformed snapshot.
    :raises KeyError: a missing key or an unknown piece id.
    """
    if obj.get("phase") not in PHASES:
        raise ValueError(f"stratego_junior: unknown phase {obj.get('phase')!r}")
    config = Config(**obj["config"])
    if config.variant not in VARIANTS:
        raise ValueError(f"stratego_junior: unknown variant {config.variant!r}")
    idx = D.index
    kinds = tuple(idx[k] for k in obj["kinds"])
    owners = tuple(obj["owners"])
    return StrategoState(
        config=config,
        phase=obj["phase"],
        to_move=int(obj["to_move"]),
        turn=int(obj["turn"]),
        board=tuple(obj["board"]),
        kinds=kinds,
        owners=owners,
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
        movers=movers_of(kinds, owners),
    )


def _history(entry: Iterable[Any]) -> tuple[MoveRecord | None, MoveRecord | None]:
    prev, last = (None if m is None else (int(m[0]), int(m[1]), int(m[2])) for m in entry)
    return (prev, last)


def _pair(items: Iterable[T]) -> Pair[T]:
    first, second = items
    return (first, second)
