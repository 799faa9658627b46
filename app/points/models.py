"""Points and rank tables: ``player_points``, ``points_ledger``, ``rank_changes``.

A player's rank itself is ``users.rank`` (:class:`app.points.ranks.Rank`), beside the name it is
shown with; ``rank_changes`` is its audit trail.

Exactly once is a key, not only a check: ``points_ledger`` is unique per ``(user_id, reason,
ref)``, so a credit delivered twice (a retried job, two processes) is refused by the database even
when two transactions pass the check at once. ``player_points.balance`` has a check constraint
``balance >= 0``: no code path can overspend.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: longest ``reason`` and ``ref`` of a ledger row
REASON_MAX, REF_MAX = 24, 64


class PlayerPoints(Base):
    """A player's points: ``balance`` (what they may spend, never negative) and ``earned`` (every
    credit ever, never lowered by spending: the rank thresholds read it). One row per player,
    created by their first credit; the row is the lock every change of their points takes."""

    __tablename__ = "player_points"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    balance: Mapped[int] = mapped_column(default=0)
    earned: Mapped[int] = mapped_column(default=0)

    __table_args__ = (CheckConstraint("balance >= 0", name="balance_not_negative"),)


class PointsEntry(Base):
    """One credit (``delta`` > 0) or debit (``delta`` < 0) of a player's points.

    ``reason`` is a code of :data:`app.points.ledger.REASONS`; ``ref`` names what caused it (a
    match id, a tournament id and place, a reward purchase, ...) so the pair is the entry's
    idempotency key. ``balance_after`` is the balance once applied (the statement's running
    total). ``params`` holds what a page needs to say it (JSON)."""

    __tablename__ = "points_ledger"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    delta: Mapped[int]
    reason: Mapped[str] = mapped_column(String(REASON_MAX))
    ref: Mapped[str] = mapped_column(String(REF_MAX))
    balance_after: Mapped[int]
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (
        UniqueConstraint("user_id", "reason", "ref", name="uq_points_ledger_once"),
        Index("ix_points_ledger_user_id_id", "user_id", "id"),
    )


class RankChange(Base):
    """One change of a player's rank: ``old`` to ``new`` (:class:`app.points.ranks.Rank` codes),
    because of ``reason`` (``threshold``, ``tournament_win``, ``beat_lord``, ``grant``, ``revoke``)
    with its ``ref``; ``by_user_id`` is the administrator who granted or revoked it (NULL for the
    automatic promotions)."""

    __tablename__ = "rank_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    old: Mapped[str] = mapped_column(String(8))
    new: Mapped[str] = mapped_column(String(8))
    reason: Mapped[str] = mapped_column(String(REASON_MAX))
    ref: Mapped[str] = mapped_column(String(REF_MAX), default="")
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_rank_changes_user_id_id", "user_id", "id"),)
