"""Running tournaments: the scheduled steps, each exactly once (issue 14, items 2 and 4).

A tournament is its own job row: ``tournaments.due_at`` says when to look at it. Whichever process
looks first claims it (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; the database write lock on
SQLite), takes the one step due, and commits, as the clock sweeper does
(:mod:`app.matches.sweeper`). The steps, each keyed so that running it twice changes nothing:

1. **Start** (status ``registering``, ``starts_at`` passed): checked-in players play, the others are
   left out (``no_show``); starting numbers by rating in the game's pool (then registration
   order); fewer than two players cancel it. Round 1 is paired in the same commit.
2. **Pair a round**: the boards (``tournament_boards``, unique per round and board) and their
   matches (origin ``tournament``, ``origin_ref`` the tournament id, every seat held, waiting) and
   the ``tournament_rounds`` row (primary key ``(tournament, round)``) in one commit, under the
   tournament's lock, only when ``current_round`` is the round before.
3. **Start its matches** after that commit: each match is started through the match service
   (:meth:`~app.matches.service.MatchService.start_waiting`, which starts only a waiting match;
   the matches are built by :func:`~app.matches.service.new_match`, as every match is),
   then the round's ``started_at`` is set. A process that dies in between leaves ``started_at``
   null; the next pass starts what is still waiting.
4. **Next round or finish** when the current round's last board has its result (the
   ``"tournaments"`` result consumer sets it and makes the tournament due now,
   :mod:`app.tournaments.results`): pair the next round at once, or finish: places from the
   standings, points by place (``credit(..., "tournament_place", "<id>:<place>")``, once per
   player by the ledger's key) and the winner promoted to at least Master
   (``promote_to_at_least(..., "tournament_win", "<id>")``), in the commit that sets ``finished``.

Absent players need nothing here: their matches are timed, their clocks run and the computer plays
for them (the sweeper), and the result counts.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.logging import get_logger
from app.matches.hub import LocalHub
from app.matches.models import ABORTED, TOURNAMENT, Match
from app.matches.results import BATCH_SECONDS, FULL_CLAIM_SECONDS, Cadence, claim_all
from app.matches.service import MatchService, new_match
from app.points.ledger import credit
from app.points.ranks import Rank, promote_to_at_least, thresholds_from
from app.ratings.models import Rating
from app.ratings.pools import pool_of
from app.ratings.skill import START_MU, display_rating
from app.tournaments import results
from app.tournaments.models import (
    CANCELLED,
    CHECKED_IN,
    DOUBLE_ROUND_ROBIN,
    ELIMINATED,
    FINISHED,
    KNOCKOUT,
    NO_SHOW,
    PLAYING,
    REGISTERED,
    REGISTERING,
    RUNNING,
    SWISS,
    WITHDRAWN,
    Tournament,
    TournamentBoard,
    TournamentPlayer,
    TournamentRound,
)
from app.tournaments.pairing import Pair, knockout, round_robin, swiss
from app.tournaments.service import try_lock_tournament
from app.tournaments.table import Field, boards_of, is_round_robin, standings

log = get_logger(__name__)

#: tournament points by final place (``points_ledger`` reason ``tournament_place``)
PLACE_POINTS = {1: 100, 2: 60, 3: 40}
#: steps one call of :meth:`TournamentRunner.step` takes at most (a round of forfeits only is
#: decided at once, so the next one may follow in the same call)
MAX_STEPS = 8


class TournamentRunner:
    """Takes the due steps of tournaments (see the module docstring).

    :param sessionmaker: the background pool.
    :param matches: the match service (creates and starts the boards' matches; its clock is the
        runner's).
    """

    def __init__(self, sessionmaker: async_sessionmaker[AsyncSession], matches: MatchService) -> None:
        self.sessionmaker = sessionmaker
        self.matches = matches
        self.clock = matches.clock
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """Make :meth:`run_forever` look at once (a start now, a withdrawal)."""
        self._wake.set()

    async def process_due(self, limit: int = 20) -> int:
        """Take the due step of every tournament whose ``due_at`` has passed, and start the
        matches of any round not yet started.

        :returns: how many tournaments changed.
        """
        now = self.clock.now()
        async with self.sessionmaker() as session:
            due = list(
                (
                    await session.execute(
                        select(Tournament.id)
                        .where(Tournament.due_at <= now, Tournament.status.in_((REGISTERING, RUNNING)))
                        .order_by(Tournament.due_at)
                        .limit(limit)
                    )
                ).scalars()
            )
            unstarted = list(
                (
                    await session.execute(
                        select(TournamentRound.tournament_id).where(TournamentRound.started_at.is_(None)).distinct()
                    )
                ).scalars()
            )
        done = 0
        for tid in sorted(set(due) | set(unstarted)):
            try:
                if await self.step(tid):
                    done += 1
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament step failed", tournament_id=tid)
        return done

    async def step(self, tournament_id: int) -> bool:
        """Take the due steps of one tournament, then start its rounds' matches.

        :returns: whether anything changed.
        """
        changed = False
        for _ in range(MAX_STEPS):
            async with self.sessionmaker() as session, session.begin():
                t = await try_lock_tournament(session, tournament_id, skip_locked=True)
                if t is None:
                    return changed
                now = self.clock.now()
                again = False
                if t.due_at is not None and t.due_at <= now:
                    if t.status == REGISTERING:
                        again = await self._begin(session, t, now)
                    elif t.status == RUNNING:
                        again = await self._advance(session, t, now)
                    else:
                        t.due_at = None
                    changed = True
            changed = await self._start_matches(tournament_id) or changed
            if not again:
                break
        return changed

    # ------------------------------------------------------------------ the steps

    async def _begin(self, session: AsyncSession, t: Tournament, now: datetime) -> bool:
        if t.starts_at > now:
            t.due_at = t.starts_at
            return False
        players = await _players(session, t.id)
        ready = [p for p in players if p.status == CHECKED_IN]
        for p in players:
            if p.status == REGISTERED:
                p.status = NO_SHOW
        if len(ready) < 2:
            t.status, t.due_at, t.finished_at = CANCELLED, None, now
            log.info("tournament cancelled: too few players", tournament_id=t.id, players=len(ready))
            return False
        ratings = await self._ratings(session, t, [p.user_id for p in ready])
        ready.sort(key=lambda p: (-ratings[p.user_id], p.registered_at, p.user_id))
        for number, p in enumerate(ready, start=1):
            p.status, p.number, p.rating = PLAYING, number, float(ratings[p.user_id])
        n = len(ready)
        if t.format == KNOCKOUT:
            t.rounds = knockout.rounds_needed(n)
        elif is_round_robin(t):
            t.rounds = round_robin.rounds_needed(n, double=t.format == DOUBLE_ROUND_ROBIN)
        else:
            t.rounds = min(t.rounds, n - 1)
        t.status, t.started_at = RUNNING, now
        await session.flush()
        return await self._pair(session, t, 1, Field.of(ready), [], now)

    async def _advance(self, session: AsyncSession, t: Tournament, now: datetime) -> bool:
        """The current round: take finished matches' results; when every board has one, pair the
        next round or finish."""
        rows = await _boards(session, t.id)
        current = [b for b in rows if b.round == t.current_round]
        waiting = [b.match_id for b in current if b.result is None and b.match_id is not None]
        if waiting:
            await results.record_results(session, waiting, now)
            aborted = set(
                (
                    await session.execute(select(Match.id).where(Match.id.in_(waiting), Match.status == ABORTED))
                ).scalars()
            )
            for b in current:
                if b.result is None and b.match_id in aborted:  # never played: nobody scores
                    b.result = "--"
        if any(b.result is None for b in current):
            t.due_at = None  # the result consumer makes it due again
            return False
        await session.execute(
            update(TournamentRound)
            .where(
                TournamentRound.tournament_id == t.id,
                TournamentRound.round == t.current_round,
                TournamentRound.finished_at.is_(None),
            )
            .values(finished_at=now)
        )
        players = await _players(session, t.id)
        field = Field.of(players)
        if t.format == KNOCKOUT:
            decided = boards_of(field, current)
            winners = [knockout.winner(d) for d in decided]
            by_number = {p.number: p for p in players}
            for d in decided:
                for n in (d.first, d.second):
                    if n is not None and n != knockout.winner(d) and by_number[n].status == PLAYING:
                        by_number[n].status, by_number[n].left_round = ELIMINATED, t.current_round
            if len(winners) <= 1:
                await self._finish(session, t, field, rows, now)
                return False
        if t.current_round >= t.rounds:
            await self._finish(session, t, field, rows, now)
            return False
        return await self._pair(session, t, t.current_round + 1, field, rows, now)

    async def _pair(
        self,
        session: AsyncSession,
        t: Tournament,
        round_no: int,
        field: Field,
        rows: list[TournamentBoard],
        now: datetime,
    ) -> bool:
        """Pair round ``round_no`` and create its matches (see the module docstring, step 2).

        :returns: whether the round is already decided (forfeits and byes only).
        """
        if await session.get(TournamentRound, (t.id, round_no)) is not None or t.current_round != round_no - 1:
            return False  # paired before (by another process, or before a restart)
        players = await _players(session, t.id)
        out = {field.number_of[p.user_id] for p in players if p.status == WITHDRAWN and p.user_id in field.number_of}
        pairs = self._pairs(t, round_no, field, rows, out)
        if pairs is None:  # no legal Swiss pairing is left: the tournament ends here
            await self._finish(session, t, field, rows, now)
            return False
        session.add(TournamentRound(tournament_id=t.id, round=round_no, paired_at=now))
        decided = True
        for board, (a, b) in enumerate(pairs, start=1):
            first = field.user_of[a]
            second = field.user_of[b] if b is not None else None
            row = TournamentBoard(
                tournament_id=t.id, round=round_no, board=board, first_user_id=first, second_user_id=second
            )
            if b is None:
                row.result = "rest" if is_round_robin(t) else "bye"
            elif a in out or b in out:
                row.result = "--" if a in out and b in out else ("-+" if a in out else "+-")
            else:
                assert second is not None
                m = new_match(
                    t.game,
                    t.options,
                    2,
                    {0: first, 1: second},
                    created_by=None,
                    now=now,
                    origin=TOURNAMENT,
                    origin_ref=str(t.id),
                )
                session.add(m)
                await session.flush()
                row.match_id = m.id
                decided = False
            session.add(row)
        t.current_round = round_no
        t.due_at = now if decided else None
        await session.flush()
        log.info("tournament round paired", tournament_id=t.id, round=round_no, boards=len(pairs))
        return decided

    def _pairs(
        self, t: Tournament, round_no: int, field: Field, rows: list[TournamentBoard], out: set[int]
    ) -> list[Pair] | None:
        """The boards of round ``round_no`` by starting number, or None when a Swiss cannot pair."""
        n = field.size
        if t.format == SWISS:
            try:
                return swiss.pair_round(n, t.rounds, boards_of(field, rows), withdrawn=out)
            except swiss.SwissPairingError:
                log.warning("no Swiss pairing left", tournament_id=t.id, round=round_no)
                return None
        if is_round_robin(t):
            return round_robin.schedule(n, double=t.format == DOUBLE_ROUND_ROBIN)[round_no - 1]
        if round_no == 1:
            return knockout.first_round(n)
        previous = [b for b in rows if b.round == round_no - 1]  # bracket order is board order
        winners = [knockout.winner(b) for b in boards_of(field, previous)]
        return knockout.next_round(winners)

    async def _finish(
        self, session: AsyncSession, t: Tournament, field: Field, rows: list[TournamentBoard], now: datetime
    ) -> None:
        """Places, points by place and the winner's promotion, in the commit that ends ``t``."""
        table = standings(t, field, rows)
        players = {p.user_id: p for p in await _players(session, t.id)}
        thresholds = thresholds_from(self.matches.settings)
        for s in table:
            user_id = field.user_of[s.number]
            players[user_id].place = s.place
            points = PLACE_POINTS.get(s.place)
            if points and players[user_id].status != WITHDRAWN:
                await credit(
                    session,
                    user_id,
                    points,
                    "tournament_place",
                    f"{t.id}:{s.place}",
                    params={"tournament_id": t.id, "place": s.place},
                    thresholds=thresholds,
                )
        winner = next((field.user_of[s.number] for s in table if s.place == 1), None)
        if winner is not None:
            await promote_to_at_least(session, winner, Rank.MASTER, "tournament_win", str(t.id))
        t.status, t.finished_at, t.due_at = FINISHED, now, None
        log.info("tournament finished", tournament_id=t.id, winner=winner)

    async def _ratings(self, session: AsyncSession, t: Tournament, user_ids: list[int]) -> dict[int, int]:
        """Each player's displayed rating in the tournament's pool (a new player's when none)."""
        pool = pool_of(t.game, t.options)
        start = display_rating(START_MU)
        found: dict[int, int] = {}
        if pool is not None:
            found = dict(
                (
                    await session.execute(
                        select(Rating.user_id, Rating.rating).where(
                            Rating.pool == pool.key, Rating.user_id.in_(user_ids)
                        )
                    )
                ).all()
            )
        return {u: found.get(u, start) for u in user_ids}

    async def _start_matches(self, tournament_id: int) -> bool:
        """Start the waiting matches of every round of the tournament not yet started (step 3)."""
        async with self.sessionmaker() as session:
            pending = list(
                (
                    await session.execute(
                        select(TournamentRound.round).where(
                            TournamentRound.tournament_id == tournament_id, TournamentRound.started_at.is_(None)
                        )
                    )
                ).scalars()
            )
            if not pending:
                return False
            match_ids = list(
                (
                    await session.execute(
                        select(TournamentBoard.match_id).where(
                            TournamentBoard.tournament_id == tournament_id,
                            TournamentBoard.round.in_(pending),
                            TournamentBoard.match_id.is_not(None),
                        )
                    )
                ).scalars()
            )
        for match_id in match_ids:
            assert match_id is not None
            await self.matches.start_waiting(match_id, background=True)
        async with self.sessionmaker() as session, session.begin():
            await session.execute(
                update(TournamentRound)
                .where(
                    TournamentRound.tournament_id == tournament_id,
                    TournamentRound.round.in_(pending),
                    TournamentRound.started_at.is_(None),
                )
                .values(started_at=self.clock.now())
            )
        return True

    # ------------------------------------------------------------------ the loop

    async def run_forever(self, hub: LocalHub, *, poll_seconds: float = 5.0) -> None:
        """Until cancelled: apply finished tournament matches (the ``"tournaments"`` consumer), then
        take the due steps; at once when a match finishes or :meth:`wake` is called, and every
        ``poll_seconds`` in any case (the start times, and the safety net after a restart)."""
        unsubscribe = hub.subscribe_finished(lambda _match_id: self._wake.set())
        handle = results.handler(self.clock)
        cadence = Cadence(BATCH_SECONDS, FULL_CLAIM_SECONDS)  # many finishes per claim when busy
        try:
            while True:
                full = await cadence.next_pass()
                self._wake.clear()
                try:
                    await claim_all(self.sessionmaker, results.CONSUMER, handle, full=full)
                    await self.process_due()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("tournament runner failed")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), poll_seconds)
        finally:
            unsubscribe()


async def _players(session: AsyncSession, tournament_id: int) -> list[TournamentPlayer]:
    return list(
        (await session.execute(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id)))
        .scalars()
        .all()
    )


async def _boards(session: AsyncSession, tournament_id: int) -> list[TournamentBoard]:
    return list(
        (
            await session.execute(
                select(TournamentBoard)
                .where(TournamentBoard.tournament_id == tournament_id)
                .order_by(TournamentBoard.round, TournamentBoard.board)
            )
        )
        .scalars()
        .all()
    )
