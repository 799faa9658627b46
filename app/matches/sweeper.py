"""Clocks and computer moves: the sweeper that plays overdue seats, computer seats and seats whose
players resigned, expires waiting matches and ends abandoned ones.

A computer move is chosen off the match lock, off the database transaction and off the event loop
(issue 8, item 6), in three steps:

1. **Claim** (a short transaction, :meth:`ComputerSeats._claim`): lock the match row (``FOR UPDATE
   SKIP LOCKED`` on PostgreSQL, the write lock on SQLite), check a seat is due, build its
   :class:`~app.matches.bots.BotJob` (the seat's bot observation and legal actions, an rng seed
   derived from the match seed, the version and the seat), and move ``matches.deadline_at`` to the
   end of a lease (``BOT_TIMEOUT_SECONDS``), so other sweepers, in this process or another, skip
   the match while this one thinks. Commit.
2. **Think**: a worker of the :class:`~app.matches.bots.BotRunner` chooses the action.
3. **Play**: submit it through the single writer (:meth:`MatchService._write`) after checking,
   under the lock, that the engine state is still the one read (``state_version``; a hidden choice
   of another seat does not change it) and that the seat is still due. If the match moved on, the
   move is dropped and the sweeper claims again, and chooses again (at most
   :data:`MAX_REPLANS` times in a row). Any write resets ``deadline_at``, ending the lease; a
   process that dies while thinking leaves a lease that expires, and a later sweep plays the seat.

So each computer move is stored exactly once whatever the number of processes (the check under
the lock), and is usually thought about once (the lease).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import DomainError
from app.games.core import GameError, Outcome, all_games
from app.logging import get_logger
from app.matches import heartbeat
from app.matches.bots import BotJob, BotRunner
from app.matches.clock import Clock
from app.matches.models import ACTIVE, WAITING, Match
from app.matches.write import AnyMatch, WriteContext, game_options, lock_match
from app.settings import Settings

log = get_logger(__name__)

#: computer moves one call of :meth:`ComputerSeats.process_match` plays at most
MAX_MOVES = 64
#: times in a row a computer move is chosen again because the match moved on while it thought
MAX_REPLANS = 3

WriteBody = Callable[[AnyMatch, WriteContext], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Plan:
    """A claimed computer move: ``seat`` plays as ``kind`` from the state at ``state_version``;
    ``job`` is what the worker gets. ``abandon``: end the match as abandoned instead."""

    seat: int = -1
    kind: str = ""
    state_version: int = 0
    job: BotJob | None = None
    abandon: bool = False


def bot_job(ctx: WriteContext, seat: int, kind: str, budget_ms: int) -> BotJob:
    """The :class:`BotJob` for the computer to play ``seat`` of ``ctx``'s match now.

    A computer seat (``kind == "bot"`` with a level) gets its bot, from the seat's bot observation;
    a person's seat (timeout, away, resigned) gets the game's timeout policy.
    """
    m = ctx.m
    rules = ctx.rules
    level = m.seats[seat].bot_level if kind == "bot" else None
    return BotJob(
        game=m.game,
        options=game_options(m),
        seat=seat,
        level=level,
        observation=rules.bot_observation(ctx.state, seat) if level else {},
        legal=[rules.encode_action(a) for a in rules.legal_actions(ctx.state, seat)] if level else [],
        rng_seed=hashlib.sha256(f"{m.seed}:bot:{m.version}:{seat}".encode()).digest(),
        budget_ms=budget_ms,
        state=None if level else rules.encode_state(ctx.state),
    )


class ComputerSeats:
    """The sweeper's half of :class:`~app.matches.service.MatchService`."""

    sessionmaker: async_sessionmaker[AsyncSession]
    background: async_sessionmaker[AsyncSession]
    settings: Settings
    clock: Clock
    bots: BotRunner
    _postgres: bool
    _worker: asyncio.Task[None] | None
    _wake: asyncio.Event
    _tasks: set[asyncio.Task[Any]]
    _lock: Callable[[int], asyncio.Lock]
    _write: Callable[..., Awaitable[int]]

    async def start_workers(self) -> None:
        """Load every game (before the server answers, not during its first request), start the bot
        workers in the background (after the games, so the imports do not compete), and start the
        sweeper that plays due bot seats and overdue seats."""
        if self._worker is None:
            all_games()
            self.bots.start()
            self._worker = asyncio.create_task(self._run_worker())

    async def stop_workers(self) -> None:
        """Stop the sweeper and wait for spawned tasks (the bot pool lives as long as the process:
        see :mod:`app.matches.bots`)."""
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def drain(self) -> None:
        """Wait until the computer moves spawned so far (and those they spawn) are done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("computer move failed", exc_info=task.exception())

    async def _run_worker(self) -> None:
        """Move deadlines by the downtime (:func:`~app.matches.heartbeat.recover`), then sweep
        every ``clock_tick_seconds`` (or when woken), with a heartbeat every few seconds."""
        try:
            await heartbeat.recover(self.background, self.clock.now(), postgres=self._postgres)
        except Exception:
            log.exception("moving deadlines by the downtime failed")
        last_beat = self.clock.now()
        while True:
            now = self.clock.now()
            if (now - last_beat).total_seconds() >= heartbeat.HEARTBEAT_SECONDS:
                try:
                    await heartbeat.beat(self.background, now, postgres=self._postgres)
                    last_beat = now
                except Exception:
                    log.exception("heartbeat failed")
            try:
                await self.process_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock sweep failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.settings.clock_tick_seconds)

    async def process_due(self, limit: int = 50) -> int:
        """Play every seat whose deadline has passed: bot seats, away and resigned seats, and
        timeouts; then expire waiting matches.

        Safe with several processes on one database: see the module docstring. A match whose
        computer move fails (a bot that overran ``bot_timeout_seconds``, a dead worker) is logged
        and tried again once its lease ends; the other matches go on.

        :returns: how many matches were advanced or expired.
        """
        now = self.clock.now()
        async with self.background() as session:
            ids = (
                (
                    await session.execute(
                        select(Match.id)
                        .where(Match.status == ACTIVE, Match.deadline_at <= now)
                        .order_by(Match.deadline_at)
                        .limit(limit)
                    )
                )
                .scalars()
                .all()
            )
        done = 0
        for match_id in ids:
            try:
                if await self.process_match(match_id, skip_locked=True) > 0:
                    done += 1
            except (TimeoutError, BrokenProcessPool, GameError, DomainError):  # the others go on
                log.exception("computer move failed", match_id=match_id)
        return done + await self.expire_waiting()

    async def expire_waiting(self) -> int:
        """Abort waiting matches older than ``waiting_expiry_seconds``. :returns: how many."""
        cutoff = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry_seconds)
        async with self.background() as session:
            ids = (
                (
                    await session.execute(
                        select(Match.id).where(Match.status == WAITING, Match.created_at <= cutoff).limit(100)
                    )
                )
                .scalars()
                .all()
            )
        expired = 0

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            nonlocal expired
            if m.status == WAITING and m.created_at <= cutoff:  # re-checked under the lock
                ctx.abort("expired")
                expired += 1

        for match_id in ids:
            await self._write(match_id, do, skip_locked=True, background=True)
        return expired

    async def process_match(self, match_id: int, *, skip_locked: bool = False) -> int:
        """Play the seats of one match that the computer must play now, one move at a time, until
        none is due or the engine state changed (new deadlines then start from now; a later sweep
        plays on). Ends the match as abandoned when every person in it has been away too long.

        :param skip_locked: on PostgreSQL, give up at once when another transaction holds the row.
        :returns: the moves played (an abandonment counts as one).
        :raises TimeoutError: a bot did not answer within ``bot_timeout_seconds``.
        """
        played = replans = 0
        while played < MAX_MOVES:
            plan = await self._claim(match_id, skip_locked)
            if plan is None:
                break
            if plan.abandon:
                played += await self._abandon(match_id)
                break
            assert plan.job is not None
            action = await self.bots.choose(plan.job)
            result = await self._play(match_id, plan, action)
            if result is None:  # the match moved on while the computer thought: choose again
                replans += 1
                if replans > MAX_REPLANS:
                    break
                continue
            played, replans = played + 1, 0
            version, state_changed, active = result
            log.info(
                "computer_move", match_id=match_id, seat=plan.seat, kind=plan.kind, version=version, pid=os.getpid()
            )
            if state_changed or not active:
                break
        return played

    async def _claim(self, match_id: int, skip_locked: bool) -> Plan | None:
        """Step 1: find the seat due now and take the lease. :returns: ``None`` when nothing is
        due, the match is leased or (``skip_locked``) locked elsewhere."""
        now = self.clock.now()
        async with self._lock(match_id), self.background() as session, session.begin():
            m = await lock_match(session, match_id, postgres=self._postgres, skip_locked=skip_locked)
            if m is None or m.status != ACTIVE or m.deadline_at is None or m.deadline_at > now:
                return None
            ctx = WriteContext(m, now, self.settings)
            if ctx.abandoned():
                return Plan(abandon=True)
            due = ctx.due_seat()
            if due is None:
                return None
            seat, kind = due
            job = bot_job(ctx, seat, kind, self.settings.bot_budget_ms)
            lease = now + timedelta(seconds=self.settings.bot_timeout_seconds)
            await session.execute(
                update(Match).where(Match.id == match_id, Match.version == m.version).values(deadline_at=lease)
            )
            return Plan(seat, kind, m.state_version, job)

    async def _play(self, match_id: int, plan: Plan, action: Any) -> tuple[int, bool, bool] | None:
        """Step 3: store the chosen action if the seat is still due at the state it was chosen for.

        :returns: ``(version of the move, whether the engine state changed, whether the match is
            still active)``, or ``None`` when the match moved on (nothing stored).
        """
        played: list[tuple[int, WriteContext]] = []

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            if m.state_version != plan.state_version or ctx.due_kind(plan.seat) != plan.kind:
                return
            played.append((ctx.apply(plan.seat, ctx.decode(action), plan.kind), ctx))
            ms = m.seats[plan.seat]
            if plan.kind == "timeout":
                ms.timeouts_in_row += 1
                if ms.timeouts_in_row >= 2 and not ms.away:
                    ms.away = True
                    ms.away_since = ctx.now

        try:
            await self._write(match_id, do, background=True)
        except DomainError as exc:
            if exc.code != "stale_version":
                raise
            return None
        if not played:
            return None
        version, ctx = played[0]
        return version, ctx.state_changed, ctx.m.status == ACTIVE

    async def _abandon(self, match_id: int) -> int:
        """End the match as abandoned if, under the lock, every person is still away too long
        (every seat draws). :returns: 1 if it ended."""
        ended: list[bool] = []

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            if m.status == ACTIVE and ctx.abandoned():
                ctx.record(None, "abandoned", None, None, [])
                ctx.forced_outcome = Outcome(results=("draw",) * m.num_players, reason="abandoned")
                ended.append(True)

        await self._write(match_id, do, background=True)
        return len(ended)
