"""The table across two real server processes (PostgreSQL and the Redis hub): a player connected
to one process is seen as connected by a player on the other, their leaving is seen too, and a
quick-chat line said on one reaches the other."""

from __future__ import annotations

import asyncio
import json
import os

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import connect

from tests.conftest import PG_ADMIN_URL, require_service
from tests.servers import ServerProcess, migrate, server_env
from tests.service.test_processes import _create, _token

pytestmark = pytest.mark.slow


async def _next(ws, kind: str, timeout: float = 10) -> dict:
    """The next frame of type ``kind`` (others skipped)."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if frame["type"] == kind:
            return frame


@pytest.mark.postgres
@pytest.mark.redis
async def test_presence_and_chat_cross_two_processes(tmp_path):
    require_service("PostgreSQL", "127.0.0.1", 5432)
    require_service("Redis", "127.0.0.1", 6379)
    name = f"arena_table_processes_test_{os.getpid()}"  # one per test session
    admin = create_async_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    env = server_env(url, REDIS_URL="redis://127.0.0.1:6379/13")
    migrate(env)
    servers = [ServerProcess(env, tmp_path / f"server{i}.log").start() for i in range(2)]
    try:
        a, b = _token(servers[0].base_url, "tabla"), _token(servers[0].base_url, "tablb")
        match_id = _create(servers[0].base_url, a, b, {"turn_seconds": 120, "start_score": 500, "win_score": 1000})
        path = f"/ws/matches/{match_id}"
        hello = json.dumps({"type": "hello", "since": 0, "notices": ["presence", "chat"]})
        async with connect(servers[0].ws_url + path, additional_headers=a) as wa:
            await wa.send(hello)
            assert (await _next(wa, "presence"))["connected"] == [0]
            async with connect(servers[1].ws_url + path, additional_headers=b) as wb:
                await wb.send(hello)
                # b's process asks; a's answers: b sees a at once, and a hears of b
                seen = await _next(wb, "presence")
                if seen["connected"] != [0, 1]:
                    seen = await _next(wb, "presence")
                assert seen["connected"] == [0, 1]
                assert (await _next(wa, "presence"))["connected"] == [0, 1]
                await wb.send(json.dumps({"type": "chat", "phrase": "well_played"}))
                line = (await _next(wa, "chat"))["lines"][0]
                assert (line["seat"], line["phrase"]) == (1, "well_played")
            assert (await _next(wa, "presence"))["connected"] == [0]  # b closed on the other process
    finally:
        for s in servers:
            s.stop()
        await admin.dispose()
    for s in servers:
        assert "Traceback" not in s.log(), s.log()[-3000:]
