"""The challenge deadline job (issue 13, item 3): what happens when a challenge's deadline passes,
exactly once per challenge, with any number of server processes and across restarts.

- A challenge still **proposed** at its deadline **expires** (nobody answered).
- An **accepted** challenge at its deadline: every board not yet decided is looked at once.
  A side that named no player, or whose player holds no seat in the board's match (a match that
  never started), did not show and **forfeits** the board: the other side wins it (``forfeit``:
  that side), or nobody does when both did not show (``winner`` ``none``, ``forfeit`` ``both``).
  A board whose match is **running** at the deadline is **left to finish**: the turn clocks make
  every match end (challenges are always timed; an away player's seat is played by the computer,
  and a match whose every person is away ends as abandoned), and its result decides the board as
  any other (:mod:`app.clans.challenges.results`). A board whose match finished but whose result
  was not consumed yet is left to the consumer too. A board whose two players were named but whose
  match does not exist (its start failed until the deadline) is a draw: both sides showed.
  If that decided every board, the series finishes in the same transaction.

Exactly once: the job claims each due challenge in its own transaction by locking its row
(PostgreSQL ``FOR UPDATE SKIP LOCKED``, so a second process skips it; SQLite's one write lock),
checks again under the lock that it is still due (``status``, and ``deadline_done`` for an accepted
challenge), applies every effect and marks it done in the same commit. A process that dies before
the commit leaves the challenge due, and the next pass (in any process, after a restart) does it;
one that committed leaves nothing to do. Every effect has a key behind it too: a board is decided
once, the credits are unique per reason and reference.

Each pass also finishes starting the boards whose start was cut short
(:func:`app.clans.challenges.matches.start_boards`). Time comes from the match service's clock
(a :class:`~app.matches.clock.FakeClock` in tests).
"""

from __future__ import annotations

import asyncio
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans.challenges.matches import board_ref, start_boards
from app.clans.challenges.models import Challenge, ChallengeBoard, ChallengeStatus, Side, seat_of_side
from app.clans.challenges.series import DRAW, NONE, SeriesPoints, decide, finish_if_decided
from app.clans.challenges.service import boards_of, clans_of, history_both, lock_challenge
from app.logging import get_logger
from app.matches.clock import Clock
from app.matches.models import ABORTED, ACTIVE, CHALLENGE, FINISHED, Match
from app.matches.service import MatchService

log = get_logger(__name__)

#: challenges one pass handles at most (the rest in the next pass)
BATCH = 50


class ChallengeDeadlines:
    """The deadline job of one process.

    :param sessionmaker: its sessions (the background pool in the server).
    :param clock: the time source.
    :param points: the series' points (:class:`~app.clans.challenges.series.SeriesPoints`).
    :param matches: the match service, to finish starting boards (None: not done here).
    :param tick_seconds: how often :meth:`run_forever` passes.
    """

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        clock: Clock,
        points: SeriesPoints,
        matches: MatchService | None = None,
        tick_seconds: float = 5.0,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.clock = clock
        self.points = points
        self.matches = matches
        self.tick_seconds = tick_seconds

    async def run_once(self) -> int:
        """One pass: expire, forfeit, and finish interrupted board starts. :returns: challenges
        expired or whose deadline was handled by this pass."""
        now = self.clock.now()
        done = 0
        for challenge_id in await self._due(ChallengeStatus.PROPOSED, now):
            done += await self._expire(challenge_id, now)
        for challenge_id in await self._due(ChallengeStatus.ACCEPTED, now):
            done += await self._forfeit(challenge_id, now)
        if self.matches is not None:
            await start_boards(self.sessionmaker, self.matches, now=now)
        return done

    async def run_forever(self) -> None:
        """:meth:`run_once` every ``tick_seconds`` until cancelled; a failing pass is logged."""
        while True:
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("challenge deadline pass failed")
            await asyncio.sleep(self.tick_seconds)

    def start(self) -> asyncio.Task[None]:
        """Run :meth:`run_forever` as a task; cancel it on shutdown."""
        return asyncio.create_task(self.run_forever(), name="challenge-deadlines")

    async def _due(self, status: ChallengeStatus, now: datetime) -> list[int]:
        stmt = select(Challenge.id).where(Challenge.status == status.value, Challenge.deadline <= now)
        if status is ChallengeStatus.ACCEPTED:
            stmt = stmt.where(Challenge.deadline_done.is_(False))
        async with self.sessionmaker() as session:
            return list(await session.scalars(stmt.order_by(Challenge.deadline, Challenge.id).limit(BATCH)))

    async def _expire(self, challenge_id: int, now: datetime) -> int:
        async with self.sessionmaker() as session, session.begin():
            ch = await lock_challenge(session, challenge_id, skip_locked=True)
            if ch is None or ch.status != ChallengeStatus.PROPOSED.value or ch.deadline > now:
                return 0  # another process has it, or did it
            ch.status = ChallengeStatus.EXPIRED.value
            ch.answered_at = now
            history_both(session, ch, await clans_of(session, ch), None, "challenge_expired", now)
        log.info("challenge_expired", challenge_id=challenge_id)
        return 1

    async def _forfeit(self, challenge_id: int, now: datetime) -> int:
        async with self.sessionmaker() as session, session.begin():
            ch = await lock_challenge(session, challenge_id, skip_locked=True)
            if ch is None or ch.status != ChallengeStatus.ACCEPTED.value or ch.deadline_done or ch.deadline > now:
                return 0
            for row in await boards_of(session, ch.id):
                if row.winner is None:
                    await self._board_at_deadline(session, row, now)
            ch.deadline_done = True
            finished = await finish_if_decided(session, ch, self.points, now)
        log.info("challenge_deadline", challenge_id=challenge_id, finished=finished)
        return 1

    async def _board_at_deadline(self, session: AsyncSession, row: ChallengeBoard, now: datetime) -> None:
        """Decide an undecided board at the deadline, unless its match is running or has ended."""
        m = None
        if row.match_id is not None:
            m = await session.get(Match, row.match_id)
        else:  # a start cut short may have created it without linking it
            m = await session.scalar(
                select(Match)
                .where(
                    Match.origin == CHALLENGE,
                    Match.origin_ref == board_ref(row.challenge_id, row.board),
                    Match.status != ABORTED,
                )
                .order_by(Match.id)
                .limit(1)
            )
        if m is not None and m.status in (ACTIVE, FINISHED):
            return  # let it finish; its result decides the board (the consumer)
        missing = []
        for side in Side:
            player = row.player(side)
            seated = m is not None and any(
                s.seat == seat_of_side(row.board, side) and s.user_id is not None for s in m.seats
            )
            if player is None or (m is not None and not seated):
                missing.append(side)
        if not missing:  # both named, no match: nobody failed to show
            decide(row, DRAW, None, now)
        elif len(missing) == 2:
            decide(row, NONE, "both", now)
        else:
            decide(row, missing[0].other.value, missing[0].value, now)
