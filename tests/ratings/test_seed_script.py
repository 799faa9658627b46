"""``scripts/seed_ratings.py`` on a tiny database (the suite never runs the big seed): it migrates,
seeds consistent rows, and times the real reads."""

from __future__ import annotations

import asyncio
import importlib.util
import os

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.db.session import make_engine, make_sessionmaker
from app.ratings import reads
from app.settings import ROOT
from tests.conftest import postgres_url, require_postgres

pytestmark = pytest.mark.postgres


def _script():
    spec = importlib.util.spec_from_file_location("seed_ratings", ROOT / "scripts" / "seed_ratings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_the_seed_script_on_a_tiny_database(capsys):
    admin_url = require_postgres()
    url = postgres_url(f"arena_seed_smoke_{os.getpid()}")
    script = _script()
    try:
        assert await script.main(["--url", url, "--fresh", "--players", "60", "--matches", "400", "--repeat", "1"]) == 0
        out = capsys.readouterr().out
        assert "matches 400" in out and "match_results 800" in out and "rating_changes 800" in out
        assert "ladder page 1 (visitor)" in out and "profile of the busiest player" in out
        engine = make_engine(url)
        try:
            async with engine.connect() as conn:
                # every seat of every match is a different player and has its result and change
                same = await conn.scalar(
                    text(
                        "SELECT count(*) FROM match_results a JOIN match_results b ON a.match_id = b.match_id "
                        "AND a.seat < b.seat WHERE a.user_id = b.user_id"
                    )
                )
                assert same == 0
                games = await conn.scalar(text("SELECT sum(games) FROM ratings"))
                assert games == 800
                assert await conn.scalar(text("SELECT sum(wins + losses + draws) FROM player_records")) == 800
                assert await conn.scalar(text("SELECT sum(players) FROM rating_pools")) == await conn.scalar(
                    text("SELECT count(*) FROM ratings")
                )
                # the ladder's histogram as the consumer keeps it: every rating row counted once
                mismatched = await conn.scalar(
                    text(
                        "SELECT count(*) FROM (SELECT pool, rating, count(*) AS n FROM ratings GROUP BY pool, rating) r "
                        "FULL JOIN rating_counts c USING (pool, rating) WHERE r.n IS DISTINCT FROM c.players"
                    )
                )
                assert mismatched == 0
            async with make_sessionmaker(engine)() as session:
                ladder = await reads.ladder(session, "battle_runes")
                assert len(ladder["rows"]) == min(50, ladder["total"]) and ladder["total"] > 0
                profile = await reads.profile(session, "p1")
                assert profile["ratings"] and profile["recent"]
        finally:
            await engine.dispose()
    finally:
        admin = create_async_engine(admin_url, isolation_level="AUTOCOMMIT")
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "arena_seed_smoke_{os.getpid()}" WITH (FORCE)'))
        await admin.dispose()
        await asyncio.sleep(0)
