"""What a finished match leaves behind, and the seam its consumers plug into (DESIGN.md section 5,
"After a match").

Writing
    The transaction that ends a match (by the rules, a resignation, the computer playing a
    timed-out seat to the end, or abandonment) also inserts one ``match_results`` row per seat
    (:func:`result_rows`, called by :meth:`app.matches.write.WriteContext.finish`). The unique
    ``(match_id, seat)`` makes a second writer's commit fail, so a match has exactly one set. After
    the commit the service publishes ``hub.publish_finished(match_id)``.

Consuming (ratings, clan ladders, tournaments)
    A consumer has a name (``"ratings"``) and a handler that applies rows inside a transaction it
    is given::

        async def apply_ratings(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
            ...  # read and write your own tables with ``session``; raise to undo everything

        delivered = await claim(sessionmaker, "ratings", apply_ratings, limit=100)

    :func:`claim` opens one transaction, takes up to ``limit`` rows this consumer has not applied
    (oldest first; ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so concurrent claimers in several
    processes take different rows; the database write lock on SQLite), records a
    ``result_deliveries`` row for each (unique per consumer, match and seat), calls the handler with
    the rows it won, and commits. If the handler raises, nothing is recorded and the rows are
    offered again. A row is therefore applied exactly once per consumer, whatever the number of
    processes, restarts and crashes. Rows of one match come together when ``limit`` allows (a
    handler that needs every seat of a match, as a rating update does, gets them in one call unless
    a match has more seats than ``limit``; it can check ``len(rows)`` against the match).

    :func:`consume_forever` runs ``claim`` in a loop: at once when the hub says a match finished,
    and every ``poll_seconds`` otherwise (the safety net for a notice lost while a process was
    down); and again within :data:`RETRY_SECONDS` while rows it has not applied remain (the row
    locks are shared by every consumer, so one consumer's claim makes another's skip those rows
    until it commits). Start it beside the service (``asyncio.create_task``) and cancel it on
    shutdown.

    What counts is the consumer's choice: ``matches.origin`` (``casual``, ``rated``, ``challenge``,
    ``tournament``) and ``origin_ref`` tell where the match comes from, and each row says whether
    the computer finished the seat (``computer_finished``) or held it (``user_id`` null).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from sqlalchemy import exists, false, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.core import Outcome
from app.logging import get_logger
from app.matches.hub import LocalHub
from app.matches.models import Match, MatchResult, ResultDelivery
from app.matches.store import MatchRecord

log = get_logger(__name__)

#: how soon a consumer claims again when rows it has not applied were left out of its claim
#: because another claim held them (``SKIP LOCKED`` skips the rows another consumer is applying
#: too, not only those of its own twin in another process)
RETRY_SECONDS = 0.2

#: applies claimed rows inside the claiming transaction; raising undoes the claim
Handler = Callable[[AsyncSession, Sequence[MatchResult]], Awaitable[None]]


def result_rows(m: Match | MatchRecord, outcome: Outcome, now: datetime) -> list[MatchResult]:
    """One ``match_results`` row per seat of ``m`` for ``outcome`` (not yet added to a session).

    ``computer_finished`` is true for a computer seat and for a seat the computer was playing at
    the end (away, or resigned while the game went on).

    :raises ValueError: ``outcome`` has not one result per seat.
    """
    if len(outcome.results) != m.num_players:
        raise ValueError(f"match {m.id}: {len(outcome.results)} results for {m.num_players} seats")
    return [
        MatchResult(
            match_id=m.id,
            seat=ms.seat,
            user_id=ms.user_id,
            team=outcome.teams[ms.seat],
            rank=outcome.ranks[ms.seat],
            result=outcome.results[ms.seat],
            reason=outcome.reason or "",
            score=outcome.scores[ms.seat] if outcome.scores else None,
            computer_finished=bool(ms.bot_level) or ms.away or ms.resigned,
            created_at=now,
        )
        for ms in m.seats
    ]


async def claim(
    sessionmaker: async_sessionmaker[AsyncSession], consumer: str, handler: Handler, limit: int = 100
) -> int:
    """Apply up to ``limit`` result rows that ``consumer`` has not applied yet, exactly once.

    :param consumer: the consumer's name (at most 40 characters), e.g. ``"ratings"``.
    :param handler: called with the claimed rows (ordered by match, then seat) and the open
        session, inside the transaction that records their delivery; not called when none is due.
    :returns: how many rows were delivered (0 when none was due).
    :raises Exception: whatever ``handler`` raised (nothing is recorded then).
    """
    async with sessionmaker() as session, session.begin():
        postgres = session.get_bind().dialect.name == "postgresql"
        if not postgres:  # SQLite: take the write lock before reading, as the match writer does
            await session.execute(update(ResultDelivery).where(false()).values(consumer=ResultDelivery.consumer))
        delivered = exists().where(ResultDelivery.consumer == consumer, ResultDelivery.result_id == MatchResult.id)
        stmt = select(MatchResult).where(~delivered).order_by(MatchResult.id).limit(limit)
        if postgres:
            stmt = stmt.with_for_update(skip_locked=True)
        candidates = (await session.execute(stmt)).scalars().all()
        if not candidates:
            return 0
        values = [{"consumer": consumer, "result_id": r.id, "match_id": r.match_id, "seat": r.seat} for r in candidates]
        insert = (postgresql.insert if postgres else sqlite.insert)(ResultDelivery)
        # a claimer whose snapshot predates another's commit may see delivered rows as free: the
        # unique key turns its insert into nothing, and only the rows it really recorded are its own
        won = set(
            (
                await session.execute(
                    insert.values(values)
                    .on_conflict_do_nothing(index_elements=["consumer", "match_id", "seat"])
                    .returning(ResultDelivery.result_id)
                )
            ).scalars()
        )
        rows = sorted((r for r in candidates if r.id in won), key=lambda r: (r.match_id, r.seat))
        if rows:
            await handler(session, rows)
        return len(rows)


async def consume_forever(
    sessionmaker: async_sessionmaker[AsyncSession],
    hub: LocalHub,
    consumer: str,
    handler: Handler,
    *,
    poll_seconds: float = 30.0,
    limit: int = 100,
) -> None:
    """Run :func:`claim` for ``consumer`` until cancelled: when the hub announces a finished match,
    and every ``poll_seconds`` in any case. A failing handler is logged and retried at the next
    wake-up.
    """
    wake = asyncio.Event()
    unsubscribe = hub.subscribe_finished(lambda _match_id: wake.set())
    try:
        while True:
            wake.clear()
            timeout = poll_seconds
            try:
                while await claim(sessionmaker, consumer, handler, limit) >= limit:
                    pass
                if await undelivered(sessionmaker, consumer):  # skipped: locked by another claim
                    timeout = RETRY_SECONDS
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("result consumer failed", consumer=consumer)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), timeout)
    finally:
        unsubscribe()


async def undelivered(sessionmaker: async_sessionmaker[AsyncSession], consumer: str) -> bool:
    """Whether some result row is not yet delivered to ``consumer`` (read without locks)."""
    async with sessionmaker() as session:
        delivered = exists().where(ResultDelivery.consumer == consumer, ResultDelivery.result_id == MatchResult.id)
        return await session.scalar(select(MatchResult.id).where(~delivered).limit(1)) is not None
