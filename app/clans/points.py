"""Clans' ladder points (issue 13, item 4): :func:`credit_clan` is the one way they move.

A row of ``clan_points`` per credit, once per ``(clan, reason, ref)`` (a key of the table), in the
month it counts for. Reasons: ``challenge_win`` (``ref`` the challenge id), ``month_trophy``
(``ref`` ``region:month:place``), ``adjust``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.models import ClanPoints
from app.db.base import utcnow

#: why a clan's ladder points moved (``clan_points.reason``)
CLAN_POINTS_REASONS = ("challenge_win", "month_trophy", "adjust")


def month_of(at: datetime) -> str:
    """The ladder month of a moment: ``"YYYY-MM"`` in UTC."""
    return at.strftime("%Y-%m")


async def credit_clan(
    session: AsyncSession,
    clan_id: int,
    points: int,
    reason: str,
    ref: str | int,
    *,
    month: str | None = None,
    params: dict[str, Any] | None = None,
) -> bool:
    """Add ``points`` to a clan's ladder in ``month`` (default: this month), once per ``(reason,
    ref)``, in the caller's transaction (nothing committed here).

    :returns: False when this ``(reason, ref)`` was credited before (nothing written).
    :raises ValueError: for an unknown reason.
    """
    if reason not in CLAN_POINTS_REASONS:
        raise ValueError(f"unknown clan points reason {reason!r}")
    insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
    stmt = (
        insert(ClanPoints)
        .values(
            clan_id=clan_id,
            month=month or month_of(utcnow()),
            points=points,
            reason=reason,
            ref=str(ref),
            params=params or {},
            at=utcnow(),
        )
        .on_conflict_do_nothing(index_elements=["clan_id", "reason", "ref"])
        .returning(ClanPoints.id)
    )
    return (await session.execute(stmt)).first() is not None
