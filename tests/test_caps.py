"""Per-user caps on decks and API tokens hold under concurrent requests: they are counted with the
user's row locked, in the transaction that adds the row (PostgreSQL and SQLite)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from app.db.session import make_engine, make_sessionmaker
from app.decks import service as decks
from app.decks.models import Deck
from app.errors import DomainError, ErrorCode
from app.games.core import BadAction, get_rules
from app.users import service as users
from app.users.models import ApiToken, User
from tests.conftest import make_settings


@pytest.fixture
def runes_take_decks(monkeypatch):
    """Battle Runes accepts decks of 3 favourite runes (storage tests need a game with decks)."""
    rules = get_rules("battle_runes")

    def validate_deck(self, data):
        if not isinstance(data.get("favourites"), list):
            raise BadAction("favourites must be a list")
        return {"favourites": sorted(data["favourites"])}

    monkeypatch.setattr(type(rules), "validate_deck", validate_deck)


async def _race(url: str, attempts: int, make):
    """Run ``make(session, i)`` ``attempts`` times at once, each in its own session; returns
    (how many succeeded, the codes of the refusals)."""
    engine = make_engine(url, **({} if url.startswith("sqlite") else {"pool_size": attempts}))
    sessionmaker = make_sessionmaker(engine)
    async with sessionmaker() as session:
        user = User(name="racer", name_key="racer", password_hash="x")
        session.add(user)
        await session.commit()
        user_id = user.id

    async def one(i):
        async with sessionmaker() as session:
            u = await session.get(User, user_id)
            try:
                await make(session, u, i)
            except DomainError as exc:
                return exc.code
            return None

    outcomes = await asyncio.gather(*(one(i) for i in range(attempts)))
    async with sessionmaker() as session:
        decks_stored = await session.scalar(select(func.count()).select_from(Deck))
        tokens_stored = await session.scalar(select(func.count()).select_from(ApiToken))
    await engine.dispose()
    return outcomes, decks_stored, tokens_stored


async def test_concurrent_deck_saves_stop_at_the_cap(db_url, runes_take_decks):
    async def save(session, user, i):
        await decks.create_deck(session, user.id, "battle_runes", f"deck {i}", {"favourites": ["S1"]}, limit=3)

    outcomes, stored, _ = await _race(db_url, 12, save)
    assert stored == 3
    assert sorted(map(str, outcomes)) == ["None"] * 3 + [ErrorCode.TOO_MANY_DECKS.value] * 9


async def test_concurrent_token_creations_stop_at_the_cap(db_url):
    async def create(session, user, i):
        await users.create_token(session, user, f"bot {i}", limit=4)

    outcomes, _, stored = await _race(db_url, 12, create)
    assert stored == 4
    assert outcomes.count(ErrorCode.TOO_MANY_TOKENS) == 8


async def test_concurrent_match_creations_stop_at_the_open_match_cap(db_url):
    """``max_open_matches`` waiting matches per player, however many creations arrive at once."""
    from app.matches.clock import FakeClock
    from app.matches.hub import LocalHub
    from app.matches.models import Match
    from app.matches.service import MatchService

    settings = make_settings(db_url, max_open_matches=3)
    engine = make_engine(db_url, **({} if db_url.startswith("sqlite") else {"pool_size": 12}))
    sessionmaker = make_sessionmaker(engine)
    service = MatchService(sessionmaker, LocalHub(), settings=settings, clock=FakeClock())
    async with sessionmaker() as session:
        user = User(name="opener", name_key="opener", password_hash="x")
        session.add(user)
        await session.commit()
        user_id = user.id

    async def create(i):
        try:
            await service.create_match(user_id, "battle_runes")
        except DomainError as exc:
            return exc.code
        return None

    outcomes = await asyncio.gather(*(create(i) for i in range(12)))
    async with sessionmaker() as session:
        stored = await session.scalar(select(func.count()).select_from(Match))
    await service.stop_workers()
    await engine.dispose()
    assert stored == 3
    assert outcomes.count(ErrorCode.TOO_MANY_MATCHES) == 9


def test_caps_over_http(sqlite_url, runes_take_decks):
    from fastapi.testclient import TestClient

    from app.main import create_app

    settings = make_settings(sqlite_url, max_decks_per_user=1, max_tokens_per_user=1)
    with TestClient(create_app(settings)) as client:
        body = {"name": "alice", "password": "correct horse 1"}
        assert client.post("/api/auth/register", json=body).status_code == 201
        token = client.post("/api/auth/token", json=body).json()["token"]
        r = client.post("/api/auth/token", json=body)
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tokens"
        assert r.json()["error"]["params"] == {"limit": 1}
        a = {"Authorization": f"Bearer {token}"}
        deck = {"game": "battle_runes", "name": "one", "data": {"favourites": ["S1"]}}
        assert client.post("/api/decks", json=deck, headers=a).status_code == 201
        r = client.post("/api/decks", json={**deck, "name": "two"}, headers=a)
        assert r.status_code == 429 and r.json()["error"] == {
            "code": "too_many_decks",
            "message": r.json()["error"]["message"],
            "params": {"limit": 1},
        }
        # logging in (a browser session) is not an API token and is not capped
        assert client.post("/api/auth/login", json=body).status_code == 200
