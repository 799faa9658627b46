"""Alembic environment: async engine from ``DATABASE_URL`` (app settings), batch mode on SQLite."""

from __future__ import annotations

import asyncio
from logging.config import fileConfig

import sqlalchemy as sa
from alembic import context
from sqlalchemy.engine import Connection

from app.db.base import UTCDateTime
from app.db.models import metadata
from app.db.session import make_engine
from app.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    return config.attributes.get("database_url") or get_settings().database_url


def _render_item(type_: str, obj: object, autogen_context) -> str | bool:  # type: ignore[no-untyped-def]
    """Render our column types as plain SQLAlchemy types, so revisions do not import app code."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if type_ == "type" and isinstance(obj, sa.JSON) and obj._variant_mapping:
        autogen_context.imports.add("from sqlalchemy.dialects import postgresql")
        return "sa.JSON().with_variant(postgresql.JSONB(), 'postgresql')"
    return False


def run_migrations_offline() -> None:
    context.configure(url=_url(), target_metadata=metadata, literal_binds=True, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _run(connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:
        # A batch migration on SQLite rebuilds a table: it creates a copy and drops the original.
        # With foreign keys enforced, that drop would fire every ON DELETE of the rows referring to
        # it (SET NULL, CASCADE: a rebuilt ``users`` would empty ``match_results.user_id``), so
        # they are off while migrating (Alembic's advice for batch mode) and checked at the end.
        # The pragma takes effect only outside a transaction: it runs first and is committed.
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        connection.commit()
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()
    if sqlite:
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        connection.commit()
        if broken:
            raise RuntimeError(f"the migration left rows whose foreign keys point nowhere: {broken[:5]}")


async def run_migrations_online() -> None:
    engine = make_engine(_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    asyncio.run(run_migrations_online())
