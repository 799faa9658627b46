"""Ratings are applied exactly once (issue 12, item 2): the end of a match delivered twice at the
same time, by two processes (two engines), changes each seat's rating once; so do concurrent
claimers that split a match's seats between them, a crash in the middle, and a restart. On SQLite
and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from app.db.session import make_engine, make_sessionmaker
from app.matches.models import MatchResult
from app.matches.results import claim
from app.ratings.apply import CONSUMER, apply_results, catch_up, handle
from app.ratings.models import LadderPoints, PlayerRecord, Rating, RatingChange, RatingCount, RatingPool
from tests.ratings.conftest import finish_rated


async def _one_change_per_seat(sessionmaker, matches: list[int]) -> None:
    """Each match has exactly one change per seat, and every rating counts each match once."""
    async with sessionmaker() as s:
        per_seat = (
            await s.execute(
                select(RatingChange.match_id, RatingChange.seat, func.count()).group_by(
                    RatingChange.match_id, RatingChange.seat
                )
            )
        ).all()
        assert sorted((m, seat) for m, seat, _ in per_seat) == sorted((m, seat) for m in matches for seat in (0, 1))
        assert all(n == 1 for *_, n in per_seat)
        games = await s.scalar(select(func.sum(Rating.games)))
        assert games == 2 * len(matches)
        # each rating is the last change's result: no update was lost or doubled
        for r in (await s.execute(select(Rating))).scalars():
            last = await s.scalar(
                select(RatingChange.mu_after)
                .where(RatingChange.user_id == r.user_id, RatingChange.pool == r.pool)
                .order_by(RatingChange.id.desc())
                .limit(1)
            )
            assert r.mu == last
        wins = await s.scalar(select(func.coalesce(func.sum(LadderPoints.wins), 0)))
        assert wins == len(matches)
        # the ladder's size is the number of rated players in the pool
        sizes = dict((await s.execute(select(Rating.pool, func.count()).group_by(Rating.pool))).all())
        assert dict((await s.execute(select(RatingPool.pool, RatingPool.players))).all()) == sizes
        # the ladder's histogram counts each player once, at their current rating
        by_rating = select(Rating.pool, Rating.rating, func.count()).group_by(Rating.pool, Rating.rating)
        expected = {(p, r): n for p, r, n in (await s.execute(by_rating)).all()}
        counted = (await s.execute(select(RatingCount.pool, RatingCount.rating, RatingCount.players))).all()
        assert {(p, r): n for p, r, n in counted if n} == expected and expected


async def _records_once(sessionmaker, seats: int) -> None:
    """Every delivered seat is counted once in the players' records."""
    async with sessionmaker() as s:
        counted = await s.scalar(select(func.sum(PlayerRecord.wins + PlayerRecord.losses + PlayerRecord.draws)))
    assert counted == seats


async def test_the_end_of_a_match_delivered_twice_concurrently_changes_each_seat_once(env):
    alice, bob, _ = env.users
    match_id = await finish_rated(env, alice, bob)
    other_engine = make_engine(env.url)
    other = make_sessionmaker(other_engine)
    outcomes: list[str] = []

    async def deliver(sessionmaker) -> None:
        """One delivery of the match's rows, in its own transaction, held open a while."""
        try:
            async with sessionmaker() as session, session.begin():
                rows = (
                    (await session.execute(select(MatchResult).where(MatchResult.match_id == match_id))).scalars().all()
                )
                await apply_results(session, rows)
                await asyncio.sleep(0.3)  # the other delivery runs into this one's locks meanwhile
            outcomes.append("committed")
        except IntegrityError:
            outcomes.append("refused")

    try:
        for _ in range(2):  # and once more, after both committed: nothing changes
            await asyncio.gather(deliver(env.service.sessionmaker), deliver(other))
        await _one_change_per_seat(other, [match_id])
    finally:
        await other_engine.dispose()
    assert len(outcomes) == 4


@pytest.mark.parametrize("limit", [1, 3])
async def test_two_processes_claiming_at_once_apply_each_match_once(env, limit):
    """Two claimers (two engines) race over matches of the same players; with ``limit`` 1 each
    claim holds one seat, so a match's seats are often split between the two."""
    alice, bob, carol = env.users
    pairs = [(alice, bob), (bob, carol), (carol, alice), (alice, bob), (bob, alice), (carol, bob)]
    matches = [await finish_rated(env, w, lo) for w, lo in pairs]
    other_engine = make_engine(env.url)
    other = make_sessionmaker(other_engine)
    try:
        for _ in range(50):
            got = await asyncio.gather(
                claim(env.service.sessionmaker, CONSUMER, handle, limit=limit),
                claim(other, CONSUMER, handle, limit=limit),
                return_exceptions=True,
            )
            errors = [g for g in got if isinstance(g, Exception)]
            assert all(isinstance(g, IntegrityError) for g in errors), errors  # refused, retried later
            if got == [0, 0]:
                break
        await _one_change_per_seat(other, matches)
        await _records_once(other, 2 * len(matches))
    finally:
        await other_engine.dispose()


async def test_a_crash_in_the_middle_and_a_restart_lose_and_double_nothing(env):
    alice, bob, _ = env.users
    matches = [await finish_rated(env, alice, bob) for _ in range(3)]

    async def crashing(session, rows):
        await handle(session, rows)
        raise RuntimeError("the process died before the commit")

    with pytest.raises(RuntimeError):
        await claim(env.service.sessionmaker, CONSUMER, crashing, limit=2)
    async with env.service.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(RatingChange)) == 0
    assert await claim(env.service.sessionmaker, CONSUMER, handle, limit=2) == 2
    # the process restarts: a new engine goes on where the old one stopped
    engine = make_engine(env.url)
    try:
        restarted = make_sessionmaker(engine)
        assert await catch_up(restarted, limit=1) == 4
        assert await catch_up(restarted) == 0
        await _one_change_per_seat(restarted, matches)
        await _records_once(restarted, 2 * len(matches))
    finally:
        await engine.dispose()
