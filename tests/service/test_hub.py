"""Change notices between processes: the in-process hub and the Redis hub."""

from __future__ import annotations

import asyncio

import pytest

from app.matches.hub import LocalHub, RedisHub
from tests.conftest import require_redis


async def test_local_hub_delivers_to_subscribers_of_that_match_only():
    hub = LocalHub()
    got: list[tuple[int, int]] = []
    unsubscribe = hub.subscribe(1, lambda m, v: got.append((m, v)))
    hub.subscribe(2, lambda m, v: got.append((m, -v)))
    await hub.publish(1, 7)
    unsubscribe()
    await hub.publish(1, 8)
    assert got == [(1, 7)]


async def test_local_hub_announces_finished_matches_to_result_consumers():
    hub = LocalHub()
    finished: list[int] = []
    versions: list[tuple[int, int]] = []
    unsubscribe = hub.subscribe_finished(finished.append)
    hub.subscribe(3, lambda m, v: versions.append((m, v)))
    await hub.publish_finished(3)
    await hub.publish(3, 9)
    unsubscribe()
    await hub.publish_finished(4)
    assert finished == [3] and versions == [(3, 9)]


@pytest.mark.redis
async def test_redis_hub_reaches_another_process():
    """Two hubs stand for two server processes: a notice published by one reaches the other."""
    url = require_redis(15)
    a, b = RedisHub(url), RedisHub(url)
    await a.start()
    await b.start()
    try:
        received: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        finished: asyncio.Queue[int] = asyncio.Queue()
        b.subscribe(42, lambda m, v: received.put_nowait((m, v)))
        b.subscribe_finished(finished.put_nowait)
        await asyncio.sleep(0.1)  # let both subscriptions settle
        await a.publish(42, 5)
        await a.publish(43, 6)  # another match: not delivered to b's subscriber
        await a.publish_finished(42)
        assert await asyncio.wait_for(received.get(), 5) == (42, 5)
        assert await asyncio.wait_for(finished.get(), 5) == 42
        await asyncio.sleep(0.2)
        assert received.empty() and finished.empty()
    finally:
        await a.stop()
        await b.stop()
