"""Match tables: ``matches``, ``match_seats`` and ``match_events`` (DESIGN.md section 5).

``matches.state`` is a snapshot that can always be rebuilt by replaying ``match_events``
(``tests/service/test_replay.py`` checks it). Columns that hold hidden information (``seed``,
``state``, ``pending``, event payloads) are never sent to a client as they are.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db.base import Base, utcnow

WAITING, ACTIVE, FINISHED, ABORTED = "waiting", "active", "finished", "aborted"


class Match(Base):
    """One match of one game.

    ``version`` counts the rows of ``match_events``; ``state_version`` is the version at which the
    engine state last changed (a hidden simultaneous choice bumps ``version`` but not
    ``state_version``, so the other seat's pending ``act`` is not made stale by it).
    ``deadline_at`` is the earliest deadline of any seat that must act (indexed for the sweeper).
    """

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    options: Mapped[dict[str, Any]]
    num_players: Mapped[int]
    status: Mapped[str] = mapped_column(String(16), default=WAITING, index=True)
    seed: Mapped[str] = mapped_column(String(64))
    seed_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=0)
    state_version: Mapped[int] = mapped_column(default=0)
    state: Mapped[dict[str, Any] | None]
    pending: Mapped[dict[str, Any]] = mapped_column(default=dict)
    result: Mapped[dict[str, Any] | None]
    deadline_at: Mapped[datetime | None]
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    started_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]

    seats: Mapped[list[MatchSeat]] = relationship(
        back_populates="match", order_by="MatchSeat.seat", lazy="selectin", cascade="all, delete-orphan"
    )

    __table_args__ = (Index("ix_matches_status_deadline", "status", "deadline_at"),)
    # every UPDATE checks the version it loaded (compare-and-set); the service sets it itself
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}


class MatchSeat(Base):
    """A seat of a match, held by a user, by a bot (``bot_level``), or still free.

    ``deadline_at``: when this seat must have acted (null when it need not act or the match is
    untimed). ``timeouts_in_row``, ``away`` and ``away_since`` implement computer takeover
    (DESIGN.md section 3): after two timeouts in a row the seat is away and the computer plays it
    at once until the player acts or says "I'm back".
    """

    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    bot_level: Mapped[str | None] = mapped_column(String(32))
    joined_at: Mapped[datetime | None]
    deadline_at: Mapped[datetime | None]
    timeouts_in_row: Mapped[int] = mapped_column(default=0)
    away: Mapped[bool] = mapped_column(default=False)
    away_since: Mapped[datetime | None]
    result: Mapped[str | None] = mapped_column(String(8))
    score: Mapped[float | None]

    match: Mapped[Match] = relationship(back_populates="seats")
    user = relationship("User", lazy="selectin")


class MatchEvent(Base):
    """One input to a match, in order: ``(match_id, version)`` is unique, so two writers can never
    both append the same version.

    ``kind`` says where an input came from: ``start``, ``chance``, ``action`` (a person),
    ``bot`` (a computer seat), ``timeout`` (the computer played for a seat whose clock ran out),
    ``back`` (a player took the seat back), ``resign``, ``abandoned``, ``end``. A simultaneous choice is hidden by its
    ``visible_to`` (only its own seat) until the turn resolves.
    ``payload``: ``{"action": <encoded action or null>, "visible_to": [seats] | null,
    "events": [Event.to_json(), ...], ...}``.
    """

    __tablename__ = "match_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int]
    seat: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(16))
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("match_id", "version", name="uq_match_events_match_version"),)
