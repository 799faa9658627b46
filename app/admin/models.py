"""``admin_actions``: the audit of administrators' changes to players (issue 13, item 5).

One row per grant or revoke of a rank and per adjustment of points, with who made it, to whom, what
(``params``) and the administrator's note. The row's id is the ``ref`` of what it caused: the
``rank_changes`` row (reason ``grant`` or ``revoke``) and the ``points_ledger`` row (reason
``adjust``), so either leads back to the note.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: longest note an administrator may write
NOTE_MAX = 200
#: what an administrator did (``admin_actions.kind``)
ACTION_KINDS = ("rank", "points")


class AdminAction(Base):
    """One administrator's change to a player: ``kind`` ``rank`` (``params`` ``{"old", "new"}``)
    or ``points`` (``params`` ``{"delta", "balance_after"}``), with the ``note`` they wrote.
    ``by_user_id`` is NULL once that administrator's account is deleted (the row stays)."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(primary_key=True)
    by_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    note: Mapped[str] = mapped_column(String(NOTE_MAX), default="")
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (Index("ix_admin_actions_user_id_id", "user_id", "id"),)
