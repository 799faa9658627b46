"""Alembic migrations build exactly the models' schema, on SQLite and on PostgreSQL."""

from __future__ import annotations

import os

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.settings import ROOT
from tests.conftest import postgres_url, require_postgres, run


def _config(url: str) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["database_url"] = url
    cfg.attributes["configure_logger"] = False
    return cfg


def _upgrade_check_downgrade(url: str) -> None:
    cfg = _config(url)
    command.upgrade(cfg, "head")
    command.check(cfg)  # raises when the models and the migrated schema differ
    command.downgrade(cfg, "base")
    command.upgrade(cfg, "head")


def test_migrations_sqlite(tmp_path):
    _upgrade_check_downgrade(f"sqlite+aiosqlite:///{tmp_path / 'm.db'}")


@pytest.mark.postgres
def test_migrations_postgres():
    admin_url = require_postgres()
    name = f"arena_migrations_test_{os.getpid()}"  # one per test session: sessions may run side by side

    async def recreate(drop_only: bool = False) -> None:
        engine = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            if not drop_only:
                await conn.execute(text(f'CREATE DATABASE "{name}"'))
        await engine.dispose()

    run(recreate())
    try:
        _upgrade_check_downgrade(postgres_url(name))
    finally:
        run(recreate(drop_only=True))
