"""From the stored boards to the pure records and back: starting numbers, :class:`Board` records,
standings (used by the runner to pair and finish, and by the pages to show).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.tournaments.models import DOUBLE_ROUND_ROBIN, KNOCKOUT, SWISS, Tournament, TournamentBoard, TournamentPlayer
from app.tournaments.pairing import Board
from app.tournaments.standings import Standing, knockout_table, points_table


@dataclass(frozen=True, slots=True)
class Field:
    """The players of a started tournament by starting number: ``user_of[n]`` and ``number_of[user]``."""

    user_of: dict[int, int]
    number_of: dict[int, int]

    @classmethod
    def of(cls, players: Sequence[TournamentPlayer]) -> Field:
        """The field of the players that have a starting number."""
        numbered = [p for p in players if p.number is not None]
        return cls(
            {p.number: p.user_id for p in numbered if p.number}, {p.user_id: p.number for p in numbered if p.number}
        )

    @property
    def size(self) -> int:
        """How many players started."""
        return len(self.user_of)


def boards_of(field: Field, rows: Sequence[TournamentBoard]) -> list[Board]:
    """The finished boards among ``rows``, by starting number (rounds, then boards, in order)."""
    out = []
    for r in sorted(rows, key=lambda r: (r.round, r.board)):
        if r.result is None:
            continue
        second = field.number_of[r.second_user_id] if r.second_user_id is not None else None
        out.append(Board(r.round, field.number_of[r.first_user_id], second, r.result))
    return out


def standings(t: Tournament, field: Field, rows: Sequence[TournamentBoard]) -> list[Standing]:
    """The standings of ``t`` now (see :mod:`app.tournaments.standings` for each format's order)."""
    boards = boards_of(field, rows)
    if t.format == KNOCKOUT:
        return knockout_table(field.size, boards, t.rounds)
    return points_table(field.size, boards, swiss=t.format == SWISS)


def is_round_robin(t: Tournament) -> bool:
    """Whether ``t`` is a single or double round robin."""
    return t.format in ("round_robin", DOUBLE_ROUND_ROBIN)
