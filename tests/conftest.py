"""Shared fixtures: an app per test on SQLite and on PostgreSQL.

PostgreSQL runs wherever it is reachable at ``TEST_POSTGRES_URL`` (default: the local server); in
CI (``CI=true``) a missing server fails the PostgreSQL cases instead of skipping them. Redis and
Chromium follow the same rule (see :func:`require_service`).
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import Iterator

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.settings import Settings

PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_ADMIN_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
PG_DB = f"arena_test_{os.getpid()}"
PG_URL = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + PG_DB
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require_service(name: str, host: str, port: int) -> None:
    """Skip locally, fail in CI, when ``host:port`` does not answer."""
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        if IN_CI:
            pytest.fail(f"{name} is required in CI but {host}:{port} does not answer")
        pytest.skip(f"{name} not running at {host}:{port}")


def run(coro):
    """Run a coroutine to completion from synchronous test code."""
    return asyncio.run(coro)


async def _create_schema(url: str) -> None:
    from app.db.models import metadata

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(metadata.drop_all)
        await conn.run_sync(metadata.create_all)
    await engine.dispose()


async def _pg_create_database() -> None:
    engine = create_async_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    async with engine.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{PG_DB}"'))
    await engine.dispose()
    await _create_schema(PG_URL)


async def _pg_drop_database() -> None:
    engine = create_async_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    async with engine.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
    await engine.dispose()


async def _pg_truncate() -> None:
    from app.db.models import metadata

    engine = create_async_engine(PG_URL)
    async with engine.begin() as conn:
        names = ", ".join(f'"{t.name}"' for t in metadata.sorted_tables)
        await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    await engine.dispose()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, dropped at the end."""
    require_service("PostgreSQL", "127.0.0.1", 5432)
    run(_pg_create_database())
    yield PG_URL
    run(_pg_drop_database())


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path) -> str:
    """A database URL with an empty schema: a SQLite file, or the session's PostgreSQL database."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
        run(_create_schema(url))
        return url
    url = request.getfixturevalue("pg_database")
    run(_pg_truncate())
    return url


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    """A SQLite database URL with an empty schema (for tests that need one backend only)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
    run(_create_schema(url))
    return url


def make_settings(url: str, **overrides) -> Settings:
    """Test settings on ``url``: no bot delay, generous rate limits unless overridden."""
    values = dict(
        env="test",
        database_url=url,
        secret_key="test-secret-" + "x" * 32,
        bot_delay_seconds=0.0,
        login_rate_limit="1000/minute",
        register_rate_limit="1000/minute",
        ws_rate_limit="1000/second",
        ws_user_rate_limit="1000/second",
        ws_address_rate_limit="1000/second",
        gc_young_threshold=0,  # a freeze would keep every earlier test app's garbage
    )
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(db_url) -> Settings:
    return make_settings(db_url)


@pytest.fixture
def client(settings):
    """A Starlette ``TestClient`` running the app's lifespan (websockets work through it)."""
    from fastapi.testclient import TestClient

    from app.main import create_app

    app = create_app(settings)
    with TestClient(app) as c:
        yield c
