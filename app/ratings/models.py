"""Rating tables: ``ratings`` (a player's skill per pool), ``rating_changes`` (one per rated seat of
a match: the exactly-once key and the history), ``ladder_points`` (a player's points per pool and
monthly season), and three running counts the pages read instead of counting rows: ``rating_pools``
(players per pool), ``rating_counts`` (players per rating value per pool: a ladder page's start and
a player's rank without scanning the players ahead) and ``player_records`` (a player's wins, losses
and draws per game).

Indexes serve the pages (docs/performance.md, "Ladders and profiles"): the ladder reads
``ix_ratings_pool_rating`` backwards (best first) from a rating found in ``rating_counts``, the
profile's chart and a day's repeat wins read ``ix_rating_changes_history``, the season's standings
``ix_ladder_points_standings``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base
from app.ratings.pools import POOL_MAX
from app.ratings.skill import START_MU, START_SIGMA, display_rating

#: a season is a calendar month, UTC: ``"2026-11"``
SEASON_LEN = 7


class Rating(Base):
    """A player's skill in one pool (OpenSkill ``mu``/``sigma``, :mod:`app.ratings.skill`).

    ``rating`` is the displayed rating of ``mu`` (kept for the ladder's index); ``games``, ``wins``,
    ``losses``, ``draws`` count rated matches in the pool; ``last_played_at`` is the end of the
    latest one. One row per ``(user_id, pool)``.
    """

    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(POOL_MAX))
    mu: Mapped[float] = mapped_column(default=START_MU)
    sigma: Mapped[float] = mapped_column(default=START_SIGMA)
    rating: Mapped[int] = mapped_column(default=display_rating(START_MU))
    games: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    draws: Mapped[int] = mapped_column(default=0)
    last_played_at: Mapped[datetime | None]

    __table_args__ = (
        UniqueConstraint("user_id", "pool", name="uq_ratings_user_pool"),
        Index("ix_ratings_pool_rating", "pool", "rating", "user_id"),
    )


class RatingChange(Base):
    """What one rated match did to one seat's rating: the key of exactly-once application (unique
    ``(match_id, seat)``) and a point of the player's rating history.

    ``before``/``after`` are ``mu``, ``sigma`` and the displayed rating; ``result`` and ``rank``
    are the seat's (``match_results``); ``points`` the season ladder points it earned (0 unless it
    won); ``season`` the month they count for; ``at`` the end of the match.
    """

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int]
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    pool: Mapped[str] = mapped_column(String(POOL_MAX))
    result: Mapped[str] = mapped_column(String(8))
    rank: Mapped[int]
    mu_before: Mapped[float]
    sigma_before: Mapped[float]
    mu_after: Mapped[float]
    sigma_after: Mapped[float]
    rating_before: Mapped[int]
    rating_after: Mapped[int]
    points: Mapped[int] = mapped_column(default=0)
    season: Mapped[str] = mapped_column(String(SEASON_LEN))
    at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("match_id", "seat", name="uq_rating_changes_match_seat"),
        # a player's history per pool in order, with what the chart shows (index-only on PostgreSQL)
        Index("ix_rating_changes_history", "user_id", "pool", "at", "match_id", "rating_after"),
        Index("ix_rating_changes_user_id_at", "user_id", "at"),
    )


class LadderPoints(Base):
    """A player's ladder points in one pool and season (a month, ``"2026-11"``), apart from skill
    (issue 12, item 3); ``wins`` counts the rated wins that earned them. One row per
    ``(pool, season, user_id)``; clan ladders add these up later."""

    __tablename__ = "ladder_points"

    id: Mapped[int] = mapped_column(primary_key=True)
    pool: Mapped[str] = mapped_column(String(POOL_MAX))
    season: Mapped[str] = mapped_column(String(SEASON_LEN))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    points: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)

    __table_args__ = (
        UniqueConstraint("pool", "season", "user_id", name="uq_ladder_points_pool_season_user"),
        # a season's standings in order (most points, then wins, then the later account)
        Index("ix_ladder_points_standings", "pool", "season", "points", "wins", "user_id"),
        # a month's points per player over every pool (the clan ladders, app/clans/ladder.py)
        Index("ix_ladder_points_season_user", "season", "user_id", "points"),
    )


class RatingPool(Base):
    """How many players have a rating in ``pool`` (the ladder's size, kept so that a ladder page
    does not count 100,000 rows); raised when a player's first rated match in the pool is applied."""

    __tablename__ = "rating_pools"

    pool: Mapped[str] = mapped_column(String(POOL_MAX), primary_key=True)
    players: Mapped[int] = mapped_column(default=0)


class RatingCount(Base):
    """How many players of ``pool`` have the displayed rating ``rating`` (the ladder's histogram).

    Kept by the ratings consumer in the transaction that changes the ratings (a new player adds one
    at the starting rating; a rated seat moves one from its old rating to its new one), so it is
    exactly as right as ``ratings`` itself. A ladder page finds the rating its first row has by
    summing these counts (about a thousand rows per pool) instead of skipping the index entries of
    every player above it, and a player's rank is the sum over higher ratings plus the players tied
    with them that sort first. Rows whose count fell to 0 stay (``players`` 0).
    """

    __tablename__ = "rating_counts"

    pool: Mapped[str] = mapped_column(String(POOL_MAX), primary_key=True)
    rating: Mapped[int] = mapped_column(primary_key=True)
    players: Mapped[int] = mapped_column(default=0)


class PlayerRecord(Base):
    """A player's wins, losses and draws in every finished match of one game, rated or not, against
    people or the computer (the profile's "record per game"; kept so that a profile does not read
    thousands of matches). Counted once per ``match_results`` row by the ratings consumer."""

    __tablename__ = "player_records"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    draws: Mapped[int] = mapped_column(default=0)
