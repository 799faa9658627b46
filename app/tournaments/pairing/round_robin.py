"""Round robin schedules by the Berger tables (FIDE Handbook C.05, Annex 1).

For ``n`` players (a dummy "bye" player is added when ``n`` is odd, making ``m`` even) there are
``m - 1`` rounds. Round 1 pairs ``1-m, 2-(m-1), 3-(m-2), ...``; each later round is made by the
Berger rotation: the players ``1 .. m-1`` turn around the circle by ``m/2`` places while player
``m`` stays, alternating its colour (the first board of every round). The published tables for 4,
6 and 8 players are reproduced exactly (``tests/tournaments/test_pairing.py`` checks them). A
double round robin plays the same schedule twice with the seats swapped the second time.
"""

from __future__ import annotations

from app.tournaments.pairing import Pair


def rounds_needed(players: int, *, double: bool = False) -> int:
    """How many rounds a (double) round robin of ``players`` takes.

    :raises ValueError: fewer than two players.
    """
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    m = players + players % 2
    return (m - 1) * (2 if double else 1)


def berger_round(players: int, round_no: int) -> list[Pair]:
    """The boards of round ``round_no`` (1-based) of a single round robin of ``players``.

    With an odd number of players the player who would meet the dummy gets a bye
    (``(number, None)``), listed last.

    :raises ValueError: fewer than two players, or a round outside ``1 .. rounds_needed``.
    """
    total = rounds_needed(players)
    if not 1 <= round_no <= total:
        raise ValueError(f"round {round_no} is not in 1..{total}")
    m = players + players % 2
    half = m // 2
    # the circle of players 1..m-1 in the order of round 1's boards, read round the table
    ring = list(range(1, m))
    shift = ((round_no - 1) * half) % (m - 1)
    ring = ring[shift:] + ring[:shift]
    boards: list[tuple[int, int]] = []
    # board 1: the fixed player m against ring[0]; m is second on odd rounds, first on even
    boards.append((ring[0], m) if round_no % 2 == 1 else (m, ring[0]))
    for i in range(1, half):
        boards.append((ring[i], ring[m - 1 - i]))
    pairs: list[Pair] = []
    byes: list[Pair] = []
    for a, b in boards:
        if players % 2 and m in (a, b):
            byes.append((b if a == m else a, None))
        else:
            pairs.append((a, b))
    return pairs + byes


def schedule(players: int, *, double: bool = False) -> list[list[Pair]]:
    """Every round of a (double) round robin: ``schedule(n)[r - 1]`` is round ``r``. In a double
    round robin rounds ``m .. 2m-2`` repeat rounds ``1 .. m-1`` with the seats swapped."""
    single = [berger_round(players, r) for r in range(1, rounds_needed(players) + 1)]
    if not double:
        return single
    return single + [[(b, a) if b is not None else (a, None) for a, b in rnd] for rnd in single]
