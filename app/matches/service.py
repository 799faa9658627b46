"""The match service: the only place that combines rules, database, clock and randomness.

Every change to a match (a person's action, a bot's action, a timeout, joining, starting) goes
through one serial path, :meth:`MatchService._write`: take the per-match lock (and the row lock on
PostgreSQL), load the snapshot, apply through the pure driver (:func:`app.games.core.submit`), let
chance act, append the ``match_events`` rows, store the new snapshot with a compare-and-set on
``version``, commit, and only then publish. What was acknowledged to a client is committed.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from weakref import WeakValueDictionary

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from app.games.core import CHANCE, GameError, Outcome, bot_levels, get_rules
from app.games.core.errors import BadOptions
from app.logging import get_logger
from app.matches.clock import Clock
from app.matches.errors import MatchError
from app.matches.hub import LocalHub
from app.matches.models import ACTIVE, FINISHED, WAITING, Match, MatchEvent, MatchSeat
from app.matches.views import event_views, match_info, seat_of
from app.matches.write import SERVICE_OPTIONS, WriteContext, game_options, replay_rows
from app.settings import Settings

log = get_logger(__name__)

MIN_TURN_SECONDS = 2
MAX_TURN_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat the computer holds at ``level`` (``None``: the game's strongest)."""

    seat: int
    level: str | None = None


class MatchService:
    """Creates, joins, advances and reads matches.

    :param sessionmaker: async session factory.
    :param hub: where "match M reached version V" notices are published.
    :param settings: bot delay, clock tick.
    :param clock: the time source (a :class:`~app.matches.clock.FakeClock` in tests).
    """

    def __init__(
        self, sessionmaker: async_sessionmaker[AsyncSession], hub: LocalHub, *, settings: Settings, clock: Clock
    ) -> None:
        self.sessionmaker = sessionmaker
        self.hub = hub
        self.settings = settings
        self.clock = clock
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._worker: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._postgres = not settings.is_sqlite

    # ------------------------------------------------------------------ creating and joining

    async def create_match(
        self,
        user_id: int | None,
        game: str,
        options: Mapping[str, Any] | None = None,
        *,
        players: int | None = None,
        bots: Sequence[BotSeat] = (),
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Create a match; the creator (if any) takes ``seat`` (default: the first seat no bot holds).

        The match starts at once when every seat is held.

        :param options: service options (``turn_seconds``: 0 for untimed, only without computer
            seats; ``spectators``) and the game's own options.
        :returns: the public match info (:func:`app.matches.views.match_info`).
        :raises MatchError: ``bad_options`` for an unknown game, option, level, seat or count.
        """
        try:
            rules = get_rules(game)
        except BadOptions as exc:
            raise MatchError("bad_options", str(exc)) from None
        players = players or rules.min_players
        if not rules.min_players <= players <= rules.max_players:
            raise MatchError("bad_options", f"{game} is for {rules.min_players}-{rules.max_players} players")
        opts = self._normalize_options(rules, options or {}, has_bots=bool(bots))
        bot_by_seat: dict[int, str] = {}
        for b in bots:
            if not 0 <= b.seat < players or b.seat in bot_by_seat:
                raise MatchError("bad_options", f"bad computer seat {b.seat}")
            levels = bot_levels(game)
            level = b.level or (levels[-1] if levels else None)
            if level not in levels:
                raise MatchError("bad_options", f"unknown computer level {b.level!r}; {game} offers {levels}")
            bot_by_seat[b.seat] = level
        free = [s for s in range(players) if s not in bot_by_seat]
        if user_id is not None:
            if seat is None:
                if not free:
                    raise MatchError("bad_options", "every seat is a computer seat")
                seat = free[0]
            if seat not in free:
                raise MatchError("bad_options", f"seat {seat} is not free")
        now = self.clock.now()
        seed = secrets.token_hex(32)
        will_wait = any(s not in bot_by_seat and s != seat for s in range(players))
        async with self.sessionmaker() as session, session.begin():
            if will_wait and user_id is not None:
                open_count = await session.scalar(
                    select(func.count()).select_from(Match).where(Match.created_by == user_id, Match.status == WAITING)
                )
                if open_count >= self.settings.max_open_matches:
                    raise MatchError(
                        "too_many_matches",
                        f"you already have {open_count} matches waiting for players; cancel one first",
                    )
            m = Match(
                game=game, options=opts, num_players=players, status=WAITING, seed=seed,
                seed_hash=hashlib.sha256(seed.encode()).hexdigest(), version=0, state_version=0,
                state=None, pending={}, created_by=user_id, created_at=now,
            )
            m.seats = [
                MatchSeat(
                    seat=s, bot_level=bot_by_seat.get(s), user_id=user_id if s == seat else None,
                    joined_at=now if (s == seat or s in bot_by_seat) else None,
                )
                for s in range(players)
            ]
            session.add(m)
            await session.flush()
            match_id = m.id
        if all(s.user_id is not None or s.bot_level for s in m.seats):
            await self._write(match_id, self._start)
        return await self.get_match(match_id)

    def _normalize_options(self, rules: Any, options: Mapping[str, Any], has_bots: bool) -> dict[str, Any]:
        service = {k: options[k] for k in SERVICE_OPTIONS if k in options}
        game_opts = {k: v for k, v in options.items() if k not in SERVICE_OPTIONS}
        turn = service.get("turn_seconds", getattr(rules, "default_turn_seconds", SERVICE_OPTIONS["turn_seconds"]))
        if isinstance(turn, bool) or not isinstance(turn, int) or not (turn == 0 or MIN_TURN_SECONDS <= turn <= MAX_TURN_SECONDS):
            raise MatchError(
                "bad_options", f"turn_seconds must be 0 (untimed) or from {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}"
            )
        if turn == 0 and has_bots:
            raise MatchError("bad_options", "a match with computer seats must be timed (turn_seconds > 0)")
        spectators = service.get("spectators", True)
        if not isinstance(spectators, bool):
            raise MatchError("bad_options", "spectators must be true or false")
        try:
            game_opts = rules.normalize_options(game_opts)
        except GameError as exc:
            raise MatchError("bad_options", str(exc)) from None
        return {**game_opts, "turn_seconds": turn, "spectators": spectators}

    async def join(self, match_id: int, user_id: int) -> dict[str, Any]:
        """Take the first free seat of a waiting match; the match starts when every seat is held.

        :raises MatchError: ``not_found``, ``already_joined``, ``not_waiting``, ``match_full``.
        """

        async def take_seat(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            if any(s.user_id == user_id for s in m.seats):
                raise MatchError("already_joined", "you already hold a seat in this match")
            if m.status != WAITING:
                raise MatchError("not_waiting", "this match is not waiting for players")
            free = [s for s in m.seats if s.user_id is None and not s.bot_level]
            if not free:
                raise MatchError("match_full", "this match has no free seat")
            free[0].user_id = user_id
            free[0].joined_at = ctx.now
            if len(free) == 1:
                await self._start(session, m, ctx)

        await self._write(match_id, take_seat)
        return await self.get_match(match_id)

    async def cancel(self, match_id: int, user_id: int) -> dict[str, Any]:
        """Cancel a waiting match you created (status ``aborted``, reason ``cancelled``).

        :raises MatchError: ``not_found``, ``forbidden`` (not yours), ``not_waiting``.
        """

        async def do(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            if m.created_by != user_id:
                raise MatchError("forbidden", "only the player who created a match can cancel it")
            if m.status != WAITING:
                raise MatchError("not_waiting", "only a match still waiting for players can be cancelled")
            ctx.abort("cancelled")

        await self._write(match_id, do)
        return await self.get_match(match_id)

    # ------------------------------------------------------------------ acting

    async def act(
        self, match_id: int, user_id: int, action: Any, version: int | None, *, kind: str = "action"
    ) -> int:
        """Apply the action of the seat ``user_id`` holds.

        :param action: the JSON form of an action (one of the snapshot's ``legal`` objects).
        :param version: the version the client saw; refused with ``stale_version`` when the state
            has changed since (a hidden choice by another seat does not make it stale).
        :returns: the match version after the action (acknowledged = committed).
        :raises MatchError: ``not_found``, ``forbidden`` (no seat), ``bad_message``,
            ``illegal_action``, ``not_your_turn``, ``stale_version``, ``game_over``, ``not_started``.
        """

        async def do(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            seat = seat_of(m, user_id)
            if seat is None:
                raise MatchError("forbidden", "you hold no seat in this match")
            self._check_active(m)
            if version is not None and (version < m.state_version or version > m.version):
                raise MatchError("stale_version", f"the match is at version {m.version}; you sent {version}")
            ms = m.seats[seat]
            ms.timeouts_in_row = 0
            ms.away, ms.away_since = False, None
            ctx.apply(seat, ctx.decode(action), kind)

        return await self._write(match_id, do)

    async def set_back(self, match_id: int, user_id: int) -> int:
        """"I'm back": clear the ``away`` mark of the seat ``user_id`` holds and restart its clock.

        :raises MatchError: ``not_found``, ``forbidden``, ``game_over``.
        """

        async def do(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            seat = seat_of(m, user_id)
            if seat is None:
                raise MatchError("forbidden", "you hold no seat in this match")
            self._check_active(m)
            ms = m.seats[seat]
            if ms.away:
                ms.away, ms.away_since = False, None
                ms.timeouts_in_row = 0
                ms.deadline_at = None  # recomputed from now
                ctx.record(seat, "back", None, None, [])

        return await self._write(match_id, do)

    async def resign(self, match_id: int, user_id: int) -> int:
        """Resign the seat ``user_id`` holds: that seat loses, every other seat wins (two
        players) or draws among themselves (more players). Recorded as a ``resign`` event.

        :raises MatchError: ``not_found``, ``forbidden``, ``game_over``, ``not_started``.
        """

        async def do(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            seat = seat_of(m, user_id)
            if seat is None:
                raise MatchError("forbidden", "you hold no seat in this match")
            self._check_active(m)
            others = "win" if m.num_players == 2 else "draw"
            results = tuple("loss" if s == seat else others for s in range(m.num_players))
            ctx.record(seat, "resign", None, None, [])
            ctx.forced_outcome = Outcome(results=results, reason="resigned")

        return await self._write(match_id, do)

    def _check_active(self, m: Match) -> None:
        if m.status == FINISHED:
            raise MatchError("game_over", "the match is over")
        if m.status != ACTIVE:
            raise MatchError("not_started", "the match has not started")

    # ------------------------------------------------------------------ the single writer

    def _lock(self, match_id: int) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock

    async def _write(
        self,
        match_id: int,
        body: Callable[[AsyncSession, Match, WriteContext], Awaitable[None]],
        *,
        skip_locked: bool = False,
    ) -> int:
        """Run ``body`` on the locked match, then store what it did. The one serial path.

        :param skip_locked: on PostgreSQL, return ``-1`` at once when another process holds the row.
        :returns: the new version.
        :raises MatchError: ``not_found``, or whatever ``body`` raised (nothing is stored then).
        """
        async with self._lock(match_id):
            async with self.sessionmaker() as session, session.begin():
                stmt = select(Match).where(Match.id == match_id)
                if self._postgres:
                    stmt = stmt.with_for_update(skip_locked=skip_locked)
                else:  # SQLite has no row locks: take the database write lock before reading
                    await session.execute(
                        update(Match).where(Match.id == match_id).values(deadline_at=Match.deadline_at)
                    )
                m = (await session.execute(stmt)).scalar_one_or_none()
                if m is None:
                    if skip_locked:
                        return -1
                    raise MatchError("not_found", f"no match {match_id}")
                ctx = WriteContext(m, self.clock.now(), self.settings)
                await body(session, m, ctx)
                if not ctx.changed:
                    return m.version
                ctx.finish()
                session.add_all(ctx.rows)
                try:
                    await session.flush()
                except (StaleDataError, IntegrityError):  # another writer got there first
                    raise MatchError("stale_version", "the match changed meanwhile; try again") from None
            new_version = m.version
        await self.hub.publish(match_id, new_version)
        if ctx.next_deadline is not None and self._worker is not None:
            self._wake.set()
            if ctx.next_deadline <= self.clock.now():  # a computer move due now: play it at once
                self._spawn(self.process_match(match_id))
        return new_version

    async def _start(self, session: AsyncSession, m: Match, ctx: WriteContext | None = None) -> None:
        """Deal the game: initial state, the ``start`` event with the seed's hash, chance."""
        ctx = ctx or WriteContext(m, self.clock.now(), self.settings)
        ctx.state = ctx.rules.initial_state(m.num_players, game_options(m))
        ctx.pending = {}
        m.status = ACTIVE
        m.started_at = ctx.now
        ctx.record(None, "start", None, None, [], extra={"seed_hash": m.seed_hash})
        ctx.state_changed = True

    # ------------------------------------------------------------------ clocks, bots and timeouts

    async def start_workers(self) -> None:
        """Start the background sweeper that plays due bot seats and overdue seats."""
        if self._worker is None:
            self._worker = asyncio.create_task(self._run_worker())

    async def stop_workers(self) -> None:
        """Stop the sweeper and wait for spawned tasks."""
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except asyncio.CancelledError:
                pass
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
        while True:
            try:
                await self.process_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("clock sweep failed")
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), self.settings.clock_tick_seconds)
            except TimeoutError:
                pass

    async def process_due(self, limit: int = 50) -> int:
        """Play every seat whose deadline has passed: bot seats, away seats, and timeouts.

        Safe with several processes on one PostgreSQL database: each overdue match is locked with
        ``FOR UPDATE SKIP LOCKED`` and re-checked under the lock, so it is handled exactly once.

        :returns: how many matches were advanced.
        """
        now = self.clock.now()
        async with self.sessionmaker() as session:
            ids = (
                await session.execute(
                    select(Match.id)
                    .where(Match.status == ACTIVE, Match.deadline_at <= now)
                    .order_by(Match.deadline_at)
                    .limit(limit)
                )
            ).scalars().all()
        done = 0
        for match_id in ids:
            if await self.process_match(match_id, skip_locked=True) > 0:
                done += 1
        return done + await self.expire_waiting()

    async def expire_waiting(self) -> int:
        """Abort waiting matches older than ``waiting_expiry_seconds``. :returns: how many."""
        cutoff = self.clock.now() - timedelta(seconds=self.settings.waiting_expiry_seconds)
        async with self.sessionmaker() as session:
            ids = (
                await session.execute(
                    select(Match.id).where(Match.status == WAITING, Match.created_at <= cutoff).limit(100)
                )
            ).scalars().all()
        expired = 0

        async def do(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            nonlocal expired
            if m.status == WAITING and m.created_at <= cutoff:  # re-checked under the lock
                ctx.abort("expired")
                expired += 1

        for match_id in ids:
            await self._write(match_id, do, skip_locked=True)
        return expired

    async def process_match(self, match_id: int, *, skip_locked: bool = False) -> int:
        """Play the due seats of one match (under its lock). :returns: seats played."""
        moves: list[tuple[int, str, int]] = []

        async def do(session: AsyncSession, m: Match, ctx: WriteContext) -> None:
            if m.status != ACTIVE:
                return
            if ctx.abandoned():
                ctx.record(None, "abandoned", None, None, [])
                ctx.forced_outcome = Outcome(results=("draw",) * m.num_players, reason="abandoned")
                return
            for _ in range(64):  # one seat at a time until nothing is due
                due = ctx.due_seat()
                if due is None:
                    return
                seat, kind = due
                version = ctx.apply(seat, ctx.computer_action(seat, kind), kind)
                moves.append((seat, kind, version))
                if kind == "timeout":
                    ms = m.seats[seat]
                    ms.timeouts_in_row += 1
                    if ms.timeouts_in_row >= 2 and not ms.away:
                        ms.away = True
                        ms.away_since = ctx.now
                if m.status != ACTIVE or ctx.state_changed:
                    return  # new deadlines are set from now on; a later sweep plays on

        try:
            await self._write(match_id, do, skip_locked=skip_locked)
        except MatchError as exc:
            if exc.code != "stale_version":
                raise
            return 0
        for seat, kind, version in moves:  # logged once committed
            log.info("computer_move", match_id=match_id, seat=seat, kind=kind, version=version, pid=os.getpid())
        return len(moves)

    # ------------------------------------------------------------------ reading

    async def get_match(self, match_id: int) -> dict[str, Any]:
        """Public info of a match (no hidden information).

        :raises MatchError: ``not_found``.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise MatchError("not_found", f"no match {match_id}")
            return match_info(m, self.clock.now())

    async def list_matches(
        self, status: str | None = WAITING, game: str | None = None, user_id: int | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Matches by status (default: waiting for players), newest first; ``user_id`` keeps
        those where that user holds a seat."""
        stmt = select(Match).order_by(Match.id.desc()).limit(limit)
        if status:
            stmt = stmt.where(Match.status == status)
        if game:
            stmt = stmt.where(Match.game == game)
        if user_id is not None:
            stmt = stmt.where(Match.seats.any(MatchSeat.user_id == user_id))
        async with self.sessionmaker() as session:
            now = self.clock.now()
            return [match_info(m, now) for m in (await session.execute(stmt)).scalars().all()]

    async def viewer_seat(self, match_id: int, user_id: int | None) -> tuple[int | None, bool]:
        """``(seat, spectators_allowed)`` for ``user_id`` in a match.

        :raises MatchError: ``not_found``.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise MatchError("not_found", f"no match {match_id}")
            return seat_of(m, user_id), bool(m.options.get("spectators", True))

    async def events(self, match_id: int, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events after version ``since`` as ``viewer`` may see them (see
        :func:`app.matches.views.event_views`)."""
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise MatchError("not_found", f"no match {match_id}")
            rows = await self._rows(session, match_id, since)
            return event_views(rows, viewer, m.status == FINISHED)

    async def _rows(self, session: AsyncSession, match_id: int, since: int = 0) -> Sequence[MatchEvent]:
        stmt = (
            select(MatchEvent)
            .where(MatchEvent.match_id == match_id, MatchEvent.version > since)
            .order_by(MatchEvent.version)
        )
        return (await session.execute(stmt)).scalars().all()

    async def snapshot(self, match_id: int, viewer: int | None, since: int = 0) -> dict[str, Any]:
        """The ``snapshot`` frame of DESIGN.md section 4 for ``viewer`` (a seat or ``None``).

        :returns: ``{"type": "snapshot", "match_id", "version", "seat", "status", "view", "to_act",
            "chosen", "legal", "clock", "events", "result", "seed_hash", "seed"?, "seats"}``.
        :raises MatchError: ``not_found``.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise MatchError("not_found", f"no match {match_id}")
            rows = await self._rows(session, match_id, since)
            now = self.clock.now()
            rules = get_rules(m.game)
            info = match_info(m, now)
            frame: dict[str, Any] = {
                "type": "snapshot", "match_id": m.id, "game": m.game, "version": m.version,
                "seat": viewer, "status": m.status, "view": None, "to_act": [], "chosen": [],
                "legal": [], "clock": info["clock"], "events": event_views(rows, viewer, m.status == FINISHED),
                "result": m.result, "seed_hash": m.seed_hash, "seats": info["seats"],
            }
            if m.status == FINISHED:
                frame["seed"] = m.seed
            if m.state is not None:
                state = rules.decode_state(m.state)
                frame["view"] = rules.observe(state, viewer)
                if m.status == ACTIVE:
                    to_act = sorted(s for s in rules.to_act(state) if s != CHANCE)
                    chosen = sorted(int(s) for s in m.pending)
                    frame["to_act"], frame["chosen"] = to_act, chosen
                    if viewer is not None and viewer in to_act and viewer not in chosen:
                        frame["legal"] = [rules.encode_action(a) for a in rules.legal_actions(state, viewer)]
            return frame

    async def replay(self, match_id: int) -> dict[str, Any]:
        """Every step of a finished match, all revealed: ``{"match", "steps": [{"version", "kind",
        "seat", "action", "events", "view"}]}`` where ``view`` is the spectator view after the step.

        :raises MatchError: ``not_found``; ``not_finished`` while the match is running.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise MatchError("not_found", f"no match {match_id}")
            if m.status != FINISHED:
                raise MatchError("not_finished", "the replay opens when the match is over")
            rows = await self._rows(session, match_id)
            info = match_info(m, self.clock.now())
        rules = get_rules(m.game)
        views = event_views(rows, None, True)
        steps = [{**view, "view": rules.observe(state, None)} for view, (state, _) in zip(views, replay_rows(m, rows))]
        return {"match": info, "steps": steps}

    async def rebuild(self, match_id: int) -> Any:
        """Rebuild the engine state by replaying ``match_events`` (needs no RNG).

        :returns: ``(state, pending)`` as game values; equal to the stored snapshot.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise MatchError("not_found", f"no match {match_id}")
            rows = await self._rows(session, match_id)
        state, pending = get_rules(m.game).initial_state(m.num_players, game_options(m)), {}
        for state, pending in replay_rows(m, rows):
            pass
        return state, pending
