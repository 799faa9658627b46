"""Two consumers of ``match_results`` side by side (the ratings and the challenges): the row locks
of one consumer's claim make the other's claim skip those rows (PostgreSQL ``SKIP LOCKED``), and
it must not then wait for its next poll: ``consume_forever`` claims again within
``RETRY_SECONDS`` while rows it has not applied remain. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from app.matches.hub import LocalHub
from app.matches.results import consume_forever
from tests.service.conftest import Env, env  # noqa: F401  (the fixture, shared)


async def test_a_consumer_does_not_wait_for_its_poll_while_another_holds_the_rows(env: Env) -> None:  # noqa: F811
    alice, bob, _ = env.users
    info = await env.service.create_match(alice, "battle_runes", {"turn_seconds": 60})
    await env.service.join(info["id"], bob)
    await env.service.resign(info["id"], bob)
    sessions, hub = env.service.sessionmaker, LocalHub()
    holding, seen = asyncio.Event(), []

    async def slow(session, rows) -> None:
        holding.set()
        await asyncio.sleep(1.5)  # its claim's transaction (and row locks) stay open meanwhile

    async def fast(session, rows) -> None:
        seen.extend(r.id for r in rows)

    tasks = [asyncio.create_task(consume_forever(sessions, hub, "slow", slow, poll_seconds=120))]
    try:
        await asyncio.wait_for(holding.wait(), 30)
        tasks.append(asyncio.create_task(consume_forever(sessions, hub, "fast", fast, poll_seconds=120)))
        async with asyncio.timeout(30):  # far less than the poll: the retry, not the poll, delivers
            while len(seen) < 2:
                await asyncio.sleep(0.05)
        assert len(seen) == len(set(seen)) == 2
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
