"""Async engine and session factory."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

from app.jsontext import dumps


def make_engine(url: str, **kwargs: object) -> AsyncEngine:
    """An async engine for ``url``. SQLite gets WAL mode, foreign keys and a busy timeout, so the
    single-process default survives concurrent readers. JSON columns are written by
    :func:`app.jsontext.dumps` (orjson).

    :param kwargs: passed to ``create_async_engine`` (``pool_size``, ``max_overflow``,
        ``pool_timeout`` in seconds: a checkout that waits longer raises
        ``sqlalchemy.exc.TimeoutError``, which requests answer with 503 ``busy``).
    """
    if url.startswith("sqlite"):
        engine = create_async_engine(url, connect_args={"timeout": 30}, json_serializer=dumps, **kwargs)

        @event.listens_for(engine.sync_engine, "connect")
        def _sqlite_pragmas(dbapi_conn, _record):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA foreign_keys=ON")
            _wal(cur)
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # No ping before each checkout (a round trip per transaction on the action path): a connection
    # the server dropped fails its first use, is discarded, and the pool opens a new one; old ones
    # are replaced after half an hour.
    return create_async_engine(url, pool_recycle=1800, json_serializer=dumps, **kwargs)


def _wal(cur: Any, attempts: int = 50) -> None:
    """Put the SQLite file in WAL mode (once: the mode is kept in the file). Switching needs the
    file to itself and does not wait for SQLite's busy timeout, so a connection that opens while
    another writes (the sweeper's first heartbeat, at start) tries again for up to a second."""
    for attempt in range(attempts):
        try:
            cur.execute("PRAGMA journal_mode")
            if str(cur.fetchone()[0]).lower() != "wal":
                cur.execute("PRAGMA journal_mode=WAL")
            return
        except Exception as exc:  # the driver's OperationalError, whichever adapter raised it
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.02)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


def make_lookup_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for the lookup of the user behind each request and socket (one ``SELECT``, and
    now and then an ``UPDATE`` committed at once): on PostgreSQL in autocommit, so a lookup is one
    round trip instead of three (``BEGIN``, the ``SELECT``, ``ROLLBACK``). It shares ``engine``'s
    pool; SQLAlchemy sets the isolation level at checkout and restores it when the connection goes
    back. SQLite: the same sessions as :func:`make_sessionmaker` (a transaction there costs no
    round trip)."""
    if engine.dialect.name == "postgresql":
        engine = engine.execution_options(isolation_level="AUTOCOMMIT")
    return make_sessionmaker(engine)


async def session_scope(factory: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """Yield a session and close it (a FastAPI dependency body)."""
    async with factory() as session:
        yield session
