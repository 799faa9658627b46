"""The consumer seam of :mod:`app.matches.results`: every ``match_results`` row reaches each consumer
exactly once, with concurrent claimers, a failing handler, and a restart; the "match finished"
notice wakes a consumer at once."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from sqlalchemy import func, select

from app.db.session import make_engine, make_sessionmaker
from app.matches import results
from app.matches.models import MatchResult, ResultDelivery
from app.matches.results import claim, consume_forever

NAME = "tally_test"


async def _finished_matches(env, count):
    """``count`` finished two-seat tally matches: ``2 * count`` result rows."""
    for _ in range(count):
        info = await env.service.create_match(env.users[0], NAME, {"turn_seconds": 30, "target": 1})
        await env.service.join(info["id"], env.users[1])
        snap = await env.service.snapshot(info["id"], 0)
        await env.service.act(info["id"], env.users[0], {"add": 1}, snap["version"])
    async with env.service.sessionmaker() as s:
        return (await s.execute(select(MatchResult.id).order_by(MatchResult.id))).scalars().all()


def _recorder(seen, delay=0.0):
    async def handler(session, rows):
        if delay:
            await asyncio.sleep(delay)  # hold the claim open while the other claimer tries
        seen.extend(r.id for r in rows)

    return handler


async def test_each_row_reaches_each_consumer_once(env, toy):
    ids = await _finished_matches(env, 3)
    assert len(ids) == 6
    seen: list[int] = []
    batches = []
    while (n := await claim(env.service.sessionmaker, "ratings", _recorder(seen), limit=4)) > 0:
        batches.append(n)
    assert batches == [4, 2] and sorted(seen) == list(ids)
    # another consumer gets every row too, independently
    clans: list[int] = []
    assert await claim(env.service.sessionmaker, "clans", _recorder(clans)) == 6 and sorted(clans) == list(ids)
    # a new match later: only its rows are new
    more = await _finished_matches(env, 1)
    assert await claim(env.service.sessionmaker, "ratings", _recorder(seen)) == 2
    assert sorted(seen) == list(more) and len(set(seen)) == len(seen)


async def test_a_failing_handler_leaves_the_rows_for_the_next_claim(env, toy):
    ids = await _finished_matches(env, 2)

    async def broken(session, rows):
        session.add(ResultDelivery(consumer="noise", result_id=rows[0].id, match_id=rows[0].match_id, seat=0))
        raise RuntimeError("the ratings table is locked")

    with pytest.raises(RuntimeError):
        await claim(env.service.sessionmaker, "ratings", broken)
    async with env.service.sessionmaker() as s:  # nothing of the failed claim was kept
        assert await s.scalar(select(func.count()).select_from(ResultDelivery)) == 0
    seen: list[int] = []
    assert await claim(env.service.sessionmaker, "ratings", _recorder(seen)) == 4
    assert sorted(seen) == list(ids)


async def test_two_concurrent_claimers_split_the_rows(env, toy):
    """Two processes (two engines) claim at the same time, again and again: every row is applied
    once, by one of them."""
    ids = await _finished_matches(env, 5)
    other_engine = make_engine(env.url)
    other = make_sessionmaker(other_engine)
    try:
        seen_a: list[int] = []
        seen_b: list[int] = []
        for _ in range(10):
            got = await asyncio.gather(
                claim(env.service.sessionmaker, "ratings", _recorder(seen_a, 0.05), limit=3),
                claim(other, "ratings", _recorder(seen_b, 0.05), limit=3),
            )
            if got == [0, 0]:
                break
        assert sorted(seen_a + seen_b) == list(ids)
        assert not set(seen_a) & set(seen_b) and seen_a and seen_b
        async with other() as s:
            assert await s.scalar(select(func.count()).select_from(ResultDelivery)) == len(ids)
    finally:
        await other_engine.dispose()


async def test_a_restarted_consumer_goes_on_where_it_stopped(env, toy):
    ids = await _finished_matches(env, 3)
    seen: list[int] = []
    assert await claim(env.service.sessionmaker, "ratings", _recorder(seen), limit=2) == 2
    # the process dies; a new one (a new engine and session factory) claims what is left
    engine = make_engine(env.url)
    try:
        restarted = make_sessionmaker(engine)
        while await claim(restarted, "ratings", _recorder(seen), limit=2):
            pass
    finally:
        await engine.dispose()
    assert sorted(seen) == list(ids) and len(seen) == len(set(seen))


async def test_the_finished_notice_wakes_a_consumer(env, toy):
    seen: list[int] = []
    woke = asyncio.Event()

    async def handler(session, rows):
        seen.extend(r.id for r in rows)
        woke.set()

    task = asyncio.create_task(
        consume_forever(env.service.sessionmaker, env.service.hub, "ratings", handler, poll_seconds=3600)
    )
    try:
        await asyncio.sleep(0.2)  # the first claim found nothing; now it waits for a notice
        assert seen == []
        ids = await _finished_matches(env, 1)
        await asyncio.wait_for(woke.wait(), 10)  # far sooner than the hour of polling
        assert sorted(seen) == list(ids)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_wake_up_claim_looks_past_the_floor_and_a_full_claim_finds_a_row_left_below(env, toy, monkeypatch):
    """A claim after a finish reads only the rows newer than the newest one the consumer applied
    (less a window), so its cost does not grow with the table; a row below that floor (its
    transaction committed very late) is applied by the next full claim, which the loop makes at
    start and every poll."""
    monkeypatch.setattr(results, "FLOOR_WINDOW", 1)
    ids = await _finished_matches(env, 3)
    async with env.service.sessionmaker() as s, s.begin():  # the newest four applied, the two oldest not
        for r in (await s.execute(select(MatchResult).where(MatchResult.id.in_(ids[2:])))).scalars():
            s.add(ResultDelivery(consumer="ratings", result_id=r.id, match_id=r.match_id, seat=r.seat))
    seen: list[int] = []
    assert await claim(env.service.sessionmaker, "ratings", _recorder(seen), full=False) == 0
    more = (await _finished_matches(env, 1))[-2:]
    assert await claim(env.service.sessionmaker, "ratings", _recorder(seen), full=False) == 2
    assert seen == list(more)
    assert await claim(env.service.sessionmaker, "ratings", _recorder(seen), full=True) == 2
    assert sorted(seen) == sorted([*more, *ids[:2]])


async def test_the_loop_starts_with_a_full_claim(env, toy, monkeypatch):
    monkeypatch.setattr(results, "FLOOR_WINDOW", 1)
    ids = await _finished_matches(env, 2)
    async with env.service.sessionmaker() as s, s.begin():  # only the newest row applied
        r = await s.get(MatchResult, ids[-1])
        s.add(ResultDelivery(consumer="ratings", result_id=r.id, match_id=r.match_id, seat=r.seat))
    seen: list[int] = []
    task = asyncio.create_task(
        consume_forever(env.service.sessionmaker, env.service.hub, "ratings", _recorder(seen), poll_seconds=3600)
    )
    try:
        for _ in range(400):
            if len(seen) == 3:
                break
            await asyncio.sleep(0.05)
        assert sorted(seen) == list(ids[:-1])
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
