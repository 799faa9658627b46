"""Pairing a tournament's rounds: pure functions, no I/O, no clock (issue 14, item 1).

One module per format: :mod:`.round_robin` (FIDE C.05 Annex 1, the Berger tables), :mod:`.swiss`
(FIDE C.04.3, the Dutch system, through the py4swiss library) and :mod:`.knockout` (single
elimination, seeded, byes to the top seeds). Players are named by their **starting number**
(1 = the top seed, by rating); a pairing is ``(first, second)`` where ``first`` takes the game's
first seat (seat 0, White in chess) and ``second`` is ``None`` for a bye.

What a board of a played round became is a :class:`Board`, whose ``result`` is one of
:data:`RESULTS`; the pairing of later rounds and the standings (:mod:`app.tournaments.standings`)
read the same records.
"""

from __future__ import annotations

from dataclasses import dataclass

#: a board of a round: (starting number in the first seat, in the second seat or None for a bye)
Pair = tuple[int, int | None]

#: a board's result -> (points of the first seat, of the second), and whether the game was played:
#: ``1-0``, ``0-1``, ``1/2`` (played); ``+-``, ``-+`` (a forfeit: the other withdrew), ``--`` (both
#: withdrew); ``bye`` (a pairing-allocated bye, worth a win); ``rest`` (the round robin's player
#: without an opponent in a round with an odd field: no points, no game)
RESULTS: dict[str, tuple[float, float, bool]] = {
    "1-0": (1.0, 0.0, True),
    "0-1": (0.0, 1.0, True),
    "1/2": (0.5, 0.5, True),
    "+-": (1.0, 0.0, False),
    "-+": (0.0, 1.0, False),
    "--": (0.0, 0.0, False),
    "bye": (1.0, 0.0, False),
    "rest": (0.0, 0.0, False),
}


@dataclass(frozen=True, slots=True)
class Board:
    """One finished board of round ``round``: ``first`` and ``second`` are starting numbers
    (``second`` None for a bye), ``result`` a key of :data:`RESULTS`."""

    round: int
    first: int
    second: int | None
    result: str

    def points(self, player: int) -> float:
        """The points ``player`` (one of the two) scored on this board."""
        a, b, _ = RESULTS[self.result]
        return a if player == self.first else b

    @property
    def played(self) -> bool:
        """The game was played over the board (not a bye, not a forfeit)."""
        return RESULTS[self.result][2]

    def opponent(self, player: int) -> int | None:
        """The other player of the board (None for a bye)."""
        return self.second if player == self.first else self.first
