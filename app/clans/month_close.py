"""The month close of the clan ladders (issue 13, item 4): at the turn of a UTC month, every
region's ladder of the month that ended awards its trophies, exactly once, and the new month starts.

What a close does, per region (:func:`close_region`), in **one transaction**:

- the best three clans of the region with a score above 0 (:func:`app.clans.ladder.podium`: ties
  go to the clan founded first, so no place is shared) get a ``clan_trophies`` row each: place 1
  gold, 2 silver, 3 bronze. Fewer than three clans scored: fewer trophies (none when none did).
- each such clan gets bonus clan ladder points in the **next** month (``CLAN_TROPHY_BONUS``,
  default 300, 200, 100): :func:`app.clans.points.credit_clan` with reason ``month_trophy`` and
  reference ``"<region>:<month>:<place>"``;
- each of its players now gets player points (``CLAN_TROPHY_MEMBER_POINTS``, default 50, 30, 20):
  :func:`app.points.ledger.credit`, the same reason and reference (they count towards the ranks);
- a ``trophy`` row in the clan's history;
- the ``ladder_closes`` row of ``(month, region)``: the marker that the region is done.

Exactly once, with any number of processes, restarts and crashes: the transaction first locks the
month's ``ladder_months`` row (``FOR UPDATE`` on PostgreSQL; SQLite's one write lock) and skips a
region whose ``ladder_closes`` row exists; a second close that slipped past it would fail on the
keys (``ladder_closes`` per month and region, ``clan_trophies`` per region, month and place,
``clan_points`` and ``points_ledger`` per reason and reference) and roll back whole. A process that
dies mid-way leaves the regions it committed closed and the others untouched; the next run (this
process after a restart, or another one) closes the rest. When every region is closed the month's
``ladder_months.closed_at`` is set.

Which months: :func:`close_due` records every month from the latest it knows up to the current one
in ``ladder_months`` ("starts" them; on the very first run only the current month, so a new
installation awards nothing for the months before it), then closes each recorded month before
the current one that is not closed yet, oldest first. :func:`start` runs it in the server:
every ``CLAN_LADDER_TICK_SECONDS`` (60) and a second after each turn of the month, on the
service's clock (:mod:`app.matches.clock`, a fake one in tests).
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans import ladder
from app.clans.ladder_models import ClanTrophy, LadderClose, LadderMonth
from app.clans.models import Clan, ClanMember
from app.clans.months import next_month, seconds_to_next_month
from app.clans.points import credit_clan, month_of
from app.clans.regions import region_codes
from app.clans.service import _history
from app.logging import get_logger
from app.matches.clock import Clock
from app.points.ledger import credit
from app.points.ranks import thresholds_from
from app.settings import Settings

log = get_logger(__name__)

#: the reason of the bonus clan points and the members' player points
REASON = "month_trophy"


def trophy_ref(region: str, month: str, place: int) -> str:
    """The reference of a trophy's points: ``"CZ-64:2026-11:1"``."""
    return f"{region}:{month}:{place}"


async def open_months(sessions: async_sessionmaker[AsyncSession], now: datetime) -> str:
    """Record in ``ladder_months`` every month after the latest recorded one up to ``now``'s month
    (only ``now``'s month when none is recorded). Idempotent.

    :returns: ``now``'s month (``"YYYY-MM"``, UTC).
    """
    current = month_of(now)
    async with sessions() as session, session.begin():
        latest = await session.scalar(select(func.max(LadderMonth.month)))
        months = [current]
        if latest is not None and latest < current:
            months = []
            month = latest
            while month < current:
                month = next_month(month)
                months.append(month)
        insert = postgresql.insert if _postgres(session) else sqlite.insert
        for month in months:
            await session.execute(
                insert(LadderMonth).values(month=month, opened_at=now).on_conflict_do_nothing(index_elements=["month"])
            )
    return current


async def close_due(sessions: async_sessionmaker[AsyncSession], settings: Settings, now: datetime) -> list[str]:
    """Start the months up to ``now``'s (:func:`open_months`) and close every recorded month before
    it that is not closed (:func:`close_month`), oldest first.

    :returns: the months this call closed or finished closing.
    :raises Exception: whatever a region's close raised (the regions closed before it stay closed).
    """
    current = await open_months(sessions, now)
    async with sessions() as session:
        due = list(
            await session.scalars(
                select(LadderMonth.month)
                .where(LadderMonth.closed_at.is_(None), LadderMonth.month < current)
                .order_by(LadderMonth.month)
            )
        )
    for month in due:
        await close_month(sessions, settings, month, now)
    return due


async def close_month(
    sessions: async_sessionmaker[AsyncSession], settings: Settings, month: str, now: datetime
) -> None:
    """Close ``month`` in every region (:func:`close_region`, in region code order), then mark the
    month closed. Idempotent.

    :raises Exception: whatever a region's close raised (the month then stays open).
    """
    for region in sorted(region_codes()):
        await close_region(sessions, settings, month, region, now)
    async with sessions() as session, session.begin():
        await session.execute(
            update(LadderMonth).where(LadderMonth.month == month, LadderMonth.closed_at.is_(None)).values(closed_at=now)
        )


async def close_region(
    sessions: async_sessionmaker[AsyncSession], settings: Settings, month: str, region: str, now: datetime
) -> int | None:
    """Award ``region``'s trophies of ``month`` and their points, in one transaction (the module
    docstring says what and how exactly once). ``month`` must be recorded in ``ladder_months``.

    :returns: the number of trophies awarded (0-3), or None when the region was closed before
        (by this or another process).
    """
    async with sessions() as session:
        try:
            async with session.begin():
                await _lock_month(session, month)
                done = await session.scalar(
                    select(LadderClose.month).where(LadderClose.month == month, LadderClose.region == region)
                )
                if done is not None:
                    return None
                podium = await ladder.podium(session, month, region)
                for place, row in enumerate(podium, start=1):
                    await _award(session, settings, month, region, place, row["clan"]["id"], row["score"], now)
                session.add(LadderClose(month=month, region=region, trophies=len(podium), closed_at=now))
                await session.flush()
                if podium:
                    log.info("clan ladder closed", month=month, region=region, trophies=len(podium))
                return len(podium)
        except IntegrityError:  # another process closed the region between our check and our write
            return None


async def _award(
    session: AsyncSession,
    settings: Settings,
    month: str,
    region: str,
    place: int,
    clan_id: int,
    score: int,
    now: datetime,
) -> None:
    """One trophy, its bonus clan points in the next month, its players' points, its history row."""
    bonus = settings.clan_trophy_bonus[place - 1]
    member_points = settings.clan_trophy_member_points[place - 1]
    ref = trophy_ref(region, month, place)
    params = {"region": region, "month": month, "place": place}
    session.add(ClanTrophy(clan_id=clan_id, region=region, month=month, place=place, score=score, bonus=bonus, at=now))
    if bonus:
        await credit_clan(session, clan_id, bonus, REASON, ref, month=next_month(month), params=params)
    if member_points:
        thresholds = thresholds_from(settings)
        members = await session.scalars(
            select(ClanMember.user_id).where(ClanMember.clan_id == clan_id).order_by(ClanMember.user_id)
        )
        for user_id in list(members):
            await credit(session, user_id, member_points, REASON, ref, params=params, thresholds=thresholds)
    clan = await session.get(Clan, clan_id)
    assert clan is not None
    _history(session, clan, None, "trophy", now, place=place, region=region, month=month, score=score, bonus=bonus)


def _postgres(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "postgresql"


async def _lock_month(session: AsyncSession, month: str) -> None:
    """Lock the month's ``ladder_months`` row until the transaction ends (PostgreSQL ``FOR
    UPDATE``; SQLite: a no-op ``UPDATE`` that takes the database's one write lock)."""
    if _postgres(session):
        await session.execute(select(LadderMonth.month).where(LadderMonth.month == month).with_for_update())
    else:
        await session.execute(update(LadderMonth).where(LadderMonth.month == month).values(month=LadderMonth.month))


async def run_forever(sessions: async_sessionmaker[AsyncSession], settings: Settings, clock: Clock) -> None:
    """Run :func:`close_due` now, then every ``settings.clan_ladder_tick_seconds`` and one second
    after each turn of the month (by ``clock``), until cancelled. A failed run is logged and tried
    again at the next tick."""
    while True:
        try:
            await close_due(sessions, settings, clock.now())
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clan ladder month close failed")
        wait = min(settings.clan_ladder_tick_seconds, max(0.0, seconds_to_next_month(clock.now())) + 1.0)
        await asyncio.sleep(wait)


def start(sessions: async_sessionmaker[AsyncSession], settings: Settings, clock: Clock) -> asyncio.Task[None]:
    """Start :func:`run_forever` as a task (cancel it to stop)."""
    return asyncio.create_task(run_forever(sessions, settings, clock), name="clan-month-close")


async def stop(task: asyncio.Task[None] | None) -> None:
    """Cancel the task of :func:`start` and wait for it."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
