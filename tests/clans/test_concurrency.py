"""Concurrent joins (issue 13, item 2): joins that race at the member limit never exceed it (the
clan row is locked), and a player who accepts two clans' invitations at once ends in one clan.
Each join runs in its own engine, as in separate server processes; on PostgreSQL (row locks, the
case that matters in production) and on SQLite (its one write lock)."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.clans import service
from app.clans.models import Clan, ClanMember
from app.db.session import make_engine, make_sessionmaker
from app.errors import DomainError
from app.users.models import User
from tests.clans.conftest import World

JOINERS = 6


async def _players(w: World, names: list[str]) -> list[int]:
    async with w.sessions() as s, s.begin():
        users = [User(name=n, name_key=n, password_hash="x") for n in names]
        s.add_all(users)
        await s.flush()
        return [u.id for u in users]


async def _race(w: World, calls) -> list[object]:
    """Run each ``(fn, args, kwargs)`` at once, each in a session of a separate engine."""
    engines = [make_engine(w.url) for _ in calls]
    w.engines.extend(engines)
    start = asyncio.Event()

    async def one(engine, fn, args, kwargs):
        async with make_sessionmaker(engine)() as session:
            await start.wait()
            try:
                return await fn(session, *args, **kwargs)
            except DomainError as exc:
                return exc

    tasks = [asyncio.create_task(one(e, fn, a, k)) for e, (fn, a, k) in zip(engines, calls, strict=True)]
    await asyncio.sleep(0)  # every task is waiting on the event
    start.set()
    return await asyncio.gather(*tasks)


async def test_joins_racing_at_the_member_limit_do_not_exceed_it(world: World) -> None:
    lea = world.users["lea"]
    ids = await _players(world, [f"j{i}" for i in range(JOINERS)])
    requests = [await world.do(service.request_to_join, uid, "ALP", limit=100) for uid in ids]
    limit = 7  # ALP has 5 players: room for 2 of the 6
    # half accepted by the leader, half by an officer, all at once
    officer = world.users["off"]
    calls = [
        (service.accept, (lea if i % 2 else officer, "ALP", r.id), {"limit": limit}) for i, r in enumerate(requests)
    ]
    results = await _race(world, calls)
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(results) - len(refused) == 2
    assert {(e.code, e.params.get("reason")) for e in refused} == {("conflict", "clan_full")}
    async with world.sessions() as s:
        clan = await s.scalar(select(Clan).where(Clan.tag == "ALP"))
        rows = await s.scalar(select(func.count()).select_from(ClanMember).where(ClanMember.clan_id == clan.id))
    assert rows == clan.members == limit


async def test_a_player_accepting_two_invitations_at_once_joins_one_clan(world: World) -> None:
    u = world.users
    a = await world.do(service.invite, u["lea"], "ALP", "fre", limit=100)
    b = await world.do(service.invite, u["oth"], "BET", "fre", limit=100)
    results = await _race(
        world,
        [
            (service.accept, (u["fre"], "ALP", a.id), {"limit": 100}),
            (service.accept, (u["fre"], "BET", b.id), {"limit": 100}),
        ],
    )
    refused = [r for r in results if isinstance(r, DomainError)]
    # refused as already in a clan, or (when the first join committed before the second began)
    # because joining dropped the player's other invitation
    assert len(refused) == 1
    assert (refused[0].code, refused[0].params.get("reason")) in {
        ("conflict", "already_in_clan"),
        ("not_found", "invitation"),
    }
    async with world.sessions() as s:
        memberships = list(await s.scalars(select(ClanMember).where(ClanMember.user_id == u["fre"])))
        counts = {c.tag: c.members for c in await s.scalars(select(Clan))}
        rows = await s.execute(select(Clan.tag, func.count()).join(ClanMember).group_by(Clan.tag))
        real = {tag: n for tag, n in rows}
    assert len(memberships) == 1
    assert counts == real


async def test_two_players_founding_the_same_name_at_once_get_one_clan(world: World) -> None:
    u = world.users
    kw = {"region": "other", "colour": "#000000"}
    results = await _race(
        world,
        [
            (service.found, (u["out"],), {"name": "Gamma", "tag": "GAM", **kw}),
            (service.found, (u["fre"],), {"name": "GAMMA", "tag": "GAM2", **kw}),
        ],
    )
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(refused) == 1
    assert (refused[0].code, refused[0].params["field"]) == ("name_taken", "name")
    async with world.sessions() as s:
        names = list(await s.scalars(select(Clan.name_key).where(Clan.name_key == "gamma")))
        founders = list(await s.scalars(select(ClanMember.user_id).where(ClanMember.user_id.in_([u["out"], u["fre"]]))))
    assert names == ["gamma"] and len(founders) == 1
