"""Challenge tables (issue 13, item 3): ``challenges`` (one clan challenges another to a series of
boards in one game) and ``challenge_boards`` (each board's two players, its match and its result).

Seats: board ``k`` (1-based) seats the challenger's player first on odd boards and the challenged
clan's player first on even boards (:func:`challenger_seat`), so over a series neither clan always
moves first. Every game on the server plays at two seats (Battle Runes, Stratego Junior and
Scratch Wars are two-player games; Fantasy súboj and Treasure Beasts are played at two, their
smallest table), so a board is one match between two players, one per clan.

A board is decided once (``winner`` set, never changed): by its match's result (the ``challenges``
consumer of ``match_results``), or by the deadline job for a side that did not show
(``forfeit``). The series finishes when every board is decided.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: boards one series may have
MIN_BOARDS, MAX_BOARDS = 1, 10

#: every ``clan_history.code`` a challenge writes (in both clans; ``params``: ``challenge`` (id),
#: ``clan`` (the other clan: ``{"tag", "name"}``), ``side`` (this clan's: ``challenger`` or
#: ``challenged``), and as noted)
CHALLENGE_HISTORY_CODES = frozenset(
    {
        "challenge_proposed",  # game, boards
        "challenge_accepted",
        "challenge_declined",
        "challenge_withdrawn",
        "challenge_expired",  # nobody answered before the deadline
        "challenge_player",  # board, user: a player named (or signed up) for this clan
        "challenge_finished",  # result (this clan's: win | loss | draw), score [this clan's, the other's]
    }
)


class ChallengeStatus(StrEnum):
    """Where a challenge is: ``proposed`` (waiting for the challenged clan's answer), ``accepted``
    (boards being named and played), ``finished`` (every board decided), or closed without play:
    ``declined``, ``withdrawn`` (by the challenger before an answer), ``expired`` (no answer by
    the deadline)."""

    PROPOSED = "proposed"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"
    FINISHED = "finished"
    EXPIRED = "expired"


#: the statuses of a challenge still open (counted by the limit of open challenges between two clans)
OPEN_STATUSES = (ChallengeStatus.PROPOSED.value, ChallengeStatus.ACCEPTED.value)


class Side(StrEnum):
    """A side of a challenge."""

    CHALLENGER = "challenger"
    CHALLENGED = "challenged"

    @property
    def other(self) -> Side:
        """The opposing side."""
        return Side.CHALLENGED if self is Side.CHALLENGER else Side.CHALLENGER


def challenger_seat(board: int) -> int:
    """The seat (0 or 1) of the challenger's player on ``board`` (1-based): 0 on odd boards, 1 on
    even ones; the challenged clan's player holds the other seat."""
    return 0 if board % 2 == 1 else 1


def seat_of_side(board: int, side: Side) -> int:
    """The seat ``side``'s player holds on ``board``."""
    first = challenger_seat(board)
    return first if side is Side.CHALLENGER else 1 - first


class Challenge(Base):
    """A series of ``boards`` matches of ``game`` between two clans.

    ``options`` are the boards' match options as the match service accepts them (normalised:
    ``turn_seconds`` > 0, ``spectators``, ``rated`` and the game's own, e.g. ``variant``);
    ``deadline`` is when unplayed boards are forfeited (and, while proposed, when the challenge
    expires). ``status`` is a :class:`ChallengeStatus`. When finished, ``challenger_wins`` and
    ``challenged_wins`` count the boards each side won, and ``result`` is the challenger's
    (``win``, ``loss``, ``draw``). ``deadline_done`` is set by the deadline job once it has
    handled this challenge (its unique effect: it runs once per challenge).
    """

    __tablename__ = "challenges"

    id: Mapped[int] = mapped_column(primary_key=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"), index=True)
    challenged_id: Mapped[int] = mapped_column(ForeignKey("clans.id", ondelete="CASCADE"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]]
    boards: Mapped[int]
    deadline: Mapped[datetime]
    status: Mapped[str] = mapped_column(String(12), default=ChallengeStatus.PROPOSED.value)
    deadline_done: Mapped[bool] = mapped_column(default=False)
    challenger_wins: Mapped[int] = mapped_column(default=0)
    challenged_wins: Mapped[int] = mapped_column(default=0)
    result: Mapped[str | None] = mapped_column(String(8))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    answered_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    __table_args__ = (
        CheckConstraint(f"boards >= {MIN_BOARDS} AND boards <= {MAX_BOARDS}", name="boards_range"),
        CheckConstraint("challenger_id <> challenged_id", name="two_clans"),
        Index("ix_challenges_status_deadline", "status", "deadline"),
    )


class ChallengeBoard(Base):
    """Board ``board`` (1-based) of a challenge: each side's player (NULL until named), its match
    (``match_id``, created once both players are named; its ``origin_ref`` is
    ``"<challenge id>:<board>"``), and its result: ``winner`` (``challenger``, ``challenged``,
    ``draw``, or ``none`` when both sides forfeited), ``forfeit`` (the side that did not show:
    ``challenger``, ``challenged`` or ``both``; NULL when the match decided), ``decided_at``.
    ``starting_until`` is the lease of whoever is creating the board's match (a process that dies
    meanwhile leaves a lease that ends, and a later pass finishes the job)."""

    __tablename__ = "challenge_boards"

    id: Mapped[int] = mapped_column(primary_key=True)
    challenge_id: Mapped[int] = mapped_column(ForeignKey("challenges.id", ondelete="CASCADE"))
    board: Mapped[int]
    challenger_player_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    challenged_player_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), index=True)
    starting_until: Mapped[datetime | None]
    winner: Mapped[str | None] = mapped_column(String(12))
    forfeit: Mapped[str | None] = mapped_column(String(12))
    decided_at: Mapped[datetime | None]

    __table_args__ = (UniqueConstraint("challenge_id", "board", name="uq_challenge_boards_challenge_board"),)

    def player(self, side: Side) -> int | None:
        """The player ``side`` named for this board (None: nobody yet)."""
        return self.challenger_player_id if side is Side.CHALLENGER else self.challenged_player_id

    def set_player(self, side: Side, user_id: int) -> None:
        """Name ``user_id`` as ``side``'s player."""
        if side is Side.CHALLENGER:
            self.challenger_player_id = user_id
        else:
            self.challenged_player_id = user_id
