"""Rewards (issue 13, item 6) on SQLite and PostgreSQL: the catalogue, buying (one transaction
through the points ledger: never overspent, never bought twice, also with purchases racing on
separate engines as separate processes would), showing what one owns, and the administrators'
create and update (everyone else refused, nothing changed); the routes and pages through the app."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.session import make_engine, make_sessionmaker
from app.errors import DomainError
from app.points.ledger import balance_of, credit
from app.points.models import PointsEntry
from app.rewards import service
from app.rewards.models import EquippedReward, Reward, RewardPurchase
from app.users.models import User

#: a catalogue like the migration's seed (which create_all does not insert)
CATALOGUE = [
    ("board_oak", "board_theme", 100),
    ("title_rune_keeper", "title", 250),
    ("title_wandering_knight", "title", 150),
]


@dataclass
class Db:
    url: str
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    users: dict[str, int]
    engines: list[AsyncEngine] = field(default_factory=list)

    async def do(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        async with self.sessions() as s:
            return await fn(s, *args, **kwargs)

    async def give(self, name: str, points: int) -> None:
        async with self.sessions() as s, s.begin():
            await credit(s, self.users[name], points, "adjust", f"test:{name}:{points}")

    async def state(self) -> tuple[Any, ...]:
        async with self.sessions() as s:
            rewards = list((await s.execute(select(Reward.code, Reward.kind, Reward.cost, Reward.active))).all())
            bought = list((await s.execute(select(RewardPurchase.user_id, RewardPurchase.reward_id))).all())
            shown = list((await s.execute(select(EquippedReward.user_id, EquippedReward.kind))).all())
            ledger = await s.scalar(select(func.count()).select_from(PointsEntry))
            balances = [await balance_of(s, uid) for uid in self.users.values()]
        return sorted(rewards), sorted(bought), sorted(shown), ledger, balances


@pytest.fixture
async def db(db_url) -> AsyncIterator[Db]:
    engine = make_engine(db_url)
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        users = [User(name=n, name_key=n, password_hash="x") for n in ("root", "ann", "bob")]
        s.add_all(users)
        await s.flush()
        ids = {u.name: u.id for u in users}
        await s.execute(update(User).where(User.id == ids["root"]).values(is_admin=True))
    d = Db(db_url, engine, sessions, ids)
    for code, kind, cost in CATALOGUE:
        await d.do(service.create, ids["root"], code=code, kind=kind, cost=cost)
    yield d
    for e in [engine, *d.engines]:
        await e.dispose()


def _refusal(exc: pytest.ExceptionInfo[DomainError]) -> tuple[str, Any]:
    return exc.value.code, exc.value.params.get("reason")


async def test_buy_show_and_the_catalogue(db):
    ann = db.users["ann"]
    await db.give("ann", 300)
    got = await db.do(service.buy, ann, "title_rune_keeper")
    assert (got["price"], got["balance"]) == (250, 50)
    with pytest.raises(DomainError) as caught:  # a second click
        await db.do(service.buy, ann, "title_rune_keeper")
    assert _refusal(caught) == ("conflict", "already_owned")
    with pytest.raises(DomainError) as caught:  # 50 points left
        await db.do(service.buy, ann, "board_oak")
    assert (caught.value.code, caught.value.params) == (
        "conflict",
        {"reason": "insufficient_points", "balance": 50, "cost": 100},
    )
    assert (await db.do(service.equip, ann, "title", "title_rune_keeper")) == {
        "equipped": {"title": "title_rune_keeper"}
    }
    listing = await db.do(service.catalogue, ann)
    mine = {r["code"]: (r["owned"], r["equipped"]) for r in listing["rewards"]}
    assert mine == {
        "board_oak": (False, False),
        "title_rune_keeper": (True, True),
        "title_wandering_knight": (False, False),
    }
    assert listing["balance"] == 50
    async with db.sessions() as s:
        line = await s.scalar(select(PointsEntry).where(PointsEntry.reason == "reward"))
        assert line is not None and (line.delta, line.params) == (-250, {"reward": "title_rune_keeper"})
    assert (await db.do(service.equip, ann, "title", None)) == {"equipped": {}}
    assert (await db.do(service.owned, ann))["owned"][0]["price"] == 250


async def test_refusals_change_nothing(db):
    ann, bob = db.users["ann"], db.users["bob"]
    await db.give("ann", 200)
    await db.do(service.buy, ann, "board_oak")
    await db.do(service.update, db.users["root"], "title_wandering_knight", active=False)
    before = await db.state()
    for fn, args, expected in (
        (service.buy, (bob, "board_oak"), ("conflict", "insufficient_points")),  # bob has nothing
        (service.buy, (ann, "title_wandering_knight"), ("conflict", "not_for_sale")),
        (service.buy, (ann, "no_such"), ("not_found", "reward")),
        (service.equip, (bob, "board_theme", "board_oak"), ("conflict", "not_owned")),
        (service.equip, (ann, "title", "board_oak"), ("conflict", "wrong_kind")),
        (service.equip, (ann, "hat", "board_oak"), ("validation_error", None)),
        (service.equip, (ann, "title", "no_such"), ("not_found", "reward")),
    ):
        with pytest.raises(DomainError) as caught:
            await db.do(fn, *args)
        assert _refusal(caught) == expected, fn
    assert await db.state() == before
    # ann keeps what is off sale and may still show it; she shows the board she owns
    await db.do(service.equip, ann, "board_theme", "board_oak")
    assert (await db.do(service.owned, ann))["equipped"] == {"board_theme": "board_oak"}


async def test_only_administrators_manage_the_catalogue(db):
    before = await db.state()
    for actor in (db.users["ann"], 999_999):
        for fn, args, kwargs in (
            (service.create, (), {"code": "emblem_owl", "kind": "emblem", "cost": 10}),
            (service.update, ("board_oak",), {"cost": 1}),
            (service.update, ("board_oak",), {"active": False}),
        ):
            with pytest.raises(DomainError) as caught:
                await db.do(fn, actor, *args, **kwargs)
            assert (caught.value.code, caught.value.params) == ("forbidden", {"reason": "not_admin"})
    assert await db.state() == before
    root = db.users["root"]
    assert await db.do(service.create, root, code="emblem_owl", kind="emblem", cost=10) == {
        "code": "emblem_owl",
        "kind": "emblem",
        "cost": 10,
        "active": True,
    }
    assert (await db.do(service.update, root, "emblem_owl", cost=20, active=False))["cost"] == 20
    for kwargs, expected in (
        ({"code": "emblem_owl", "kind": "emblem", "cost": 10}, ("name_taken", None)),
        ({"code": "Bad Code", "kind": "emblem", "cost": 10}, ("validation_error", None)),
        ({"code": "emblem_x", "kind": "hat", "cost": 10}, ("validation_error", None)),
        ({"code": "emblem_x", "kind": "emblem", "cost": 0}, ("validation_error", None)),
    ):
        with pytest.raises(DomainError) as caught:
            await db.do(service.create, root, **kwargs)
        assert _refusal(caught) == expected
    listing = await db.do(service.catalogue, None)
    assert "emblem_owl" not in [r["code"] for r in listing["rewards"]] and listing["balance"] is None
    everything = await db.do(service.catalogue, root, everything=True)
    assert "emblem_owl" in [r["code"] for r in everything["rewards"]]


async def _race(db: Db, calls: list[tuple[Any, tuple[Any, ...]]]) -> list[Any]:
    """Run each ``(fn, args)`` at once, each in a session of a separate engine (a process each)."""
    engines = [make_engine(db.url) for _ in calls]
    db.engines.extend(engines)
    start = asyncio.Event()

    async def one(engine: AsyncEngine, fn: Any, args: tuple[Any, ...]) -> Any:
        async with make_sessionmaker(engine)() as session:
            await start.wait()
            try:
                return await fn(session, *args)
            except DomainError as exc:
                return exc

    tasks = [asyncio.create_task(one(e, fn, a)) for e, (fn, a) in zip(engines, calls, strict=True)]
    await asyncio.sleep(0)
    start.set()
    return await asyncio.gather(*tasks)


async def test_racing_clicks_on_one_reward_buy_it_once(db):
    ann = db.users["ann"]
    await db.give("ann", 1000)
    results = await _race(db, [(service.buy, (ann, "title_rune_keeper"))] * 6)
    bought = [r for r in results if not isinstance(r, DomainError)]
    assert len(bought) == 1
    assert {(e.code, e.params["reason"]) for e in results if isinstance(e, DomainError)} == {
        ("conflict", "already_owned")
    }
    async with db.sessions() as s:
        assert await balance_of(s, ann) == (750, 1000)
        assert await s.scalar(select(func.count()).select_from(RewardPurchase)) == 1


async def test_racing_purchases_of_different_rewards_never_overspend(db):
    ann = db.users["ann"]
    await db.give("ann", 300)  # the three cost 500 together
    codes = ["title_rune_keeper", "title_wandering_knight", "board_oak"]  # 250, 150, 100: 500 in all
    results = await _race(db, [(service.buy, (ann, code)) for code in codes])
    spent = sum(r["price"] for r in results if not isinstance(r, DomainError))
    refused = [r for r in results if isinstance(r, DomainError)]
    assert spent <= 300 and refused
    assert {(e.code, e.params["reason"]) for e in refused} == {("conflict", "insufficient_points")}
    async with db.sessions() as s:
        prices = list(await s.scalars(select(RewardPurchase.price)))
        assert await balance_of(s, ann) == (300 - spent, 300) and sum(prices) == spent


# --- the routes and the page --------------------------------------------------------------------


def _login(client, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_the_reward_routes_and_page(client):
    root, ann = _login(client, "root"), _login(client, "ann")

    async def setup() -> None:
        async with client.app.state.sessionmaker() as s, s.begin():
            await s.execute(update(User).where(User.name_key == "root").values(is_admin=True))
            uid = await s.scalar(select(User.id).where(User.name_key == "ann"))
            await credit(s, uid, 200, "adjust", "test")

    client.portal.call(setup)
    r = client.post("/api/rewards", json={"code": "back_stars", "kind": "card_back", "cost": 120}, headers=ann)
    assert (r.status_code, r.json()["error"]["params"]) == (403, {"reason": "not_admin"})
    r = client.post("/api/rewards", json={"code": "back_stars", "kind": "card_back", "cost": 120}, headers=root)
    assert r.status_code == 201, r.text
    assert client.patch("/api/rewards/back_stars", json={"cost": 130}, headers=ann).status_code == 403
    assert client.patch("/api/rewards/back_stars", json={"cost": 120}, headers=root).json()["cost"] == 120
    assert client.post("/api/rewards/back_stars/buy").status_code == 401
    r = client.post("/api/rewards/back_stars/buy", headers=ann)
    assert r.status_code == 200 and r.json()["balance"] == 80
    r = client.post("/api/rewards/back_stars/buy", headers=ann)
    assert (r.status_code, r.json()["error"]["params"]["reason"]) == (409, "already_owned")
    r = client.post("/api/users/me/equipped", json={"kind": "card_back", "code": "back_stars"}, headers=ann)
    assert r.json() == {"equipped": {"card_back": "back_stars"}}
    listing = client.get("/api/rewards", headers=ann).json()
    assert listing["balance"] == 80 and listing["rewards"][0]["owned"]
    points = client.get("/api/users/ann/points").json()
    assert [line["reason"] for line in points["ledger"]] == ["reward", "adjust"]
    assert points["equipped"] == {"card_back": "back_stars"}
    page = client.get("/rewards", headers=ann).text
    assert "Starry card back" in page and 'id="rewards-balance">80<' in page and "reward-create" not in page
    assert 'id="reward-create"' in client.get("/rewards", headers=root).text
    profile = client.get("/users/ann").text
    assert "Bought Starry card back" in profile and 'data-rank="knight"' in profile
