"""Change notices between processes: the in-process hub and the Redis hub."""

from __future__ import annotations

import asyncio

import pytest

from app.matches.hub import LocalHub, RedisHub
from tests.conftest import require_service


async def test_local_hub_delivers_to_subscribers_of_that_match_only():
    hub = LocalHub()
    got: list[tuple[int, int]] = []
    unsubscribe = hub.subscribe(1, lambda m, v: got.append((m, v)))
    hub.subscribe(2, lambda m, v: got.append((m, -v)))
    await hub.publish(1, 7)
    unsubscribe()
    await hub.publish(1, 8)
    assert got == [(1, 7)]


@pytest.mark.redis
async def test_redis_hub_reaches_another_process():
    """Two hubs stand for two server processes: a notice published by one reaches the other."""
    require_service("Redis", "127.0.0.1", 6379)
    a, b = RedisHub("redis://127.0.0.1:6379/15"), RedisHub("redis://127.0.0.1:6379/15")
    await a.start()
    await b.start()
    try:
        received: asyncio.Queue[tuple[int, int]] = asyncio.Queue()
        b.subscribe(42, lambda m, v: received.put_nowait((m, v)))
        await asyncio.sleep(0.1)  # let both subscriptions settle
        await a.publish(42, 5)
        await a.publish(43, 6)  # another match: not delivered to b's subscriber
        assert await asyncio.wait_for(received.get(), 5) == (42, 5)
        await asyncio.sleep(0.2)
        assert received.empty()
    finally:
        await a.stop()
        await b.stop()
