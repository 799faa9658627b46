"""Shared fixtures: an app per test on SQLite and on PostgreSQL.

Where the services are: PostgreSQL at ``TEST_POSTGRES_ADMIN_URL`` (default: the local server at
127.0.0.1:5432, user ``postgres``), Redis at ``TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379``).
Tests ask :func:`require_postgres` and :func:`require_redis` for them. When one does not answer:

- in CI (``CI=true``) the tests that need it fail (the running servers are required);
- elsewhere the session starts a throwaway server from the installed binaries
  (:mod:`tests.throwaway`), once, on first need, and stops it at the end; when that is impossible
  (nothing installed) the tests that need it are skipped.

Chromium follows the CI rule too (``tests/browser/conftest.py``). Whatever was skipped, and any
throwaway server used, is summed up in one line at the end of the run (:func:`pytest_terminal_summary`).
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections import Counter
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.settings import Settings
from tests.throwaway import Throwaway, ThrowawayError, answers

#: the configured PostgreSQL (its ``postgres`` database); the one the tests use is
#: :func:`require_postgres`'s (a throwaway server when this one does not answer)
PG_ADMIN_URL = os.environ.get("TEST_POSTGRES_ADMIN_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/postgres")
#: the configured Redis, without a database number
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379").rstrip("/")
PG_DB = f"arena_test_{os.getpid()}"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

#: this session's throwaway servers (started on first need, stopped in :func:`pytest_unconfigure`)
THROWAWAY = Throwaway()
#: the URL each service resolved to, or why it is missing (one look per session)
_resolved: dict[str, str | pytest.skip.Exception] = {}


def require_service(name: str, host: str, port: int) -> None:
    """Skip locally, fail in CI, when ``host:port`` does not answer."""
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        if IN_CI:
            pytest.fail(f"{name} is required in CI but {host}:{port} does not answer")
        pytest.skip(f"{name} not running at {host}:{port}")


def _resolve(name: str, configured: str, start) -> str:
    """``configured`` when its server answers; else, outside CI, a throwaway one (``start()``).

    :raises: fails the test in CI, skips it when no throwaway server can be started.
    """
    if name not in _resolved:
        parts = urlsplit(configured.replace("+asyncpg", ""))
        host, port = parts.hostname or "127.0.0.1", parts.port or (5432 if name == "PostgreSQL" else 6379)
        if answers(host, port):
            _resolved[name] = configured
        elif IN_CI:
            pytest.fail(f"{name} is required in CI but {host}:{port} does not answer")
        else:
            try:
                _resolved[name] = start()
            except ThrowawayError as exc:
                _resolved[name] = pytest.skip.Exception(
                    f"{name} not running at {host}:{port}, and no throwaway server: {exc}"
                )
    found = _resolved[name]
    if isinstance(found, pytest.skip.Exception):
        raise found
    return found


def require_postgres() -> str:
    """The admin URL (database ``postgres``) of the PostgreSQL the tests use: the configured one,
    or a throwaway one (see the module docstring). Skips or fails the calling test when there is none."""
    return _resolve("PostgreSQL", PG_ADMIN_URL, THROWAWAY.postgres)


def require_redis(db: int = 0) -> str:
    """The URL of database ``db`` of the Redis the tests use (``redis://host:port/db``): the
    configured one, or a throwaway one. Skips or fails the calling test when there is none."""
    return f"{_resolve('Redis', REDIS_URL, THROWAWAY.redis)}/{db}"


def postgres_url(database: str) -> str:
    """The URL of ``database`` on the PostgreSQL the tests use (:func:`require_postgres`)."""
    return require_postgres().rsplit("/", 1)[0] + "/" + database


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the throwaway servers, if any ran."""
    THROWAWAY.stop()


#: what a skip's reason says -> how the summary counts it
_SKIP_KINDS = (
    (("chromium", "playwright"), "browser tests (no Chromium)"),
    (("postgresql",), "PostgreSQL tests (no server)"),
    (("redis",), "Redis tests (no server)"),
)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """One line at the end: what was skipped, by kind ("skipped: 12 browser tests (no Chromium),
    2 other (<first reason>)"); and the throwaway servers used, if any."""
    kinds: Counter[str] = Counter()
    other: list[str] = []
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = report.longrepr
        reason = str(longrepr[2] if isinstance(longrepr, tuple) else longrepr).removeprefix("Skipped: ")
        kind = next((k for words, k in _SKIP_KINDS if any(w in reason.lower() for w in words)), None)
        if kind is None:
            other.append(reason)
        else:
            kinds[kind] += 1
    parts = [f"{n} {kind}" for kind, n in kinds.items()]
    if other:
        parts.append(f"{len(other)} other ({other[0]}{'; ...' if len(set(other)) > 1 else ''})")
    if parts:
        terminalreporter.write_line("skipped: " + ", ".join(parts))
    if THROWAWAY.notes:
        terminalreporter.write_line("throwaway servers: " + ", ".join(THROWAWAY.notes))


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


async def _pg_create_database(admin_url: str) -> None:
    engine = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
    async with engine.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{PG_DB}"'))
    await engine.dispose()
    await _create_schema(postgres_url(PG_DB))


async def _pg_drop_database(admin_url: str) -> None:
    engine = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
    async with engine.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))
    await engine.dispose()


async def _pg_truncate(url: str) -> None:
    from app.db.models import metadata

    engine = create_async_engine(url)
    async with engine.begin() as conn:
        names = ", ".join(f'"{t.name}"' for t in metadata.sorted_tables)
        await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    await engine.dispose()


@pytest.fixture(scope="session")
def pg_database() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, dropped at the end."""
    admin = require_postgres()
    run(_pg_create_database(admin))
    yield postgres_url(PG_DB)
    run(_pg_drop_database(admin))


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path) -> str:
    """A database URL with an empty schema: a SQLite file, or the session's PostgreSQL database."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"
        run(_create_schema(url))
        return url
    url = request.getfixturevalue("pg_database")
    run(_pg_truncate(url))
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
