"""Tournament tables: ``tournaments``, ``tournament_players``, ``tournament_rounds``,
``tournament_boards`` (issue 14).

A tournament is also its own scheduled job (DESIGN.md section 5): ``due_at`` says when the runner
(:mod:`app.tournaments.runner`) must look at it next (the start time; "now" when a round's last
board finished), and every step it takes is keyed so that doing it twice changes nothing: a round
is one ``tournament_rounds`` row (primary key ``(tournament_id, round)``), a board is unique per
``(tournament_id, round, board)`` and per match, points are credited once per
``(user, "tournament_place", "<tournament>:<place>")``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: ``tournaments.status``: open for registration, playing, over, called off (too few players)
REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
#: ``tournaments.format``
ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS, KNOCKOUT = "round_robin", "double_round_robin", "swiss", "knockout"
FORMATS = (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS, KNOCKOUT)
#: ``tournament_players.status``: signed up, confirmed before the start, playing, withdrew,
#: did not check in (left out at the start), out of a knockout
REGISTERED, CHECKED_IN, PLAYING, WITHDRAWN, NO_SHOW, ELIMINATED = (
    "registered",
    "checked_in",
    "playing",
    "withdrawn",
    "no_show",
    "eliminated",
)
NAME_MAX = 60


class Tournament(Base):
    """One tournament of one game.

    ``options`` are the match options every board's match gets (``turn_seconds``, the game's
    ``variant`` or ``level``, ``rated``); ``rounds`` is the planned number of rounds (Swiss: the
    organiser's choice; round robin and knockout: fixed at the start by the field);
    ``current_round`` the last round paired (0 before the start). ``clan_id``: only that clan's
    members may register. ``due_at``: when the runner must look at it next (null: nothing to do).
    """

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]]
    format: Mapped[str] = mapped_column(String(24))
    rounds: Mapped[int] = mapped_column(default=0)
    max_players: Mapped[int]
    starts_at: Mapped[datetime]
    clan_id: Mapped[int | None] = mapped_column(ForeignKey("clans.id", ondelete="SET NULL"))
    rated: Mapped[bool] = mapped_column(default=False, server_default=false())
    status: Mapped[str] = mapped_column(String(16), default=REGISTERING, index=True)
    current_round: Mapped[int] = mapped_column(default=0)
    due_at: Mapped[datetime | None] = mapped_column(index=True)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]


class TournamentPlayer(Base):
    """A player of a tournament: ``status`` (:data:`REGISTERED` ... :data:`ELIMINATED`),
    ``number`` (starting number, 1 = the top seed by rating, given at the start), the ``rating``
    used for seeding, ``left_round`` (the round they withdrew in or went out of a knockout) and
    ``place`` (the final place, once the tournament is over)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    status: Mapped[str] = mapped_column(String(16), default=REGISTERED)
    number: Mapped[int | None]
    rating: Mapped[float | None]
    registered_at: Mapped[datetime] = mapped_column(default=utcnow)
    checked_in_at: Mapped[datetime | None]
    left_round: Mapped[int | None]
    place: Mapped[int | None]


class TournamentRound(Base):
    """A paired round (the row exists once its boards are paired). ``started_at``: every board's
    match has been started (set after the matches' own commits, so a crash in between leaves it
    null and the runner starts what is still waiting); ``finished_at``: every board has a result."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(primary_key=True)
    paired_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]


class TournamentBoard(Base):
    """One board of a round: ``first`` (the match's seat 0) against ``second`` (seat 1; null for a
    bye), by user id; ``match_id`` (null for a bye or a forfeit decided at pairing); ``result`` one
    of :data:`app.tournaments.pairing.RESULTS` (null while the match is played)."""

    __tablename__ = "tournament_boards"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int]
    board: Mapped[int]
    first_user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    second_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id", ondelete="SET NULL"), unique=True)
    result: Mapped[str | None] = mapped_column(String(4))

    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "board", name="uq_tournament_boards_round_board"),
        Index("ix_tournament_boards_tournament_round", "tournament_id", "round"),
    )
