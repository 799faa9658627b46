"""Standings and tie-breaks, from the boards played (pure; issue 14, item 3).

Points: a win or a bye 1, a draw 1/2, a loss 0; a forfeit counts as a win or a loss without a game.
The tie-breaks (FIDE Handbook C.07, "Tie-Break Regulations"), in the order each format uses them:

* Swiss: **Buchholz** (the sum of the final points of every opponent met over the board), then
  **Sonneborn-Berger** (the final points of each opponent beaten, plus half those of each opponent
  drawn with), then the **direct encounter** (the points scored in the games among the players
  still tied, counted when they all met each other), then the starting number.
* Round robin: Sonneborn-Berger, then the direct encounter, then the starting number.
* Knockout: the bracket decides: the winner is 1st, the final's loser 2nd, the losers of round
  ``r`` of ``R`` share place ``2 ** (R - r) + 1`` (both semi-final losers are 3rd).

Byes and forfeits add their points but no opponent to Buchholz and Sonneborn-Berger (a simple
reading of C.07's "unplayed games" that keeps every value a sum of real opponents' points).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from app.tournaments.pairing import Board, knockout


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings: ``place`` (equal for players the format cannot separate, as in
    a knockout), ``number`` (starting number), ``points`` and the tie-break values (``None`` when the
    format does not use it)."""

    place: int
    number: int
    points: float
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    direct: float | None = None
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def _points(players: int, boards: Sequence[Board]) -> dict[int, float]:
    pts = dict.fromkeys(range(1, players + 1), 0.0)
    for b in boards:
        pts[b.first] += b.points(b.first)
        if b.second is not None:
            pts[b.second] += b.points(b.second)
    return pts


def _record(number: int, boards: Sequence[Board]) -> tuple[int, int, int, int]:
    games = wins = draws = losses = 0
    for b in boards:
        if number not in (b.first, b.second) or not b.played:
            continue
        games += 1
        p = b.points(number)
        wins, draws, losses = wins + (p == 1), draws + (p == 0.5), losses + (p == 0)
    return games, wins, draws, losses


def buchholz(number: int, boards: Sequence[Board], points: dict[int, float]) -> float:
    """The sum of the final points of every opponent ``number`` met over the board."""
    return sum(
        points[opp] for b in boards if b.played and number in (b.first, b.second) and (opp := b.opponent(number))
    )


def sonneborn_berger(number: int, boards: Sequence[Board], points: dict[int, float]) -> float:
    """The final points of each opponent ``number`` beat, plus half those of each one drawn with
    (games played over the board)."""
    total = 0.0
    for b in boards:
        if b.played and number in (b.first, b.second) and (opp := b.opponent(number)) is not None:
            total += b.points(number) * points[opp]
    return total


def direct_encounter(group: Collection[int], boards: Sequence[Board]) -> dict[int, float]:
    """Each player's points in the games among ``group`` (C.07: used when the tied players all met
    each other; otherwise every player gets 0, which separates nobody)."""
    among = [b for b in boards if b.played and b.first in group and b.second in group]
    met = {frozenset((b.first, b.second)) for b in among}
    need = len(group) * (len(group) - 1) // 2
    if len(met) < need:
        return dict.fromkeys(group, 0.0)
    score = dict.fromkeys(group, 0.0)
    for b in among:
        score[b.first] += b.points(b.first)
        assert b.second is not None
        score[b.second] += b.points(b.second)
    return score


def points_table(players: int, boards: Sequence[Board], *, swiss: bool) -> list[Standing]:
    """Standings of a Swiss (``swiss=True``: Buchholz, Sonneborn-Berger, direct encounter) or a
    round robin (Sonneborn-Berger, direct encounter), best first; places are 1, 2, 3... (the
    starting number separates what the tie-breaks do not)."""
    pts = _points(players, boards)
    bh = {n: buchholz(n, boards, pts) for n in pts}
    sb = {n: sonneborn_berger(n, boards, pts) for n in pts}

    def before_direct(n: int) -> tuple[float, ...]:
        return (pts[n], bh[n], sb[n]) if swiss else (pts[n], sb[n])

    direct: dict[int, float] = {}
    groups: dict[tuple[float, ...], list[int]] = {}
    for n in pts:
        groups.setdefault(before_direct(n), []).append(n)
    for group in groups.values():
        direct.update(direct_encounter(group, boards) if len(group) > 1 else {group[0]: 0.0})
    order = sorted(pts, key=lambda n: (*(-v for v in before_direct(n)), -direct[n], n))
    return [
        Standing(
            place=i + 1,
            number=n,
            points=pts[n],
            buchholz=bh[n] if swiss else None,
            sonneborn_berger=sb[n],
            direct=direct[n],
            **dict(zip(("games", "wins", "draws", "losses"), _record(n, boards), strict=True)),
        )
        for i, n in enumerate(order)
    ]


def knockout_table(players: int, boards: Sequence[Board], total_rounds: int) -> list[Standing]:
    """Knockout standings: places by the round each player went out in (see the module
    docstring; :func:`app.tournaments.pairing.knockout.winner` decides a board); players still in
    share place 1 until the final is decided. Within a place, by starting number."""
    out_in: dict[int, int] = {}
    for b in boards:
        if b.second is not None:
            loser = b.second if knockout.winner(b) == b.first else b.first
            out_in[loser] = b.round
    pts = _points(players, boards)

    def place(n: int) -> int:
        return 2 ** (total_rounds - out_in[n]) + 1 if n in out_in else 1

    rows = sorted(range(1, players + 1), key=lambda n: (place(n), n))
    return [
        Standing(
            place=place(n),
            number=n,
            points=pts[n],
            **dict(zip(("games", "wins", "draws", "losses"), _record(n, boards), strict=True)),
        )
        for n in rows
    ]
