"""Finished matches onto their tournament boards: the ``"tournaments"`` consumer of
``match_results`` (:mod:`app.matches.results`), and the same step for the runner.

:func:`record_results` sets each open board's ``result`` from its match's ``match_results`` rows
(seat 0 is the board's first player) and, when that was the last open board of its round, makes
the tournament due now so the runner pairs the next round at once. A board's result is written
only while it is null, so the consumer and the runner may both try: one writes it.

Locks: the tournaments concerned are locked first (in id order), then their boards are written,
the same order as the runner's (tournament, then boards), so the two never wait on each other in
opposite orders.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.matches.clock import Clock
from app.matches.models import TOURNAMENT, Match, MatchResult
from app.matches.results import Handler
from app.tournaments.models import RUNNING, TournamentBoard
from app.tournaments.service import try_lock_tournament

#: the consumer's name in ``result_deliveries``
CONSUMER = "tournaments"

#: a seat-0 result -> the board's result
_BY_FIRST = {"win": "1-0", "loss": "0-1", "draw": "1/2"}
_BY_SECOND = {"win": "0-1", "loss": "1-0", "draw": "1/2"}


def board_result(rows: Sequence[MatchResult]) -> str | None:
    """A two-seat match's result as a board's (``1-0``, ``0-1``, ``1/2``), from either seat's row."""
    for r in rows:
        if r.seat == 0 and r.result in _BY_FIRST:
            return _BY_FIRST[r.result]
    for r in rows:
        if r.seat == 1 and r.result in _BY_SECOND:
            return _BY_SECOND[r.result]
    return None


async def record_results(session: AsyncSession, match_ids: Collection[int], now: object) -> set[int]:
    """Write the result of every open board whose match is among ``match_ids`` and has its
    ``match_results`` rows; a tournament whose current round is then complete gets ``due_at = now``.

    :returns: the ids of the tournaments whose boards changed.
    """
    if not match_ids:
        return set()
    tids = sorted(
        set(
            (
                await session.execute(
                    select(TournamentBoard.tournament_id).where(
                        TournamentBoard.match_id.in_(match_ids), TournamentBoard.result.is_(None)
                    )
                )
            ).scalars()
        )
    )
    changed: set[int] = set()
    for tid in tids:
        t = await try_lock_tournament(session, tid)
        if t is None:
            continue
        boards = (
            (
                await session.execute(
                    select(TournamentBoard).where(
                        TournamentBoard.tournament_id == tid,
                        TournamentBoard.match_id.in_(match_ids),
                        TournamentBoard.result.is_(None),
                    )
                )
            )
            .scalars()
            .all()
        )
        for b in boards:
            rows = (
                (await session.execute(select(MatchResult).where(MatchResult.match_id == b.match_id))).scalars().all()
            )
            result = board_result(rows)
            if result is not None:
                b.result = result
                changed.add(tid)
        await session.flush()
        if tid in changed and t.status == RUNNING:
            open_left = await session.scalar(
                select(TournamentBoard.id)
                .where(
                    TournamentBoard.tournament_id == tid,
                    TournamentBoard.round == t.current_round,
                    TournamentBoard.result.is_(None),
                )
                .limit(1)
            )
            if open_left is None:
                t.due_at = now  # type: ignore[assignment]
    return changed


def handler(clock: Clock) -> Handler:
    """The consumer's handler: :func:`record_results` for the tournament matches among the rows."""

    async def handle(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
        ids = {r.match_id for r in rows}
        ours = set(
            (await session.execute(select(Match.id).where(Match.id.in_(ids), Match.origin == TOURNAMENT))).scalars()
        )
        await record_results(session, ours, clock.now())

    return handle
