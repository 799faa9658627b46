"""Boards decided by their matches: the ``"challenges"`` consumer of ``match_results``
(:mod:`app.matches.results`), exactly once.

For each finished match with origin ``challenge`` (``origin_ref`` ``"<challenge id>:<board>"``),
the handler locks the challenge's row, reads the match's result rows, and records the board's
result for the clans: the challenger's player's seat (:func:`~app.clans.challenges.models.challenger_seat`)
won, lost or drew. A board already decided (by the deadline job, or by an earlier delivery) is
left as it is. When that was the last undecided board, the series finishes in the same transaction
(:func:`app.clans.challenges.series.finish_if_decided`: status, result, history, clan ladder and
player points).

Exactly once: the claim records the delivery in the same transaction (one delivery per consumer,
match and seat, whatever the number of processes), and the handler is idempotent besides (a board
is decided once under the challenge's lock; the credits are unique per reason and reference), so a
second delivery of the same match changes nothing. An aborted match writes no result rows; such a
board is left to the deadline job.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans.challenges.matches import parse_ref
from app.clans.challenges.models import ChallengeBoard, Side, challenger_seat
from app.clans.challenges.series import DRAW, SeriesPoints, decide, finish_if_decided
from app.clans.challenges.service import lock_challenge
from app.matches.clock import Clock
from app.matches.hub import LocalHub
from app.matches.models import CHALLENGE, Match, MatchResult
from app.matches.results import Handler, claim, consume_forever

#: the consumer's name in ``result_deliveries``
CONSUMER = "challenges"


def make_handler(points: SeriesPoints, clock: Clock) -> Handler:
    """The consumer's handler: :func:`record_match` for each challenge match among the delivered
    rows (one statement picks them out, so the other matches are never loaded)."""

    async def handle(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
        ids = {r.match_id for r in rows}
        ours = (await session.scalars(select(Match.id).where(Match.id.in_(ids), Match.origin == CHALLENGE))).all()
        for match_id in sorted(ours):
            await record_match(session, match_id, points, clock)

    return handle


async def record_match(session: AsyncSession, match_id: int, points: SeriesPoints, clock: Clock) -> bool:
    """Decide the board whose match is ``match_id`` from its results, and finish the series if it
    was the last board, in the caller's transaction. Not a challenge match, an undecided match, a
    board decided before: nothing changes.

    :returns: True when the board was decided now.
    """
    m = await session.get(Match, match_id)
    ref = parse_ref(m.origin_ref) if m is not None and m.origin == CHALLENGE else None
    if ref is None:
        return False
    challenge_id, board = ref
    ch = await lock_challenge(session, challenge_id)
    if ch is None:
        return False
    row = await session.scalar(
        select(ChallengeBoard)
        .where(ChallengeBoard.challenge_id == challenge_id, ChallengeBoard.board == board)
        .execution_options(populate_existing=True)
    )
    if row is None or row.winner is not None or row.match_id not in (None, match_id):
        return False
    results = {
        r.seat: r.result for r in await session.scalars(select(MatchResult).where(MatchResult.match_id == match_id))
    }
    seat = challenger_seat(board)
    if len(results) != 2 or seat not in results:
        return False
    outcome = results[seat]
    winner = {"win": Side.CHALLENGER.value, "loss": Side.CHALLENGED.value}.get(outcome, DRAW)
    now = clock.now()
    row.match_id = match_id
    decide(row, winner, None, now)
    await finish_if_decided(session, ch, points, now)
    return True


async def catch_up(sessionmaker: async_sessionmaker[AsyncSession], points: SeriesPoints, clock: Clock) -> int:
    """Deliver every result row not yet delivered to this consumer (tests, scripts). :returns: rows."""
    handler = make_handler(points, clock)
    total = 0
    while (n := await claim(sessionmaker, CONSUMER, handler)) > 0:
        total += n
    return total


def start(
    sessionmaker: async_sessionmaker[AsyncSession],
    hub: LocalHub,
    points: SeriesPoints,
    clock: Clock,
    poll_seconds: float = 30.0,
) -> asyncio.Task[None]:
    """Start the consumer (:func:`app.matches.results.consume_forever`) as a task; cancel it on
    shutdown."""
    return asyncio.create_task(
        consume_forever(sessionmaker, hub, CONSUMER, make_handler(points, clock), poll_seconds=poll_seconds),
        name=CONSUMER,
    )
