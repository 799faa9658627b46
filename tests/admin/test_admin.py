"""Administrators (issue 13, item 5): ``scripts/admin.py`` makes and unmakes them; only they may
grant or revoke a rank or adjust points, each change with its audit rows (``admin_actions`` with
the note, ``rank_changes`` with ``by_user_id`` / the ledger row with the action as ``ref``); a
refusal changes nothing. Service on SQLite and PostgreSQL; the routes through the app."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.admin import service
from app.admin.models import AdminAction
from app.db.session import make_engine, make_sessionmaker
from app.errors import DomainError
from app.points.ledger import balance_of
from app.points.models import PlayerPoints, PointsEntry, RankChange
from app.points.ranks import Rank, RankThresholds, rank_of
from app.users.models import User
from scripts.admin import main as admin_script
from tests.conftest import run

THRESHOLDS = RankThresholds(master=100, lord=300, leader=600)


@dataclass
class Db:
    url: str
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    users: dict[str, int]

    async def do(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        async with self.sessions() as s:
            return await fn(s, *args, **kwargs)

    async def audit(self) -> tuple[list[Any], list[Any], list[Any], list[Any]]:
        """Every audit and points row, and every rank: what a refusal must leave as it was."""
        async with self.sessions() as s:
            actions = [
                (a.by_user_id, a.user_id, a.kind, a.params, a.note) for a in await s.scalars(select(AdminAction))
            ]
            changes = [
                (c.user_id, c.old, c.new, c.reason, c.ref, c.by_user_id) for c in await s.scalars(select(RankChange))
            ]
            ledger = [(e.user_id, e.delta, e.reason, e.ref) for e in await s.scalars(select(PointsEntry))]
            ranks = list((await s.execute(select(User.name, User.rank, User.is_admin).order_by(User.id))).all())
        return actions, changes, ledger, ranks


@pytest.fixture
async def db(db_url) -> AsyncIterator[Db]:
    engine = make_engine(db_url)
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        users = [User(name=n, name_key=n.lower(), password_hash="x") for n in ("Root", "ann", "bob")]
        s.add_all(users)
        await s.flush()
        ids = {u.name: u.id for u in users}
        await s.execute(update(User).where(User.id == ids["Root"]).values(is_admin=True))
    yield Db(db_url, engine, sessions, ids)
    await engine.dispose()


async def test_an_administrator_grants_and_revokes_a_rank_with_audit_rows(db):
    root = db.users["Root"]
    got = await db.do(service.set_player_rank, root, "ANN", Rank.LORD, "won the regional cup")
    assert (got["old"], got["new"], got["changed"], got["user"]["rank"]) == ("knight", "lord", True, "lord")
    got = await db.do(service.set_player_rank, root, "ann", Rank.MASTER, "  too soon  ")
    assert (got["old"], got["new"], got["changed"]) == ("lord", "master", True)
    actions, changes, _, _ = await db.audit()
    ids = [a.id for a in await db.do(lambda s: s.scalars(select(AdminAction).order_by(AdminAction.id)))]
    assert actions == [
        (root, db.users["ann"], "rank", {"old": "knight", "new": "lord"}, "won the regional cup"),
        (root, db.users["ann"], "rank", {"old": "lord", "new": "master"}, "too soon"),
    ]
    assert changes == [
        (db.users["ann"], "knight", "lord", "grant", str(ids[0]), root),
        (db.users["ann"], "lord", "master", "revoke", str(ids[1]), root),
    ]
    # the same rank again: nothing written
    before = await db.audit()
    got = await db.do(service.set_player_rank, root, "ann", Rank.MASTER)
    assert got["changed"] is False and got["action_id"] is None
    assert await db.audit() == before
    listed = await db.do(service.actions_on, root, "ann")
    assert [a["note"] for a in listed["actions"]] == ["too soon", "won the regional cup"]
    assert listed["actions"][0]["by"] == {"id": root, "name": "Root"}


async def test_an_administrator_adjusts_points_never_below_zero(db):
    root, ann = db.users["Root"], db.users["ann"]
    got = await db.do(service.adjust_points, root, "ann", 150, "tournament prize by hand", thresholds=THRESHOLDS)
    assert (got["delta"], got["balance"], got["user"]["rank"]) == (150, 150, "master")  # the threshold
    got = await db.do(service.adjust_points, root, "ann", -40, "refund", thresholds=THRESHOLDS)
    assert got["balance"] == 110
    actions, changes, ledger, _ = await db.audit()
    action_ids = [a.id for a in await db.do(lambda s: s.scalars(select(AdminAction).order_by(AdminAction.id)))]
    assert ledger == [(ann, 150, "adjust", str(action_ids[0])), (ann, -40, "adjust", str(action_ids[1]))]
    assert [a[3] for a in actions] == [{"delta": 150, "balance_after": 150}, {"delta": -40, "balance_after": 110}]
    assert [(c[3], c[2]) for c in changes] == [("threshold", "master")]
    before = await db.audit()
    with pytest.raises(DomainError) as caught:
        await db.do(service.adjust_points, root, "ann", -111, "", thresholds=THRESHOLDS)
    assert (caught.value.code, caught.value.params) == (
        "conflict",
        {"reason": "insufficient_points", "balance": 110, "cost": 111},
    )
    assert await db.audit() == before  # not even the action row
    async with db.sessions() as s:
        assert await balance_of(s, ann) == (110, 150)


@pytest.mark.parametrize(
    "call",
    [
        lambda db, actor: db.do(service.set_player_rank, actor, "bob", Rank.LEADER, "me"),
        lambda db, actor: db.do(service.adjust_points, actor, "bob", 500, "", thresholds=THRESHOLDS),
        lambda db, actor: db.do(service.actions_on, actor, "bob"),
    ],
    ids=["rank", "points", "actions"],
)
async def test_a_player_who_is_not_an_administrator_is_refused_and_nothing_changes(db, call):
    before = await db.audit()
    for actor in (db.users["ann"], db.users["bob"], 999_999):  # another player, the player, nobody
        with pytest.raises(DomainError) as caught:
            await call(db, actor)
        assert (caught.value.code, caught.value.params) == ("forbidden", {"reason": "not_admin"})
    assert await db.audit() == before


async def test_unknown_players_and_bad_input_are_refused(db):
    root = db.users["Root"]
    before = await db.audit()
    for fn, args, kwargs, expected in (
        (service.set_player_rank, ("nobody", Rank.LORD), {}, ("not_found", {"name": "nobody"})),
        (
            service.adjust_points,
            ("ann", 0),
            {"thresholds": THRESHOLDS},
            ("validation_error", {"field": "delta", "errors": []}),
        ),
        (
            service.set_player_rank,
            ("ann", Rank.LORD, "x" * 201),
            {},
            ("validation_error", {"field": "note", "errors": []}),
        ),
    ):
        with pytest.raises(DomainError) as caught:
            await db.do(fn, root, *args, **kwargs)
        assert (caught.value.code, caught.value.params) == expected
    assert await db.audit() == before


# --- scripts/admin.py --------------------------------------------------------------------------


def test_the_admin_script_grants_and_revokes(sqlite_url, capsys):
    async def add() -> None:
        engine = make_engine(sqlite_url)
        async with make_sessionmaker(engine)() as s, s.begin():
            s.add(User(name="Alice", name_key="alice", password_hash="x"))
        await engine.dispose()

    async def is_admin() -> bool:
        engine = make_engine(sqlite_url)
        async with make_sessionmaker(engine)() as s:
            value = await s.scalar(select(User.is_admin).where(User.name_key == "alice"))
        await engine.dispose()
        return bool(value)

    run(add())
    assert admin_script(["grant", "ALICE", "--url", sqlite_url]) == 0
    assert run(is_admin())
    assert admin_script(["grant", "alice", "--url", sqlite_url]) == 0
    assert admin_script(["list", "--url", sqlite_url]) == 0
    assert admin_script(["revoke", "alice", "--url", sqlite_url]) == 0
    assert not run(is_admin())
    assert admin_script(["revoke", "nobody", "--url", sqlite_url]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        "Alice: administrator",
        "Alice: administrator (unchanged)",
        "Alice",
        "Alice: not an administrator",
    ]
    assert "no player 'nobody'" in err


# --- the routes --------------------------------------------------------------------------------


def _login(client, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _make_admin(client, name: str) -> None:
    async def go() -> None:
        async with client.app.state.sessionmaker() as s, s.begin():
            await s.execute(update(User).where(User.name_key == name).values(is_admin=True))

    client.portal.call(go)


def test_the_admin_routes_refuse_everyone_but_administrators(client):
    root, ann = _login(client, "root"), _login(client, "ann")
    _make_admin(client, "root")
    for path, body in (
        ("/api/admin/users/ann/rank", {"rank": "lord", "note": "cup"}),
        ("/api/admin/users/ann/points", {"delta": 50, "note": "cup"}),
    ):
        r = client.post(path, json=body)
        assert (r.status_code, r.json()["error"]["code"]) == (401, "unauthorized")
        r = client.post(path, json=body, headers=ann)
        assert (r.status_code, r.json()["error"]["code"], r.json()["error"]["params"]) == (
            403,
            "forbidden",
            {"reason": "not_admin"},
        )
    r = client.get("/api/users/ann/points")
    assert r.json()["user"]["rank"] == "knight" and r.json()["ledger"] == []
    r = client.post("/api/admin/users/ann/rank", json={"rank": "lord", "note": "cup"}, headers=root)
    assert r.status_code == 200 and r.json()["changed"] and r.json()["user"]["rank"] == "lord"
    r = client.post("/api/admin/users/ann/points", json={"delta": 50, "note": "cup"}, headers=root)
    assert r.status_code == 200 and r.json()["balance"] == 50
    r = client.post("/api/admin/users/ann/points", json={"delta": 0}, headers=root)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "validation_error")
    r = client.post("/api/admin/users/ann/points", json={"delta": -51}, headers=root)
    assert (r.status_code, r.json()["error"]["params"]["reason"]) == (409, "insufficient_points")
    r = client.post("/api/admin/users/nobody/rank", json={"rank": "lord"}, headers=root)
    assert (r.status_code, r.json()["error"]["code"]) == (404, "not_found")
    r = client.get("/api/admin/users/ann/actions", headers=root)
    assert [a["kind"] for a in r.json()["actions"]] == ["points", "rank"]
    assert client.get("/api/admin/users/ann/actions", headers=ann).status_code == 403
    # the rank shows beside the name: in the API and on the profile
    assert client.get("/api/users/me", headers=ann).json()["rank"] == "lord"
    points = client.get("/api/users/ann/points").json()
    assert points["balance"] == 50 and [line["reason"] for line in points["ledger"]] == ["adjust"]
    assert "note" not in str(points["ledger"])  # the note stays with the administrators
    page = client.get("/users/ann").text
    assert 'class="rank-badge" data-rank="lord"' in page and "Adjusted by an administrator" in page


async def _count(db: Db, model: Any) -> int:
    async with db.sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(model)) or 0)


async def test_a_refused_adjustment_leaves_no_points_row(db):
    root = db.users["Root"]
    with pytest.raises(DomainError):
        await db.do(service.adjust_points, root, "bob", -1, thresholds=THRESHOLDS)
    assert await _count(db, PlayerPoints) == 0 and await _count(db, AdminAction) == 0
    async with db.sessions() as s:
        assert await rank_of(s, db.users["bob"]) == Rank.KNIGHT
