"""Fixtures for clans: a small world on SQLite and PostgreSQL, built through the service itself.

Clan ``ALP`` ("Alpha"): leader ``lea``, officers ``off`` and ``tof``, members ``mem`` and ``tgt``;
pending: ``new`` asked to join, ``inv`` is invited. Clan ``BET`` ("Beta"): leader ``oth``.
Players in no clan: ``out``, ``fre``, ``new``, ``inv``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans import service
from app.clans.models import Clan, ClanHistory, ClanInvitation, ClanMember, Role
from app.db.session import make_engine, make_sessionmaker
from app.users.models import User

NAMES = ("lea", "off", "tof", "mem", "tgt", "new", "inv", "oth", "out", "fre")
#: the member limit of these tests (ALP has 5 players, so there is room for two more)
LIMIT = 7
T = TypeVar("T")


@dataclass
class World:
    sessions: async_sessionmaker[AsyncSession]
    url: str
    users: dict[str, int]
    request_id: int = 0
    invite_id: int = 0
    engines: list[Any] = field(default_factory=list)

    async def do(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T:
        """Run one service call in a session of its own (as one HTTP request does)."""
        async with self.sessions() as session:
            return await fn(session, *args, **kwargs)

    async def state(self) -> dict[str, Any]:
        """Every clan row, membership, pending invitation and history row: what a refused request
        must leave as it was."""
        async with self.sessions() as s:
            clans = [
                (c.id, c.name, c.name_key, c.tag_key, c.region, c.colour, c.description, c.members, c.disbanded_at)
                for c in await s.scalars(select(Clan).order_by(Clan.id))
            ]
            members = [
                (m.user_id, m.clan_id, m.role) for m in await s.scalars(select(ClanMember).order_by(ClanMember.user_id))
            ]
            pending = [
                (i.id, i.clan_id, i.user_id, i.kind)
                for i in await s.scalars(select(ClanInvitation).order_by(ClanInvitation.id))
            ]
            history = await s.scalar(select(func.count()).select_from(ClanHistory))
        return {"clans": clans, "members": members, "pending": pending, "history": history}

    async def history_codes(self, tag: str = "ALP") -> list[str]:
        async with self.sessions() as s:
            clan_id = await s.scalar(select(Clan.id).where(Clan.tag == tag))
            rows = await s.scalars(
                select(ClanHistory.code).where(ClanHistory.clan_id == clan_id).order_by(ClanHistory.id)
            )
            return list(rows)

    async def role(self, name: str) -> tuple[str | None, str | None]:
        """``(clan tag, role)`` of a player, ``(None, None)`` in no clan."""
        async with self.sessions() as s:
            row = (
                await s.execute(
                    select(Clan.tag, ClanMember.role)
                    .join(Clan, Clan.id == ClanMember.clan_id)
                    .where(ClanMember.user_id == self.users[name])
                )
            ).first()
            return (row[0], row[1]) if row else (None, None)


async def build_world(url: str) -> World:
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        users = [User(name=n, name_key=n, password_hash="x") for n in NAMES]
        s.add_all(users)
        await s.flush()
        ids = {u.name: u.id for u in users}
    w = World(sessions, url, ids, engines=[engine])
    u = ids
    await w.do(service.found, u["lea"], name="Alpha", tag="ALP", region="CZ-64", colour="#aa3300")
    await w.do(service.found, u["oth"], name="Beta", tag="BET", region="SK-BL", colour="#0033aa")
    for name in ("off", "tof", "tgt"):
        inv = await w.do(service.invite, u["lea"], "ALP", name, limit=LIMIT)
        await w.do(service.accept, u[name], "alp", inv.id, limit=LIMIT)
    req = await w.do(service.request_to_join, u["mem"], "ALP", limit=LIMIT)
    await w.do(service.accept, u["lea"], "ALP", req.id, limit=LIMIT)
    for name in ("off", "tof"):
        await w.do(service.set_role, u["lea"], "ALP", u[name], Role.OFFICER)
    w.request_id = (await w.do(service.request_to_join, u["new"], "ALP", limit=LIMIT)).id
    w.invite_id = (await w.do(service.invite, u["off"], "ALP", "inv", limit=LIMIT)).id
    return w


@pytest.fixture
async def world(db_url) -> AsyncIterator[World]:
    """The world above, on each backend."""
    w = await build_world(db_url)
    yield w
    for engine in w.engines:
        await engine.dispose()
