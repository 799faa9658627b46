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


async def test_table_notices_reach_that_match_s_subscribers_and_the_listeners_of_every_match():
    """Table notices (the roster's, chat lines, rematch changes): a match's subscribers hear only
    its own; a listener of every match (the roster) hears them all, first."""
    hub = LocalHub()
    order: list[tuple[str, int, dict]] = []
    stop_any = hub.subscribe_table_any(lambda m, n: order.append(("any", m, n)))
    stop_one = hub.subscribe_table(1, lambda m, n: order.append(("one", m, n)))
    await hub.publish_table(1, {"chat": {"id": 1}})
    await hub.publish_table(2, {"rematch": {}})
    assert order == [("any", 1, {"chat": {"id": 1}}), ("one", 1, {"chat": {"id": 1}}), ("any", 2, {"rematch": {}})]
    stop_any()
    stop_one()
    await hub.publish_table(1, {"rematch": {}})
    assert len(order) == 3


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
        table: asyncio.Queue[tuple[int, dict]] = asyncio.Queue()
        b.subscribe(42, lambda m, v: received.put_nowait((m, v)))
        b.subscribe_finished(finished.put_nowait)
        b.subscribe_table_any(lambda m, n: table.put_nowait((m, n)))
        await asyncio.sleep(0.1)  # let both subscriptions settle
        await a.publish(42, 5)
        await a.publish(43, 6)  # another match: not delivered to b's subscriber
        await a.publish_finished(42)
        await a.publish_table(43, {"rematch": {}})
        assert await asyncio.wait_for(received.get(), 5) == (42, 5)
        assert await asyncio.wait_for(finished.get(), 5) == 42
        assert await asyncio.wait_for(table.get(), 5) == (43, {"rematch": {}})
        await asyncio.sleep(0.2)
        assert received.empty() and finished.empty() and table.empty()
    finally:
        await a.stop()
        await b.stop()
