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
    (oldest first, among the newest rows unless the claim is full; on PostgreSQL each under an
    advisory lock keyed by consumer and row, taken without waiting, so concurrent claimers of one
    consumer in several processes take different rows while other consumers' claims are not in
    their way; the database write lock on SQLite), records a ``result_deliveries`` row for each
    (unique per consumer, match and seat), calls the handler with the rows it won, and commits. If
    the handler raises, nothing is recorded and the rows are offered again. A row is therefore applied exactly once per consumer, whatever the number of
    processes, restarts and crashes. Rows of one match come together when ``limit`` allows (a
    handler that needs every seat of a match, as a rating update does, gets them in one call unless
    a match has more seats than ``limit``; it can check ``len(rows)`` against the match).

    :func:`consume_forever` runs ``claim`` in a loop: soon after the hub says a match finished
    (the rows past the consumer's floor, the finishes of a quarter second together), and a full
    claim at start and every ``poll_seconds`` (the safety net for a notice lost while a process
    was down, or a row committed late). Start it beside the service (``asyncio.create_task``) and
    cancel it on shutdown.

    What counts is the consumer's choice: ``matches.origin`` (``casual``, ``rated``, ``challenge``,
    ``tournament``) and ``origin_ref`` tell where the match comes from, and each row says whether
    the computer finished the seat (``computer_finished``) or held it (``user_id`` null).
"""

from __future__ import annotations

import asyncio
import contextlib
import zlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime

from sqlalchemy import BigInteger, Integer, Select, String, bindparam, false, func, literal, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.games.core import Outcome
from app.logging import get_logger
from app.matches.hub import LocalHub
from app.matches.models import Match, MatchResult, ResultDelivery
from app.matches.store import MatchRecord

log = get_logger(__name__)

#: rows a PostgreSQL claim considers per row it may take: enough to look past the rows that other
#: claims of the same consumer hold at the moment
CANDIDATES_PER_ROW = 4

#: how far below the newest row a consumer applied a claim after a wake-up still looks (rows of
#: ``match_results``): far more than can finish while one match's end commits, so a row is missed
#: by such a claim only if its transaction stayed open through thousands of others' (the full
#: claim every ``poll_seconds`` then applies it)
FLOOR_WINDOW = 1_000
#: a window that puts the floor below every row: a full claim
FULL_SCAN = 2**62
#: seconds between a consumer loop's full claims when its own poll is shorter (the tournament
#: runner wakes every few seconds for its start times; a full claim reads every row ever written)
FULL_CLAIM_SECONDS = 30.0

#: seconds a consumer leaves between the starts of two claims when matches keep finishing: the
#: finishes of that interval are applied in one claim (one transaction, a handful of statements)
#: instead of one claim each. A finish after a quiet spell is claimed at once, so a rating or a
#: ladder moves at most this long after the end only when matches end more often than this.
#: Measured with the load tool (Battle Runes, 20 matches, think 0: 20-26 matches end per second):
#: claiming per finish cost about a fifth of the server's CPU (docs/performance.md, item 7); every
#: 0.25 s, the four consumers' claims were still 10 % of the event loop's time; every second, 2.5 %.
BATCH_SECONDS = 1.0

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
    sessionmaker: async_sessionmaker[AsyncSession],
    consumer: str,
    handler: Handler,
    limit: int = 100,
    *,
    full: bool = True,
) -> int:
    """Apply up to ``limit`` result rows that ``consumer`` has not applied yet, exactly once.

    :param consumer: the consumer's name (at most 40 characters), e.g. ``"ratings"``.
    :param handler: called with the claimed rows (ordered by match, then seat) and the open
        session, inside the transaction that records their delivery; not called when none is due.
    :param full: look at every row ever written (True), or only at the rows newer than the floor:
        the newest row this consumer applied, less :data:`FLOOR_WINDOW` rows (False; what a wake-up
        after a finish does, so a claim costs the same with a thousand rows or ten million). A row
        below the floor that was missed (its transaction committed very late, or its handler kept
        failing) is found by the next full claim, which :func:`consume_forever` makes every
        ``poll_seconds``.
    :returns: how many rows were delivered (0 when none was due).
    :raises Exception: whatever ``handler`` raised (nothing is recorded then).
    """
    window = FULL_SCAN if full else FLOOR_WINDOW
    async with sessionmaker() as session, session.begin():
        postgres = session.get_bind().dialect.name == "postgresql"
        if postgres:  # one statement: the candidates past the floor, locked without waiting
            params = {
                "consumer": consumer,
                "window": window,
                "candidates": limit * CANDIDATES_PER_ROW,
                "limit": limit,
                "key": consumer_lock_key(consumer),
            }
            candidates = (await session.execute(_CLAIM_POSTGRES, params)).scalars().all()
        else:  # SQLite: take the write lock before reading, as the match writer does
            await session.execute(update(ResultDelivery).where(false()).values(consumer=ResultDelivery.consumer))
            params = {"consumer": consumer, "window": window, "limit": limit}
            candidates = (await session.execute(_CLAIM_SQLITE, params)).scalars().all()
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


def consumer_lock_key(consumer: str) -> int:
    """The first key of the advisory locks of ``consumer``'s claims on PostgreSQL (a signed
    32-bit number, stable across processes: CRC-32 of the name)."""
    return zlib.crc32(consumer.encode()) - 2**31


def _claim_statements() -> tuple[Select[MatchResult], Select[MatchResult]]:
    """The claim's reads, built once (``:consumer``, ``:window``, ``:limit``; PostgreSQL also
    ``:candidates`` and ``:key``).

    The floor: the newest row the consumer applied less ``:window`` (an index-only look at
    ``(consumer, result_id)``). The undelivered rows past it, oldest first, are the candidates.
    On PostgreSQL the first ``:limit`` candidates that no other claim of the consumer holds are
    locked, each with a transaction-level advisory lock keyed ``(consumer, row)`` taken without
    waiting: claims of one consumer in several processes take different rows, and other
    consumers' claims are not in their way (a ``FOR UPDATE SKIP LOCKED`` on ``match_results``
    would make every consumer skip the rows another consumer is applying). The lock function is
    volatile, so PostgreSQL evaluates the ``mine`` CTE on its own and stops at ``:limit``.

    ``OFFSET 0`` keeps PostgreSQL's "not delivered" check a probe of the index per row past the
    floor: without it the planner, not knowing the floor when it plans, turned it into a hash
    anti-join over every delivery of the consumer (measured with 1,000,000 rows: 1.0 s a claim
    that way, 10-20 ms with the probe; the claim before the floor took 2.6 s)."""
    rd, mr = ResultDelivery.__table__, MatchResult.__table__
    consumer = bindparam("consumer", type_=String)
    floor = (
        select(func.coalesce(func.max(rd.c.result_id), 0) - bindparam("window", type_=BigInteger))
        .where(rd.c.consumer == consumer)
        .scalar_subquery()
    )
    delivered = select(literal(1)).where(rd.c.consumer == consumer, rd.c.result_id == mr.c.id)
    sqlite_stmt = (
        select(MatchResult)
        .where(MatchResult.id > floor, ~delivered.exists())
        .order_by(MatchResult.id)
        .limit(bindparam("limit", type_=Integer))
    )
    candidates = (
        select(mr.c.id)
        .where(mr.c.id > floor, ~delivered.offset(0).exists())
        .order_by(mr.c.id)
        .limit(bindparam("candidates", type_=Integer))
        .subquery("candidates")
    )
    mine = (
        select(candidates.c.id)
        .where(func.pg_try_advisory_xact_lock(bindparam("key", type_=Integer), candidates.c.id))
        .limit(bindparam("limit", type_=Integer))
        .cte("mine")
    )
    postgres_stmt = select(MatchResult).where(MatchResult.id.in_(select(mine.c.id))).order_by(MatchResult.id)
    return postgres_stmt, sqlite_stmt


_CLAIM_POSTGRES, _CLAIM_SQLITE = _claim_statements()


async def consume_forever(
    sessionmaker: async_sessionmaker[AsyncSession],
    hub: LocalHub,
    consumer: str,
    handler: Handler,
    *,
    poll_seconds: float = 30.0,
    limit: int = 100,
    batch_seconds: float = BATCH_SECONDS,
) -> None:
    """Run :func:`claim` for ``consumer`` until cancelled: when the hub announces a finished match
    (rows past the floor, at most once per ``batch_seconds``, so a busy server applies many
    finishes per claim), and a full claim at start and every ``poll_seconds`` in any case (the
    safety net for a notice lost while a process was down). A failing handler is logged and
    retried at the next wake-up.
    """
    wake = asyncio.Event()
    unsubscribe = hub.subscribe_finished(lambda _match_id: wake.set())
    cadence = Cadence(batch_seconds, poll_seconds)
    try:
        while True:
            full = await cadence.next_pass()
            wake.clear()
            try:
                await claim_all(sessionmaker, consumer, handler, limit, full=full)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("result consumer failed", consumer=consumer)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), cadence.until_full())
    finally:
        unsubscribe()


async def claim_all(
    sessionmaker: async_sessionmaker[AsyncSession], consumer: str, handler: Handler, limit: int = 100, *, full: bool
) -> int:
    """:func:`claim` until a claim takes fewer than ``limit`` rows. :returns: rows delivered."""
    total = 0
    while (n := await claim(sessionmaker, consumer, handler, limit, full=full)) > 0:
        total += n
        if n < limit:
            break
    return total


class Cadence:
    """When a consumer's loop claims, and how: passes start at least ``batch_seconds`` apart
    (matches that finish meanwhile are applied together), and a pass is full (every row, not only
    those past the floor: :func:`claim`'s ``full``) at the first and then every ``full_seconds``.
    Times are the event loop's clock (seconds)."""

    def __init__(self, batch_seconds: float, full_seconds: float) -> None:
        self.batch_seconds, self.full_seconds = batch_seconds, full_seconds
        self._last: float | None = None
        self._last_full: float | None = None

    async def next_pass(self) -> bool:
        """Wait until the next pass may start; :returns: whether it is a full one."""
        loop = asyncio.get_running_loop()
        if self._last is not None and (delay := self._last + self.batch_seconds - loop.time()) > 0:
            await asyncio.sleep(delay)
        self._last = now = loop.time()
        if self._last_full is None or now - self._last_full >= self.full_seconds:
            self._last_full = now
            return True
        return False

    def until_full(self) -> float:
        """Seconds until the next full pass is due (0 when it is due now)."""
        if self._last_full is None:
            return 0.0
        return max(0.0, self._last_full + self.full_seconds - asyncio.get_running_loop().time())
