"""The throwaway PostgreSQL and Redis a test session starts when none answers (tests/throwaway.py):
they start from the installed binaries, answer, and leave nothing behind when stopped."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.throwaway import Throwaway, answers, postgres_bin, redis_bin


@pytest.mark.slow
def test_throwaway_servers_start_answer_and_go_away():
    if postgres_bin() is None or redis_bin() is None:
        pytest.skip("no PostgreSQL or Redis server binaries to start a throwaway server from")
    servers = Throwaway()
    try:
        pg_url, redis_url = servers.postgres(), servers.redis()
        assert servers.postgres() == pg_url and servers.redis() == redis_url  # started once

        async def ask() -> tuple[str, bytes]:
            engine = create_async_engine(pg_url)
            async with engine.connect() as conn:
                user = (await conn.execute(text("SELECT current_user"))).scalar_one()
            await engine.dispose()
            from redis.asyncio import Redis

            client = Redis.from_url(redis_url + "/3")
            await client.set("k", b"v")
            value = await client.get("k")
            await client.aclose()
            return user, value

        assert asyncio.run(ask()) == ("postgres", b"v")
        ports = [urlsplit(pg_url.replace("+asyncpg", "")).port, urlsplit(redis_url).port]
        dirs = [servers._pg_dir, servers._redis_dir]
        assert all(d is not None and d.exists() for d in dirs)
    finally:
        servers.stop()
    assert not any(answers("127.0.0.1", port) for port in ports)
    assert not any(d.exists() for d in dirs)
    servers.stop()  # twice is harmless
