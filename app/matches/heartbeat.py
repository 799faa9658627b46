"""Deadlines move by the server's downtime (issue 17, item 8): nobody loses a turn to a restart.

Every server process's sweeper writes "running at <now>" in ``service_heartbeat`` every
:data:`HEARTBEAT_SECONDS` (:func:`beat`). When a process starts (:func:`recover`), a heartbeat
older than :data:`DOWNTIME_AFTER_SECONDS` means no process ran meanwhile: every deadline of every
running match (each seat's, the match's, and ``away_since``, which counts toward abandonment)
moves later by the whole gap, in the transaction that writes the new heartbeat with the row
locked, so two processes starting together shift once. While any process runs (a rolling
restart) the heartbeat stays fresh and nothing moves.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.logging import get_logger
from app.matches.models import ACTIVE, Match, ServiceHeartbeat

log = get_logger(__name__)

#: seconds between two heartbeats of a running process
HEARTBEAT_SECONDS = 5.0
#: a heartbeat older than this at start means the service was down (three missed beats)
DOWNTIME_AFTER_SECONDS = 3 * HEARTBEAT_SECONDS


async def _locked_heartbeat(session: AsyncSession, postgres: bool) -> ServiceHeartbeat | None:
    if not postgres:  # take SQLite's write lock first
        await session.execute(update(ServiceHeartbeat).where(ServiceHeartbeat.id == 1).values(at=ServiceHeartbeat.at))
    stmt = select(ServiceHeartbeat).where(ServiceHeartbeat.id == 1)
    if postgres:
        stmt = stmt.with_for_update()
    return (await session.execute(stmt)).scalar_one_or_none()


async def beat(sessionmaker: async_sessionmaker[AsyncSession], now: datetime, *, postgres: bool) -> None:
    """Record that this process runs at ``now`` (the service clock)."""
    async with sessionmaker() as session, session.begin():
        row = await _locked_heartbeat(session, postgres)
        if row is None:
            session.add(ServiceHeartbeat(id=1, at=now))
        elif row.at < now:
            row.at = now


async def recover(sessionmaker: async_sessionmaker[AsyncSession], now: datetime, *, postgres: bool) -> timedelta:
    """At start: move every running match's deadlines by the downtime, and beat.

    :returns: the shift (zero when the service was not down, or never ran before).
    """
    shift = timedelta(0)
    async with sessionmaker() as session, session.begin():
        row = await _locked_heartbeat(session, postgres)
        if row is None:
            session.add(ServiceHeartbeat(id=1, at=now))
            return shift
        gap = now - row.at
        row.at = max(row.at, now)
        if gap.total_seconds() <= DOWNTIME_AFTER_SECONDS:
            return shift
        shift = gap
        matches = (await session.execute(select(Match).where(Match.status == ACTIVE))).scalars().all()
        for m in matches:
            if m.deadline_at is not None:
                m.deadline_at = m.deadline_at + shift
            for ms in m.seats:
                if ms.deadline_at is not None:
                    ms.deadline_at = ms.deadline_at + shift
                if ms.away_since is not None:
                    ms.away_since = ms.away_since + shift
    log.info("deadlines moved by the downtime", seconds=round(shift.total_seconds(), 1), matches=len(matches))
    return shift
