"""Single-elimination brackets, seeded by rating (the standard bracket: in a bracket of 16, 1 v 16,
8 v 9, 5 v 12, 4 v 13, ...; the top seeds can meet only in the last rounds).

A field of ``n`` players plays in a bracket of ``size`` = the next power of two; the ``size - n``
top seeds get a bye in the first round (their bracket opponent would be a seed above ``n``).
Board ``b`` of a later round is played by the winners of boards ``2b`` and ``2b + 1`` of the round
before (boards counted from 0), the winner of the upper board taking the first seat.
"""

from __future__ import annotations

from app.tournaments.pairing import Board, Pair


def rounds_needed(players: int) -> int:
    """The rounds of a knockout of ``players`` (``ceil(log2(players))``).

    :raises ValueError: fewer than two players.
    """
    if players < 2:
        raise ValueError("a knockout needs at least two players")
    return (players - 1).bit_length()


def bracket_order(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of ``size`` (a power of two): ``[1, 4, 2, 3]`` for 4,
    ``[1, 8, 4, 5, 2, 7, 3, 6]`` for 8; neighbours ``(2k, 2k+1)`` meet in round 1, and seed ``s``
    meets seed ``size + 1 - s``.

    :raises ValueError: ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"{size} is not a power of two")
    order = [1]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def first_round(players: int) -> list[Pair]:
    """Round 1 of a knockout of ``players`` seeded ``1 .. players``, board by board in bracket
    order; a top seed without an opponent has ``(seed, None)`` (a bye: it goes through).

    :raises ValueError: fewer than two players.
    """
    size = 1 << rounds_needed(players)
    order = bracket_order(size)
    boards: list[Pair] = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        boards.append((a, b if b <= players else None))
    return boards


def next_round(winners: list[int]) -> list[Pair]:
    """The boards of the next round from the winners of the last one, in board order.

    :raises ValueError: an odd number of winners (the bracket is already decided at one).
    """
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("the next knockout round needs an even number of winners")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def winner(board: Board) -> int:
    """Who goes through from a finished ``board``: the player with more points; after a draw (or a
    double forfeit) the higher seed, the lower starting number; a bye's player."""
    if board.second is None:
        return board.first
    a, b = board.points(board.first), board.points(board.second)
    if a != b:
        return board.first if a > b else board.second
    return min(board.first, board.second)
