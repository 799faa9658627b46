"""The match service: the only place that combines rules, database, clock and randomness.

Every change to a match (a person's action, a computer move, a timeout, joining, starting,
resigning) goes through one serial path, :meth:`MatchService._write`: take the per-match lock
(waiting holds no database connection and is bounded: ``busy`` after
``match_lock_wait_seconds``), lock the row in the database, take the match as it is (this
process's cached :class:`~app.matches.live.LiveMatch` when the stored version is the cached one,
else the ORM's load), apply through the pure driver (:func:`app.games.core.submit`) with the
match's variant's rules, let chance act, append the ``match_events`` rows, store the changed
columns with a compare-and-set on ``version`` (:mod:`app.matches.store`), and, when the match ends,
its ``match_results`` rows (:mod:`app.matches.results`); commit, keep the new version in the
cache, and only then publish (the new version, and "match finished" for result consumers). What
was acknowledged to a client is committed.

The service is split by concern: this module (creating, joining, acting, resigning, the writer),
:mod:`app.matches.store` (the writer's statements), :mod:`app.matches.sweeper` (clocks and
computer moves, chosen in a worker off the lock and off the event loop: :mod:`app.matches.bots`),
:mod:`app.matches.live` (what each match looks like now, per process) and
:mod:`app.matches.reads` (snapshots from it, replays, results).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from weakref import WeakValueDictionary

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.util import greenlet_spawn

from app.errors import DomainError, busy
from app.games.core import GameError, bot_levels, get_rules
from app.games.core.errors import BadOptions
from app.games.core.levels import DEFAULT_DIFFICULTY, DIFFICULTIES, difficulty_levels
from app.logging import get_logger
from app.matches.bots import BotRunner
from app.matches.clock import Clock
from app.matches.hub import LocalHub
from app.matches.insert import insert_match
from app.matches.live import LiveMatch, LiveMatches, StoredEvent
from app.matches.models import ACTIVE, CASUAL, CHALLENGE, FINISHED, RATED, TOURNAMENT, WAITING, Match, MatchSeat
from app.matches.reads import MatchReads
from app.matches.store import (
    AsyncpgStatements,
    CoreStatements,
    MatchRecord,
    copy_record,
    fits_one_statement,
    lock_version,
    store,
    store_in_one_statement,
)
from app.matches.sweeper import ComputerSeats
from app.matches.time_control import normalize_time_control
from app.matches.views import seat_of
from app.matches.write import SERVICE_OPTIONS, AnyMatch, WriteContext, game_options
from app.settings import Settings
from app.users.service import lock_user

log = get_logger(__name__)


@dataclass(frozen=True, slots=True)
class BotSeat:
    """A seat the computer holds at ``level`` (``None``: the game's strongest)."""

    seat: int
    level: str | None = None


def new_match(
    game: str,
    options: Mapping[str, Any],
    players: int,
    users: Mapping[int, int],
    bots: Mapping[int, str] | None = None,
    *,
    created_by: int | None,
    now: datetime,
    origin: str | None = None,
    origin_ref: str | None = None,
) -> Match:
    """A new waiting :class:`Match` (not yet added to a session) with a fresh secret seed: the
    one way every match is built, by :meth:`MatchService.create_match` and by features that add
    matches with every seat taken in a transaction of their own (a rematch with its accepted
    offer, :mod:`app.matches.rematch`; a tournament's round, :mod:`app.tournaments.runner`),
    which start them after their commit with :meth:`MatchService.start_waiting`.

    :param options: normalized options (:meth:`MatchService._normalize_options`, or checked by
        :meth:`MatchService.check_options`); copied.
    :param players: the number of seats.
    :param users: seat -> the user id holding it; ``bots``: seat -> computer level; the other
        seats are free (joined later). A held seat's ``joined_at`` is ``now``.
    :param created_by: the user who created it (``None``: the server, e.g. a tournament).
    :param now: the creation time (the service clock's ``now()``, UTC).
    :param origin: one of :data:`app.matches.models.ORIGINS` (default: ``rated`` when
        ``options["rated"]`` is true, else ``casual``); ``origin_ref`` names its source (a
        tournament id).
    """
    bots = bots or {}
    seed = secrets.token_hex(32)
    m = Match(
        game=game,
        options=dict(options),
        num_players=players,
        status=WAITING,
        seed=seed,
        seed_hash=hashlib.sha256(seed.encode()).hexdigest(),
        version=0,
        state_version=0,
        state=None,
        pending={},
        created_by=created_by,
        created_at=now,
        origin=origin or (RATED if options.get("rated") else CASUAL),
        origin_ref=origin_ref,
    )
    m.seats = [
        MatchSeat(
            seat=s,
            bot_level=bots.get(s),
            user_id=users.get(s),
            joined_at=now if (s in users or s in bots) else None,
            timeouts_in_row=0,
            away=False,
            resigned=False,
        )
        for s in range(players)
    ]
    return m


def _bad_options(reason: str, message: str, **params: Any) -> DomainError:
    """The ``bad_options`` error: ``params`` are ``{"reason": reason, **params}``."""
    return DomainError("bad_options", message, params={"reason": reason, **params})


def _refused_by_rules(exc: GameError) -> DomainError:
    """The ``bad_options`` error of options the game's rules refuse: the engine's message, and its
    ``reason`` and ``params`` (:class:`~app.games.core.errors.BadOptions` lists them)."""
    return DomainError("bad_options", str(exc), params=exc.wire_params())


def _too_many_matches(open_count: int) -> DomainError:
    return DomainError(
        "too_many_matches", f"you already have {open_count} matches waiting for players; cancel one first"
    )


@contextlib.asynccontextmanager
async def _asyncpg_connection(sessionmaker: async_sessionmaker[AsyncSession]) -> AsyncIterator[Any]:
    """A pooled connection's asyncpg connection (PostgreSQL only), returned to the pool on exit.
    Taken from the sessionmaker's engine's pool as a raw connection, without a session or an
    ``AsyncConnection`` around it: 30 us for the checkout and return, against 60-75 us through
    ``engine.connect()`` and twice that through a session."""
    engine: AsyncEngine = sessionmaker.kw["bind"]
    pooled = await engine.raw_connection()
    try:
        yield pooled.driver_connection
    finally:
        # back to the pool; its reset awaits nothing (the adapter never began a transaction: the
        # locked path's is the driver's own), so a cancellation cannot stop it half way
        await greenlet_spawn(pooled.close)


class MatchService(ComputerSeats, MatchReads):
    """Creates, joins, advances and reads matches.

    :param sessionmaker: async session factory.
    :param hub: where "match M reached version V" and "match M finished" notices are published.
    :param settings: bot pool and delay, clock tick.
    :param clock: the time source (a :class:`~app.matches.clock.FakeClock` in tests).
    :param bots: where computer moves are chosen (default: a runner made from ``settings``).
    :param background: the session factory of the sweeper (clocks, computer moves), on
        connections of its own (default: ``sessionmaker``).
    """

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        hub: LocalHub,
        *,
        settings: Settings,
        clock: Clock,
        bots: BotRunner | None = None,
        background: async_sessionmaker[AsyncSession] | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.background = background or sessionmaker
        self.hub = hub
        self.settings = settings
        self.clock = clock
        self.bots = bots or BotRunner(
            settings.bot_pool,
            settings.bot_workers,
            timeout_seconds=settings.bot_timeout_seconds,
            imports=settings.bot_worker_imports,
            nice=settings.bot_worker_nice,
        )
        self._locks: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._worker: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._postgres = not settings.is_sqlite
        #: what each match looks like now, for snapshots without the database (:mod:`app.matches.live`)
        self.live = LiveMatches(settings.live_matches)
        hub.subscribe_any(self.live.heard)

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
        origin: str | None = None,
        origin_ref: str | None = None,
    ) -> dict[str, Any]:
        """Create a match; the creator (if any) takes ``seat`` (default: the first seat no bot holds).

        The match starts at once when every seat is held.

        :param options: service options (the clock: ``turn_seconds``, 0 for untimed, only without
            computer seats; or ``clock: "bank"`` with ``bank_seconds`` and ``increment_seconds``,
            see :func:`~app.matches.time_control.normalize_time_control`; ``spectators``;
            ``rated``: true makes the match's origin ``rated``) and the game's own options
            (``variant`` picks a variant's rules where the game has variants).
        :param origin: ``challenge`` or ``tournament`` for a match such a feature creates (with
            ``origin_ref``, what it belongs to); default ``rated`` or ``casual`` as ``options``
            say. Whether a challenge or tournament match is rated is its ``rated`` option.
        :returns: the public match info (:func:`app.matches.views.match_info`).
        :raises DomainError: ``bad_options`` with ``params.reason``: as :meth:`check_options`, and
            for the seats: ``computer_seat`` (``seat``: not a seat of the match, or given twice),
            ``no_computer`` (``game``: it has no computer player), ``computer_level`` (``level``,
            ``levels``: the game's), ``all_computer`` (every seat is the computer's, none left for
            the creator), ``seat_taken`` (``seat``: the creator's seat is the computer's or not in
            the match); ``too_many_matches``.
        """
        players, opts = self.check_options(game, options, players=players, has_bots=bool(bots))
        if origin is not None and origin not in (CHALLENGE, TOURNAMENT):
            raise ValueError(f"origin {origin!r}: only challenge and tournament are given by their features")
        bot_by_seat: dict[int, str] = {}
        for b in bots:
            if not 0 <= b.seat < players or b.seat in bot_by_seat:
                raise _bad_options("computer_seat", f"bad computer seat {b.seat}", seat=b.seat)
            levels = bot_levels(game)
            if not levels:
                raise _bad_options("no_computer", f"{game} has no computer player", game=game)
            level = DEFAULT_DIFFICULTY if b.level is None else b.level  # ("" is no level: refused below)
            if level in DIFFICULTIES and len(levels) == len(DIFFICULTIES):  # a difficulty: its level
                level = difficulty_levels(levels)[level]
            if level not in levels:
                raise _bad_options(
                    "computer_level",
                    f"unknown computer level {b.level!r}; {game} offers {levels}",
                    level=b.level if b.level is not None else level,
                    levels=levels,
                )
            bot_by_seat[b.seat] = level
        free = [s for s in range(players) if s not in bot_by_seat]
        if user_id is not None:
            if seat is None:
                if not free:
                    raise _bad_options("all_computer", "every seat is a computer seat")
                seat = free[0]
            if seat not in free:
                raise _bad_options("seat_taken", f"seat {seat} is not free", seat=seat)
        now = self.clock.now()
        will_wait = any(s not in bot_by_seat and s != seat for s in range(players))
        m = new_match(
            game,
            opts,
            players,
            {seat: user_id} if user_id is not None and seat is not None else {},
            bot_by_seat,
            created_by=user_id,
            now=now,
            origin=origin,
            origin_ref=origin_ref,
        )
        capped_by = user_id if will_wait else None  # a match that waits counts against its creator
        if self._postgres:
            created = await self._insert_on_driver(m, capped_by)
        else:
            created = await self._insert_on_session(m, capped_by)
        match_id = created.id
        # cached as created (the join and the hellos find it here): no read after the write
        self.live.put(LiveMatch(created, None, {}, ()))
        if all(s.user_id is not None or s.bot_level for s in created.seats):
            await self._write(match_id, self._start)
        return await self.get_match(match_id)

    async def _insert_on_driver(self, m: Match, capped_by: int | None) -> MatchRecord:
        """Insert the new match ``m`` on PostgreSQL in one statement (:func:`~app.matches.insert.
        insert_match`), counted against ``capped_by``'s waiting matches.

        :raises DomainError: ``too_many_matches``.
        """
        async with _asyncpg_connection(self.sessionmaker) as driver:
            match_id, open_count, refs = await insert_match(
                driver, m, capped_by=capped_by, cap=self.settings.max_open_matches
            )
        if match_id is None:
            raise _too_many_matches(open_count)
        return MatchRecord.of(m, refs)

    async def _insert_on_session(self, m: Match, capped_by: int | None) -> MatchRecord:
        """Insert the new match ``m`` through the ORM (SQLite), counted against ``capped_by``'s
        waiting matches under the database's write lock. :raises DomainError: ``too_many_matches``."""
        async with self.sessionmaker() as session, session.begin():
            if capped_by is not None:
                await lock_user(session, capped_by)  # counted and added in one step (issue 17, item 4)
                open_count = await session.scalar(
                    select(func.count())
                    .select_from(Match)
                    .where(Match.created_by == capped_by, Match.status == WAITING)
                )
                if (open_count or 0) >= self.settings.max_open_matches:
                    raise _too_many_matches(open_count or 0)
            session.add(m)
            await session.flush()
            holders = [s.user_id for s in m.seats if s.user_id is not None]
            refs = await CoreStatements(await session.connection()).user_refs(holders) if holders else {}
            return MatchRecord.of(m, refs)

    def check_options(
        self, game: str, options: Mapping[str, Any] | None, *, players: int | None = None, has_bots: bool = False
    ) -> tuple[int, dict[str, Any]]:
        """The options a match of ``game`` at ``players`` seats (default: the game's fewest) would
        be created with, checked exactly as :meth:`create_match` checks them (the variant's rules,
        the seat count, the clock, the flags, the game's own options and those that depend on the
        number of seats). Features that create matches later (clan challenges, tournaments) check
        their options here first.

        :returns: ``(players, normalised options)``.
        :raises DomainError: ``bad_options`` with ``params.reason``: ``unknown_game`` (``game``),
            ``player_count`` (``min``, ``max``, ``players``); the clock's (:func:`~app.matches.
            time_control.normalize_time_control`); ``option_type`` (``option``, ``type``) for a
            flag (``spectators``, ``rated``) that is not true or false; and the game's rules'
            (:class:`~app.games.core.errors.BadOptions` lists them: ``unknown_option``,
            ``option_choice``, ``option_range``, ``team_seats``, ...).
        """
        options = options or {}
        try:  # the variant's rules, where the game's options pick one
            rules = get_rules(game, {k: v for k, v in options.items() if k not in SERVICE_OPTIONS})
        except BadOptions as exc:
            raise _refused_by_rules(exc) from None
        players = players or rules.min_players
        if not rules.min_players <= players <= rules.max_players:
            raise _bad_options(
                "player_count",
                f"{game} is for {rules.min_players}-{rules.max_players} players",
                min=rules.min_players,
                max=rules.max_players,
                players=players,
            )
        opts = self._normalize_options(rules, options, has_bots=has_bots)
        try:  # options that depend on the number of seats (Fantasy súboj's teams, its packs)
            rules.initial_state(players, {k: v for k, v in opts.items() if k not in SERVICE_OPTIONS})
        except GameError as exc:
            raise _refused_by_rules(exc) from None
        return players, opts

    async def start_waiting(self, match_id: int, *, background: bool = False) -> bool:
        """Start match ``match_id`` if it still waits and every seat is held; a match already
        started, finished or aborted, or with a free seat, is left as it is (idempotent). A match
        built with every seat taken (:func:`new_match`: a rematch, a tournament's round) starts
        here after the commit that added it, and again when its caller finds it still waiting
        after a crash in between.

        :param background: on the background pool (the tournament runner's steps), not the
            requests' one.
        :returns: True when this call started it.
        :raises DomainError: ``not_found``, ``busy``.
        """
        started = False

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            nonlocal started
            if m.status == WAITING and all(s.user_id is not None or s.bot_level for s in m.seats):
                await self._start(m, ctx)
                started = True

        await self._write(match_id, do, background=background)
        return started

    def _normalize_options(self, rules: Any, options: Mapping[str, Any], has_bots: bool) -> dict[str, Any]:
        service = {k: options[k] for k in SERVICE_OPTIONS if k in options}
        game_opts = {k: v for k, v in options.items() if k not in SERVICE_OPTIONS}
        clock = normalize_time_control(
            service,
            default_turn=getattr(rules, "default_turn_seconds", SERVICE_OPTIONS["turn_seconds"]),
            has_bots=has_bots,
        )
        flags: dict[str, bool] = {}
        for name in ("spectators", "rated"):
            flags[name] = service.get(name, SERVICE_OPTIONS[name])
            if not isinstance(flags[name], bool):
                raise _bad_options("option_type", f"{name} must be true or false", option=name, type="boolean")
        try:
            game_opts = rules.normalize_options(game_opts)
        except GameError as exc:
            raise _refused_by_rules(exc) from None
        return {**game_opts, **clock, **flags}

    async def join(
        self, match_id: int, user_id: int, *, is_bot: bool = False, accept_rated: bool = False
    ) -> dict[str, Any]:
        """Take the first free seat of a waiting match; the match starts when every seat is held.

        :param is_bot: the joining account is a bot account (``users.is_bot``).
        :param accept_rated: the joiner agrees to a rated match between a bot account and a
            person. The creator of a rated match agreed by asking for it; a joiner whose seat
            would put a bot account and a person in one rated match must agree too.
        :raises DomainError: ``not_found``, ``already_joined``, ``not_waiting``, ``match_full``,
            ``rated_needs_consent``.
        """

        async def take_seat(m: AnyMatch, ctx: WriteContext) -> None:
            if any(s.user_id == user_id for s in m.seats):
                raise DomainError("already_joined", "you already hold a seat in this match")
            if m.status != WAITING:
                raise DomainError("not_waiting", "this match is not waiting for players")
            free = [s for s in m.seats if s.user_id is None and not s.bot_level]
            if not free:
                raise DomainError("match_full", "this match has no free seat")
            if m.origin == RATED and not accept_rated:
                kinds = {bool(s.user.is_bot) for s in m.seats if s.user_id is not None and s.user is not None}
                if kinds | {is_bot} == {True, False}:
                    raise DomainError(
                        "rated_needs_consent",
                        "this rated match would seat a bot account against a person; "
                        'join with {"accept_rated": true} to agree',
                    )
            free[0].user_id = user_id
            free[0].joined_at = ctx.now
            if len(free) == 1:
                await self._start(m, ctx)

        await self._write(match_id, take_seat)
        return await self.get_match(match_id)

    async def cancel(self, match_id: int, user_id: int) -> dict[str, Any]:
        """Cancel a waiting match you created (status ``aborted``, reason ``cancelled``).

        :raises DomainError: ``not_found``, ``forbidden`` (not yours), ``not_waiting``.
        """

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            if m.created_by != user_id:
                raise DomainError("forbidden", "only the player who created a match can cancel it")
            if m.status != WAITING:
                raise DomainError("not_waiting", "only a match still waiting for players can be cancelled")
            ctx.abort("cancelled")

        await self._write(match_id, do)
        return await self.get_match(match_id)

    # ------------------------------------------------------------------ acting

    async def act(self, match_id: int, user_id: int, action: Any, version: int | None, *, kind: str = "action") -> int:
        """Apply the action of the seat ``user_id`` holds.

        :param action: the JSON form of an action (one of the snapshot's ``legal`` objects).
        :param version: the version the client saw; refused with ``stale_version`` when the state
            has changed since (a hidden choice by another seat does not make it stale).
        :returns: the match version after the action (acknowledged = committed).
        :raises DomainError: ``not_found``, ``forbidden`` (no seat, or resigned), ``bad_message``,
            ``illegal_action``, ``not_your_turn``, ``stale_version``, ``game_over``, ``not_started``,
            ``too_late`` (after the seat's deadline and ``late_allowance_seconds``: nothing is
            stored, and the computer plays the seat's timeout at once).
        """

        late_ms: list[int] = []

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            seat = self._playing_seat(m, user_id)
            if version is not None and (version < m.state_version or version > m.version):
                raise DomainError("stale_version", f"the match is at version {m.version}; you sent {version}")
            ms = m.seats[seat]
            late = self._late_ms(ms, ctx)
            if late is not None:  # decided here, whatever the sweeper's tick: nothing is stored
                late_ms.append(late)
                return
            ms.timeouts_in_row = 0
            ms.away, ms.away_since = False, None
            ctx.apply(seat, ctx.decode(action), kind)

        version_after = await self._write(match_id, do)
        if late_ms:
            if self._worker is not None:  # the timeout applies now
                self._spawn(self.process_match(match_id))
            raise DomainError(
                "too_late", f"your deadline passed {late_ms[0]} ms before this act", params={"late_ms": late_ms[0]}
            )
        return version_after

    def _late_ms(self, ms: Any, ctx: WriteContext) -> int | None:
        """How late (ms) an act of the person holding seat ``ms`` is, or ``None`` when it is in
        time: past the seat's deadline plus ``late_allowance_seconds``, while the seat must act.
        A seat the computer plays because its player is away takes the player's act (they are
        back)."""
        if ms.deadline_at is None or ms.away or ms.bot_level or ms.resigned or ctx.state is None:
            return None
        if ms.seat not in ctx.rules.to_act(ctx.state) or ms.seat in ctx.pending:
            return None
        late = (ctx.now - ms.deadline_at).total_seconds() - self.settings.late_allowance_seconds
        return int(late * 1000) + 1 if late > 0 else None

    async def set_back(self, match_id: int, user_id: int) -> int:
        """ "I'm back": clear the ``away`` mark of the seat ``user_id`` holds and restart its clock.

        :raises DomainError: ``not_found``, ``forbidden`` (no seat, or resigned), ``game_over``,
            ``not_started``.
        """

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            seat = self._playing_seat(m, user_id)
            ms = m.seats[seat]
            if ms.away:
                ms.away, ms.away_since = False, None
                ms.timeouts_in_row = 0
                ms.deadline_at = None  # recomputed from now
                ctx.record(seat, "back", None, None, [])

        return await self._write(match_id, do)

    async def resign(self, match_id: int, user_id: int) -> int:
        """Resign the seat ``user_id`` holds (a ``resign`` event). The game decides what follows
        (:meth:`Rules.resign`): the match ends with the outcome it gives (two players: the seat
        loses, the other wins), or the game goes on and the computer plays the seat at once to the
        end; that seat's final result is the player's.

        :raises DomainError: ``not_found``, ``forbidden`` (no seat, or already resigned),
            ``game_over``, ``not_started``.
        """

        async def do(m: AnyMatch, ctx: WriteContext) -> None:
            seat = self._playing_seat(m, user_id)
            outcome = ctx.rules.resign(ctx.state, seat)
            ctx.record(seat, "resign", None, None, [])
            if outcome is not None:
                ctx.forced_outcome = outcome
                return
            ms = m.seats[seat]
            ms.resigned = True
            ms.away, ms.away_since, ms.timeouts_in_row = False, None, 0
            ms.deadline_at = None  # the computer's: due at once (see WriteContext._set_deadlines)

        return await self._write(match_id, do)

    def _playing_seat(self, m: AnyMatch, user_id: int) -> int:
        """The seat ``user_id`` plays in the active match ``m``.

        :raises DomainError: ``forbidden`` (no seat, or resigned), ``game_over``, ``not_started``.
        """
        seat = seat_of(m, user_id)
        if seat is None:
            raise DomainError("forbidden", "you hold no seat in this match")
        self._check_active(m)
        if m.seats[seat].resigned:
            raise DomainError("forbidden", "you resigned from this match")
        return seat

    def _check_active(self, m: AnyMatch) -> None:
        if m.status == FINISHED:
            raise DomainError("game_over", "the match is over")
        if m.status != ACTIVE:
            raise DomainError("not_started", "the match has not started")

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
        body: Callable[[AnyMatch, WriteContext], Awaitable[None]],
        *,
        skip_locked: bool = False,
        background: bool = False,
    ) -> int:
        """Run ``body`` on the locked match, then store what it did. The one serial path.

        Waiting for the match's earlier writes holds no database connection. A request waits at
        most ``match_lock_wait_seconds`` for them and ``db_pool_timeout_seconds`` for a connection.

        :param skip_locked: on PostgreSQL, return ``-1`` at once when another process holds the row.
        :param background: the sweeper's write: on its own connections, waiting as long as it takes.
        :returns: the new version. When the write ends the match, its ``match_results`` rows are
            committed with it and "match finished" is published after the commit.
        :raises DomainError: ``not_found``; ``busy`` (``params.retry_after``: seconds) when the
            wait for the match or for a connection ran out; or whatever ``body`` raised (nothing
            is stored then).
        """
        lock = self._lock(match_id)
        if background:
            await lock.acquire()
        else:
            try:
                async with asyncio.timeout(self.settings.match_lock_wait_seconds):
                    await lock.acquire()
            except TimeoutError:
                raise busy("the match is busy with other requests") from None
        try:
            new_version, ctx = await self._write_locked(match_id, body, skip_locked, background)
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None
        finally:
            lock.release()
        if ctx is None:  # nothing stored
            return new_version
        await self.hub.publish(match_id, new_version)
        if ctx.finished:
            await self.hub.publish_finished(match_id)
        if ctx.next_deadline is not None and self._worker is not None:
            self._wake.set()
            if ctx.next_deadline <= self.clock.now():  # a computer move due now: play it at once
                self._spawn(self.process_match(match_id))
        return new_version

    async def _write_locked(
        self,
        match_id: int,
        body: Callable[[AnyMatch, WriteContext], Awaitable[None]],
        skip_locked: bool,
        background: bool,
    ) -> tuple[int, WriteContext | None]:
        """The body of :meth:`_write` under the match's lock: ``(version, the write)``, or
        ``(version, None)`` when nothing was stored (``-1`` when ``skip_locked`` found the row
        locked).

        Three ways, one outcome (:mod:`app.matches.store`): when this process holds the match at
        the stored version, the write changes a copy of its record and stores the changed
        columns, on PostgreSQL straight on the asyncpg connection, on SQLite through Core; when
        it does not (another process wrote), the ORM loads and stores the match.
        """
        sessionmaker = self.background if background else self.sessionmaker
        cached = self.live.get(match_id)
        if cached is not None and self._postgres:
            done = await self._write_on_driver(sessionmaker, match_id, body, cached, skip_locked)
            if done is not None:
                return done
            cached = None  # another process wrote since it was cached: the ORM's way
        async with sessionmaker() as session, session.begin():
            conn = await session.connection()
            statements = CoreStatements(conn)
            version = await lock_version(statements, match_id, postgres=self._postgres, skip_locked=skip_locked)
            if version is None:
                if skip_locked:
                    return -1, None
                raise DomainError("not_found", f"no match {match_id}")
            m: Match | MatchRecord
            if cached is not None and cached.version == version:  # the fast path (SQLite)
                before = cached.record
                m = copy_record(before)
            else:  # another process wrote since (or this one never read the match): the ORM
                cached = None
                m = (await session.execute(select(Match).where(Match.id == match_id))).scalar_one()
            ctx = WriteContext(m, self.clock.now(), self.settings, cached)
            await body(m, ctx)
            if ctx.changed:
                ctx.finish()
            if isinstance(m, MatchRecord):
                if not await store(statements, before, m, ctx.rows, ctx.results):
                    raise DomainError("stale_version", "the match changed meanwhile; try again")
            elif ctx.changed:
                session.add_all(ctx.rows)
                session.add_all(ctx.results)
                try:
                    await session.flush()
                except (StaleDataError, IntegrityError):  # another writer got there first
                    raise DomainError("stale_version", "the match changed meanwhile; try again") from None
                for ms in m.seats:  # a seat taken in this write: its user, for the frames
                    if ms.user_id is not None and (ms.user is None or ms.user.id != ms.user_id):
                        await session.refresh(ms, ["user"])
            if isinstance(m, MatchRecord):
                seats_changed = m != before
            else:
                seats_changed = bool(session.dirty)
        return self._stored(match_id, m, ctx, cached, seats_changed)

    async def _write_on_driver(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        match_id: int,
        body: Callable[[AnyMatch, WriteContext], Awaitable[None]],
        cached: LiveMatch,
        skip_locked: bool,
    ) -> tuple[int, WriteContext | None] | None:
        """The PostgreSQL fast path, on the pooled asyncpg connection.

        A write that adds events (an action, a join, the end of the match) is made on the cached
        record and stored in one statement with no lock taken
        (:func:`~app.matches.store.store_in_one_statement`: one round trip; a writer elsewhere
        makes it fail whole). Any other write, and a request the cached record refuses (it may be
        stale), takes the row lock, checks the version and runs again.

        :returns: as :meth:`_write_locked`, or ``None`` (nothing done) when the stored version is
            not the cached one.
        """
        before = cached.record
        m = copy_record(before)
        ctx = WriteContext(m, self.clock.now(), self.settings, cached)
        try:
            await body(m, ctx)
        except DomainError:
            pass  # confirmed (or not) under the lock below
        else:
            if ctx.changed:
                ctx.finish()
                if fits_one_statement(ctx.rows):
                    async with _asyncpg_connection(sessionmaker) as driver:
                        if not await store_in_one_statement(driver, before, m, ctx.rows, ctx.results):
                            return None
                    return self._stored(match_id, m, ctx, cached, False)
            elif m == before:
                return m.version, None  # nothing to store
        async with _asyncpg_connection(sessionmaker) as driver, driver.transaction():
            statements = AsyncpgStatements(driver)
            version = await lock_version(statements, match_id, postgres=True, skip_locked=skip_locked)
            if version is None:
                if skip_locked:
                    return -1, None
                raise DomainError("not_found", f"no match {match_id}")
            if version != cached.version:
                return None
            m = copy_record(before)
            ctx = WriteContext(m, self.clock.now(), self.settings, cached)
            await body(m, ctx)
            if ctx.changed:
                ctx.finish()
            if not await store(statements, before, m, ctx.rows, ctx.results):
                raise DomainError("stale_version", "the match changed meanwhile; try again")
        return self._stored(match_id, m, ctx, cached, m != before)

    def _stored(
        self,
        match_id: int,
        m: AnyMatch,
        ctx: WriteContext,
        cached: LiveMatch | None,
        seats_changed: bool,
    ) -> tuple[int, WriteContext | None]:
        """After the commit: keep the new version in :attr:`live` (readers in this process see it
        before the notice), or forget the cached one when seats changed without a new version."""
        if not ctx.changed:
            if seats_changed:
                self.live.forget(match_id)
            return m.version, None
        new = [StoredEvent.of(row) for row in ctx.rows]
        self.live.put(LiveMatch(m, ctx.state, ctx.pending, (*cached.tail, *new) if cached is not None else new))
        return m.version, ctx

    async def _start(self, m: AnyMatch, ctx: WriteContext | None = None) -> None:
        """Deal the game: initial state, the ``start`` event with the seed's hash, chance."""
        ctx = ctx or WriteContext(m, self.clock.now(), self.settings)
        ctx.state = ctx.rules.initial_state(m.num_players, game_options(m))
        ctx.pending = {}
        m.status = ACTIVE
        m.started_at = ctx.now
        ctx.record(None, "start", None, None, [], extra={"seed_hash": m.seed_hash})
        ctx.state_changed = True
