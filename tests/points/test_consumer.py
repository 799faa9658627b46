"""Points for rated wins and wins over a Lord (issue 13, item 5): the ``points`` consumer of
``match_results`` credits each win once, across a concurrent double delivery (two engines), two
claimers at once, a crash and a restart; casual matches, computer seats and seats the computer
finished earn nothing; beating a Lord (by the rank held when the match ended) gives ``beat_lord``
and makes a Knight a Master; the thresholds promote. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.db.session import make_engine, make_sessionmaker
from app.matches.models import Match, MatchResult
from app.matches.results import claim
from app.matches.service import BotSeat
from app.points.consumer import CONSUMER, Awards, apply_points, catch_up, handler
from app.points.ledger import balance_of
from app.points.models import PointsEntry, RankChange
from app.points.ranks import Rank, RankThresholds, rank_of, set_rank
from tests.ratings.conftest import finish_rated
from tests.service.conftest import Env

AWARDS = Awards(rated_win=10, beat_lord=25, thresholds=RankThresholds(master=1000, lord=2000, leader=3000))


async def _entries(e: Env) -> list[tuple[int, str, str, int]]:
    """Every ledger row: ``(user_id, reason, ref, delta)``, in user, reason, ref order."""
    async with e.service.sessionmaker() as s:
        rows = await s.execute(
            select(PointsEntry.user_id, PointsEntry.reason, PointsEntry.ref, PointsEntry.delta).order_by(
                PointsEntry.user_id, PointsEntry.reason, PointsEntry.ref
            )
        )
        return [tuple(r) for r in rows]  # type: ignore[misc]


async def _make_rank(e: Env, user_id: int, rank: Rank, at) -> None:
    """Give ``user_id`` ``rank`` as an administrator would, dated ``at`` (the fake clock's time)."""
    async with e.service.sessionmaker() as s, s.begin():
        reason = "grant" if rank.level > (await rank_of(s, user_id)).level else "revoke"
        await set_rank(s, user_id, rank, reason, "test")
        await s.execute(
            update(RankChange).where(RankChange.user_id == user_id, RankChange.new == rank.value).values(at=at)
        )


async def test_a_rated_win_credits_the_winner_once(env):
    alice, bob, _ = env.users
    match_id = await finish_rated(env, alice, bob)
    assert await catch_up(env.service.sessionmaker, AWARDS) == 2
    assert await _entries(env) == [(alice, "rated_win", str(match_id), 10)]
    assert await catch_up(env.service.sessionmaker, AWARDS) == 0  # nothing left, nothing doubled
    async with env.service.sessionmaker() as s:
        assert await balance_of(s, alice) == (10, 10)
        assert await balance_of(s, bob) == (0, 0)
        line = await s.scalar(select(PointsEntry).where(PointsEntry.user_id == alice))
        assert line is not None and line.params == {"match_id": match_id, "game": "battle_runes"}
        assert await rank_of(s, alice) == Rank.KNIGHT


async def test_casual_matches_and_computer_seats_earn_nothing(env):
    alice, bob, _ = env.users
    casual = await finish_rated(env, alice, bob, options={"rated": False})
    # a rated match against the computer: make the person the winner; still nothing (not rated)
    info = await env.service.create_match(alice, "battle_runes", {"rated": True, "turn_seconds": 60}, bots=[BotSeat(1)])
    await env.service.resign(info["id"], alice)
    async with env.service.sessionmaker() as s, s.begin():
        await s.execute(
            update(MatchResult)
            .where(MatchResult.match_id == info["id"], MatchResult.seat == 0)
            .values(result="win", rank=0, computer_finished=False)
        )
        await s.execute(
            update(MatchResult)
            .where(MatchResult.match_id == info["id"], MatchResult.seat == 1)
            .values(result="loss", rank=1)
        )
    # a rated win between people, but the computer finished the winner's seat (they were away)
    away = await finish_rated(env, bob, alice)
    async with env.service.sessionmaker() as s, s.begin():
        await s.execute(
            update(MatchResult)
            .where(MatchResult.match_id == away, MatchResult.result == "win")
            .values(computer_finished=True)
        )
    assert await catch_up(env.service.sessionmaker, AWARDS) == 6
    assert await _entries(env) == []
    assert casual and away


async def test_beating_a_lord_gives_points_and_makes_a_knight_a_master(env):
    alice, bob, carol = env.users
    ended = env.clock.now()
    await _make_rank(env, bob, Rank.LORD, ended - timedelta(hours=1))
    match_id = await finish_rated(env, alice, bob)
    # bob loses the title after the match ended, before the points are counted: what counts is
    # the rank he held when it ended
    await _make_rank(env, bob, Rank.KNIGHT, ended + timedelta(days=1))
    # carol beats bob too, in a match that ended when he was a Knight again
    env.clock.advance(2 * 86400)
    later = await finish_rated(env, carol, bob)
    assert await catch_up(env.service.sessionmaker, AWARDS) == 4
    assert await _entries(env) == [
        (alice, "beat_lord", str(match_id), 25),
        (alice, "rated_win", str(match_id), 10),
        (carol, "rated_win", str(later), 10),
    ]
    async with env.service.sessionmaker() as s:
        assert await rank_of(s, alice) == Rank.MASTER
        assert await rank_of(s, carol) == Rank.KNIGHT
        change = await s.scalar(select(RankChange).where(RankChange.user_id == alice))
        assert change is not None
        assert (change.old, change.new, change.reason, change.ref, change.by_user_id) == (
            "knight",
            "master",
            "beat_lord",
            str(match_id),
            None,
        )


async def test_beating_a_lord_does_not_lower_a_higher_rank_and_thresholds_promote(env):
    alice, bob, _ = env.users
    ended = env.clock.now()
    await _make_rank(env, bob, Rank.LEADER, ended - timedelta(hours=1))
    await _make_rank(env, alice, Rank.LORD, ended - timedelta(hours=1))
    await finish_rated(env, alice, bob)
    await finish_rated(env, bob, alice)  # bob, a Leader, beats a Lord: points, no promotion
    low = Awards(rated_win=10, beat_lord=25, thresholds=RankThresholds(master=30, lord=60, leader=5000))
    assert await catch_up(env.service.sessionmaker, low) == 4
    async with env.service.sessionmaker() as s:
        assert await rank_of(s, alice) == Rank.LORD  # 35 points: over the Master threshold, no lower
        assert await rank_of(s, bob) == Rank.LEADER
        assert await balance_of(s, alice) == (35, 35)
        assert await balance_of(s, bob) == (35, 35)
    carol = env.users[2]
    for _ in range(2):
        await finish_rated(env, carol, bob)
    await catch_up(env.service.sessionmaker, low)
    async with env.service.sessionmaker() as s:
        # a Knight who beats a Leader twice: 70 points lifts carol over the Lord threshold
        assert await balance_of(s, carol) == (70, 70)
        assert await rank_of(s, carol) == Rank.LORD
        reasons = list(
            await s.scalars(select(RankChange.reason).where(RankChange.user_id == carol).order_by(RankChange.id))
        )
        # the first win over the Leader makes her a Master (beat_lord), the second's points a Lord
        assert reasons == ["beat_lord", "threshold"]


async def test_the_end_of_a_match_delivered_twice_concurrently_credits_once(env):
    alice, bob, _ = env.users
    match_id = await finish_rated(env, alice, bob)
    other_engine = make_engine(env.url)
    other = make_sessionmaker(other_engine)
    outcomes: list[str] = []

    async def deliver(sessionmaker) -> None:
        try:
            async with sessionmaker() as session, session.begin():
                rows = (
                    (await session.execute(select(MatchResult).where(MatchResult.match_id == match_id))).scalars().all()
                )
                await apply_points(session, rows, AWARDS)
                await asyncio.sleep(0.3)  # the other delivery runs into this one's lock meanwhile
            outcomes.append("committed")
        except IntegrityError:
            outcomes.append("refused")

    try:
        for _ in range(2):
            await asyncio.gather(deliver(env.service.sessionmaker), deliver(other))
    finally:
        await other_engine.dispose()
    assert len(outcomes) == 4
    assert await _entries(env) == [(alice, "rated_win", str(match_id), 10)]


@pytest.mark.parametrize("limit", [1, 3])
async def test_two_processes_claiming_at_once_credit_each_win_once(env, limit):
    alice, bob, carol = env.users
    pairs = [(alice, bob), (bob, carol), (carol, alice), (alice, bob), (bob, alice), (carol, bob)]
    matches = [await finish_rated(env, w, lo) for w, lo in pairs]
    other_engine = make_engine(env.url)
    other = make_sessionmaker(other_engine)
    handle = handler(AWARDS)
    try:
        for _ in range(50):
            got = await asyncio.gather(
                claim(env.service.sessionmaker, CONSUMER, handle, limit=limit),
                claim(other, CONSUMER, handle, limit=limit),
                return_exceptions=True,
            )
            errors = [g for g in got if isinstance(g, Exception)]
            assert all(isinstance(g, IntegrityError) for g in errors), errors
            if got == [0, 0]:
                break
    finally:
        await other_engine.dispose()
    expected = sorted((w, "rated_win", str(m), 10) for (w, _), m in zip(pairs, matches, strict=True))
    assert sorted(await _entries(env)) == expected
    async with env.service.sessionmaker() as s:
        for user in (alice, bob, carol):
            wins = sum(1 for w, _ in pairs if w == user)
            assert await balance_of(s, user) == (10 * wins, 10 * wins)


async def test_a_crash_in_the_middle_and_a_restart_lose_and_double_nothing(env):
    alice, bob, _ = env.users
    matches = [await finish_rated(env, alice, bob) for _ in range(3)]
    handle = handler(AWARDS)

    async def crashing(session, rows):
        await handle(session, rows)
        raise RuntimeError("the process died before the commit")

    with pytest.raises(RuntimeError):
        await claim(env.service.sessionmaker, CONSUMER, crashing, limit=2)
    assert await _entries(env) == []
    assert await claim(env.service.sessionmaker, CONSUMER, handle, limit=2) == 2
    engine = make_engine(env.url)  # the process restarts: a new engine goes on where it stopped
    try:
        restarted = make_sessionmaker(engine)
        assert await catch_up(restarted, AWARDS, limit=1) == 4
        assert await catch_up(restarted, AWARDS) == 0
    finally:
        await engine.dispose()
    assert sorted(await _entries(env)) == sorted((alice, "rated_win", str(m), 10) for m in matches)


async def test_the_consumer_runs_in_the_app(env):
    """The lifespan starts it: a match finished through the service is credited within moments."""
    from app.points.consumer import start

    alice, bob, _ = env.users
    task = start(env.service.sessionmaker, env.service.hub, env.service.settings, poll_seconds=0.2)
    try:
        match_id = await finish_rated(env, alice, bob)
        for _ in range(200):
            if await _entries(env):
                break
            await asyncio.sleep(0.05)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert await _entries(env) == [(alice, "rated_win", str(match_id), env.service.settings.points_rated_win)]
    async with env.service.sessionmaker() as s:
        assert await s.scalar(select(Match.origin).where(Match.id == match_id)) == "rated"
