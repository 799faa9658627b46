"""The Stratego Junior board: squares, neighbours, rows, and Quest reachability
(``rules/stratego_junior.md`` sections 2 and 4.1).

A square is an ``int``, ``row * columns + column``, inside the engine and ``[row, column]`` on the
wire. Rows count from blue's back row (row 0) to red's back row (the last row); seat 0 (red) owns
the last rows, seat 1 (blue) the first ones. The numbers (4 columns x 9 rows, 3 tower slots, no
lakes on the grid by default) come from ``pieces.yaml`` through :data:`~.data.DATA`; nothing here
repeats them.

Example::

    >>> rc(sq(3, 1))
    [3, 1]
    >>> sorted(DATA.rc(s) for s in attackable((-1,) * DATA.squares, 1))
    []
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from ..core.errors import BadAction
from .data import DATA

D = DATA

_MIDDLE = frozenset(D.middle)
#: per square, ``(row, column)`` (``list(RC[square])`` is :func:`rc` without the call)
RC: tuple[tuple[int, int], ...] = tuple(divmod(s, D.columns) for s in range(D.squares))


def rc(square: int) -> list[int]:
    """``[row, column]`` of ``square`` (the wire form; a new list each call)."""
    return list(RC[square])


def sq(row: int, column: int) -> int:
    """The square at ``(row, column)``.

    :raises ValueError: off the grid.
    """
    return D.sq(row, column)


def parse_square(value: Any) -> int:
    """The square of a wire ``[row, column]``.

    :raises BadAction: not a pair of ints (booleans refused) or off the grid.
    """
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise BadAction(f"a square is [row, column], got {value!r}")
    try:
        return D.sq(value[0], value[1])
    except ValueError as exc:
        raise BadAction(str(exc)) from None


def parse_slot(value: Any) -> int:
    """A tower slot, ``0 .. towers - 1`` (slots are numbered on the board, left to right as red
    sees them).

    :raises BadAction: not an int in range (booleans refused).
    """
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < D.towers:
        raise BadAction(f"a tower slot is 0..{D.towers - 1}, got {value!r}")
    return value


def reachable(board: Sequence[int], opponent: int) -> set[int]:
    """Quest reachability (spec 4.1): the middle squares plus the empty squares of ``opponent``'s
    formation joined to them orthogonally through empty squares of that formation.

    :param board: per square, the uid standing on it or -1.
    """
    formation = D.formation_squares[opponent]
    seen = set(D.middle)
    stack = list(D.middle)
    adj = D.adj
    while stack:
        s = stack.pop()
        for n in adj[s]:
            if n not in seen and n in formation and board[n] < 0:
                seen.add(n)
                stack.append(n)
    return seen


def attackable(board: Sequence[int], opponent: int, reach: Collection[int] | None = None) -> list[int]:
    """Quest: the squares of ``opponent``'s castles next to a reachable square (spec 4.1), sorted.

    :param reach: :func:`reachable` when the caller has it already.
    """
    if reach is None:
        reach = reachable(board, opponent)
    formation = D.formation_squares[opponent]
    adj = D.adj
    return sorted({n for s in reach for n in adj[s] if n in formation and board[n] >= 0})


def is_attackable(board: Sequence[int], opponent: int, square: int) -> bool:
    """Whether ``square`` is in :func:`attackable` (without computing every reachable square):
    a castle of ``opponent``'s formation stands on it and one of its neighbours is a middle square
    or an empty square of that formation joined to the middle through empty formation squares."""
    formation, middle, adj = D.formation_squares[opponent], _MIDDLE, D.adj
    if square not in formation or board[square] < 0:
        return False
    stack = []
    for n in adj[square]:
        if n in middle:
            return True
        if n in formation and board[n] < 0:
            stack.append(n)
    seen = set(stack)
    while stack:
        for n in adj[stack.pop()]:
            if n in middle:
                return True
            if n not in seen and n in formation and board[n] < 0:
                seen.add(n)
                stack.append(n)
    return False


def any_attackable(board: Sequence[int], opponent: int, reach: Collection[int]) -> bool:
    """Whether :func:`attackable` is not empty, given :func:`reachable`."""
    formation, adj = D.formation_squares[opponent], D.adj
    return any(n in formation and board[n] >= 0 for s in reach for n in adj[s])


def has_access(board: Sequence[int], opponent: int, reach: Collection[int] | None = None) -> bool:
    """Quest back-row access (spec 4.1): a square of ``opponent``'s back row is reachable."""
    if reach is None:
        reach = reachable(board, opponent)
    return any(s in reach for s in D.back_row[opponent])


def geometry() -> dict[str, Any]:
    """The board for clients (:meth:`~.data.GameData.geometry_json`): ``{"rows", "columns",
    "middle_rows", "lakes", "formation_rows", "back_rows", "towers"}``."""
    return D.geometry_json()


#: :func:`geometry`, built once (observations carry it).
GEOMETRY: dict[str, Any] = geometry()
