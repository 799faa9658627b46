"""Alembic migrations build exactly the models' schema, on SQLite and on PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import create_async_engine

from app.clans.models import Clan
from app.decks.models import Deck
from app.settings import ROOT
from app.users.models import User
from app.users.names import skeleton
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


@contextmanager
def _pg_database(suffix: str) -> Iterator[str]:
    """A fresh PostgreSQL database, one per test session (sessions may run side by side), dropped
    at the end."""
    admin_url = require_postgres()
    name = f"arena_migrations_{suffix}_{os.getpid()}"

    async def recreate(drop_only: bool = False) -> None:
        engine = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            if not drop_only:
                await conn.execute(text(f'CREATE DATABASE "{name}"'))
        await engine.dispose()

    run(recreate())
    try:
        yield postgres_url(name)
    finally:
        run(recreate(drop_only=True))


@pytest.mark.postgres
def test_migrations_postgres():
    with _pg_database("test") as url:
        _upgrade_check_downgrade(url)


#: the revision before clan name skeletons and deck name keys
BEFORE_NAME_KEYS = "4d2f8a6c1e93"


def _name_keys_fill_existing_rows(url: str) -> None:
    """The clan and deck names migration fills its columns for the rows already there: live clans
    get their skeleton, a disbanded one none; decks of one player and game whose names differ only
    in case keep the oldest's name and rename the newer ones ``(2)``, ``(3)``."""
    cfg = _config(url)
    command.upgrade(cfg, BEFORE_NAME_KEYS)
    t = datetime(2026, 11, 1, tzinfo=UTC)

    async def fill() -> None:
        engine = create_async_engine(url)
        async with engine.begin() as conn:
            for name in ("ann", "bob"):
                await conn.execute(User.__table__.insert().values(name=name, name_key=name, password_hash="x"))
            ann, bob = (await conn.execute(select(User.id).order_by(User.id))).scalars().all()
            clan = {"tag_key": None, "region": "CZ-64", "colour": "#000000"}
            await conn.execute(Clan.__table__.insert().values(name="Аlpha", name_key="аlpha", tag="ALP", **clan))
            await conn.execute(Clan.__table__.insert().values(name="Gone", name_key=None, tag="GON", **clan))
            decks = [(ann, "anvil", 3), (ann, "Anvil", 1), (ann, "ANVIL", 2), (ann, "Forge", 4), (bob, "ANVIL", 5)]
            for user_id, name, day in decks:
                values = {"user_id": user_id, "game": "battle_runes", "name": name, "data": {}}
                await conn.execute(Deck.__table__.insert().values(**values, created_at=t.replace(day=day)))
        await engine.dispose()

    async def read() -> tuple[list, list]:
        engine = create_async_engine(url)
        async with engine.connect() as conn:
            clans = (await conn.execute(select(Clan.name, Clan.name_skeleton).order_by(Clan.id))).all()
            stmt = select(Deck.user_id, Deck.name, Deck.name_key).order_by(Deck.created_at)
            decks = (await conn.execute(stmt)).all()
        await engine.dispose()
        return [tuple(r) for r in clans], [tuple(r)[1:] for r in decks]

    run(fill())
    command.upgrade(cfg, "head")
    clans, decks = run(read())
    assert clans == [("Аlpha", skeleton("Alpha")), ("Gone", None)]
    assert decks == [
        ("Anvil", "anvil"),
        ("ANVIL (2)", "anvil (2)"),
        ("anvil (3)", "anvil (3)"),
        ("Forge", "forge"),
        ("ANVIL", "anvil"),
    ]
    command.downgrade(cfg, BEFORE_NAME_KEYS)


def test_name_keys_fill_existing_rows_sqlite(tmp_path):
    _name_keys_fill_existing_rows(f"sqlite+aiosqlite:///{tmp_path / 'n.db'}")


@pytest.mark.postgres
def test_name_keys_fill_existing_rows_postgres():
    with _pg_database("names") as url:
        _name_keys_fill_existing_rows(url)
