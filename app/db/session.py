"""Async engine and session factory."""

from __future__ import annotations

from collections.abc import AsyncIterator

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
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.close()

        return engine
    # No ping before each checkout (a round trip per transaction on the action path): a connection
    # the server dropped fails its first use, is discarded, and the pool opens a new one; old ones
    # are replaced after half an hour.
    return create_async_engine(url, pool_recycle=1800, json_serializer=dumps, **kwargs)


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions that keep loaded objects usable after commit."""
    return async_sessionmaker(engine, expire_on_commit=False)


async def session_scope(factory: async_sessionmaker[AsyncSession]) -> AsyncIterator[AsyncSession]:
    """Yield a session and close it (a FastAPI dependency body)."""
    async with factory() as session:
        yield session
