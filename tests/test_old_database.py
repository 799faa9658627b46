"""A database made by the code before the engine kit (commit 227f582) still works with today's code.

``tests/fixtures/matches_2026_11_29.sqlite`` was made by ``tests/fixtures/make_matches_2026_11_29.py``
with that commit's code: 30 matches of every game and variant (Battle Runes; Stratego Junior Victory,
Quest, Quest with the memory aid; Scratch Wars levels 1-3), finished by result, resignation, timeouts
and abandonment, some still running, one waiting, one cancelled. Today's migrations upgrade it, and
today's engines replay every stored log to exactly the stored snapshot, and play the running
matches on to their end.
"""

from __future__ import annotations

import asyncio
import shutil

from alembic import command
from alembic.config import Config
from sqlalchemy import select

from app.db.session import make_engine, make_sessionmaker
from app.games.core import get_rules
from app.matches.clock import FakeClock
from app.matches.hub import LocalHub
from app.matches.models import Match
from app.matches.service import MatchService
from app.settings import ROOT
from tests.conftest import make_settings

FIXTURE = ROOT / "tests" / "fixtures" / "matches_2026_11_29.sqlite"


def _upgraded_copy(tmp_path) -> str:
    path = tmp_path / "old.sqlite"
    shutil.copy(FIXTURE, path)
    url = f"sqlite+aiosqlite:///{path}"
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["database_url"] = url
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "head")
    command.check(cfg)
    return url


async def test_old_matches_replay_to_their_stored_snapshots(tmp_path):
    url = await asyncio.to_thread(_upgraded_copy, tmp_path)  # alembic runs its own event loop
    engine = make_engine(url)
    service = MatchService(make_sessionmaker(engine), LocalHub(), settings=make_settings(url), clock=FakeClock())
    try:
        async with service.sessionmaker() as session:
            matches = (await session.execute(select(Match).order_by(Match.id))).scalars().all()
        assert len(matches) == 30
        assert {m.status for m in matches} == {"finished", "active", "waiting", "aborted"}
        replayed = 0
        for m in matches:
            if m.state is None:
                continue
            rules = get_rules(m.game, m.options)
            state, pending = await service.rebuild(m.id)
            assert rules.decode_state(m.state) == state, f"match {m.id} ({m.game} {m.options})"
            assert {str(k): rules.encode_action(v) for k, v in pending.items()} == (m.pending or {})
            replayed += 1
        assert replayed == 28
    finally:
        await engine.dispose()


async def test_old_running_matches_play_on_to_their_end(tmp_path):
    url = await asyncio.to_thread(_upgraded_copy, tmp_path)  # alembic runs its own event loop
    engine = make_engine(url)
    clock = FakeClock()
    service = MatchService(make_sessionmaker(engine), LocalHub(), settings=make_settings(url), clock=clock)
    try:
        running = [m["id"] for m in await service.list_matches(status="active")]
        assert len(running) == 7
        for match_id in running:
            for _ in range(5000):
                if (await service.get_match(match_id))["status"] != "active":
                    break
                clock.advance(3600)
                await service.process_match(match_id)
                await service.drain()
            info = await service.get_match(match_id)
            assert info["status"] == "finished", f"match {match_id} did not end"
            state, _ = await service.rebuild(match_id)
            async with service.sessionmaker() as session:
                m = await session.get(Match, match_id)
                assert m is not None
                assert get_rules(m.game, m.options).encode_state(state) == m.state
    finally:
        await engine.dispose()
