"""Fixtures for the match service: services on the test database with a fake clock.

Computer moves run in the real bot worker pool (processes), which also imports the test-only game
of :mod:`tests.service.toy_game`; the ``toy`` fixture registers that game in the test process for
one test.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from app.db.session import make_engine, make_sessionmaker
from app.matches.clock import FakeClock
from app.matches.hub import LocalHub
from app.matches.service import MatchService
from app.users.models import User
from tests.conftest import make_settings

#: the bot workers of these tests also know the test-only game
WORKER_IMPORTS = ["tests.service.toy_game"]


@dataclass
class Env:
    service: MatchService
    clock: FakeClock
    users: list[int]
    url: str

    def other_service(self) -> MatchService:
        """A second service on the same database, as a second server process would have."""
        engine = make_engine(self.url)
        self._engines.append(engine)
        return MatchService(make_sessionmaker(engine), LocalHub(), settings=self.service.settings, clock=self.clock)


@pytest.fixture
async def env(db_url):
    settings = make_settings(db_url, bot_worker_imports=WORKER_IMPORTS)
    engine = make_engine(db_url)
    sessionmaker = make_sessionmaker(engine)
    clock = FakeClock()
    service = MatchService(sessionmaker, LocalHub(), settings=settings, clock=clock)
    async with sessionmaker() as session, session.begin():
        users = [User(name=n, name_key=n.lower(), password_hash="x") for n in ("alice", "bob", "carol")]
        session.add_all(users)
        await session.flush()
        ids = [u.id for u in users]
    e = Env(service, clock, ids, db_url)
    e._engines = [engine]
    yield e
    await service.stop_workers()
    for eng in e._engines:
        await eng.dispose()


@pytest.fixture
def toy():
    """The test-only game ``tally_test`` (:mod:`tests.service.toy_game`), registered for one test."""
    from tests.service import toy_game

    toy_game.install()
    yield toy_game
    toy_game.uninstall()
