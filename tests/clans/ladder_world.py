"""Helpers for the clan ladder tests: more clans in the clans' test world
(:mod:`tests.clans.conftest`), clan points and players' ladder points in a month."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from app.clans import service
from app.clans.ladder_models import ClanTrophy, LadderClose, LadderMonth
from app.clans.models import Clan, ClanHistory, ClanPoints
from app.clans.points import credit_clan
from app.points.models import PlayerPoints, PointsEntry
from app.ratings.models import LadderPoints
from app.users.models import User
from tests.clans.conftest import World

NOV = "2026-11"
#: founding times: the world's clans were founded "now"; these later, in this order
LATER = datetime.now(UTC) + timedelta(days=1)


async def add_players(w: World, *names: str, admin: bool = False) -> None:
    """New accounts (administrators with ``admin``), added to ``w.users``."""
    async with w.sessions() as s, s.begin():
        users = [User(name=n, name_key=n, password_hash="x", is_admin=admin) for n in names]
        s.add_all(users)
        await s.flush()
        w.users.update({u.name: u.id for u in users})


async def add_clan(w: World, leader: str, tag: str, region: str, order: int) -> None:
    """A clan ``tag`` led by a new player ``leader``, founded ``order`` minutes after :data:`LATER`."""
    await add_players(w, leader)
    now = LATER + timedelta(minutes=order)
    await w.do(service.found, w.users[leader], name=f"Clan {tag}", tag=tag, region=region, colour="#123456", now=now)


async def clan_points(w: World, tag: str, points: int, month: str, ref: str, reason: str = "challenge_win") -> None:
    async with w.sessions() as s, s.begin():
        clan_id = await s.scalar(select(Clan.id).where(Clan.tag == tag))
        assert clan_id is not None
        assert await credit_clan(s, clan_id, points, reason, ref, month=month)


async def ladder_points(w: World, name: str, points: int, month: str, pool: str = "battle_runes") -> None:
    async with w.sessions() as s, s.begin():
        s.add(LadderPoints(pool=pool, season=month, user_id=w.users[name], points=points, wins=1))


async def snapshot(w: World) -> dict[str, Any]:
    """Everything a month close writes: trophies, clan points, player points and ledger, the
    closes, the months, the history rows."""
    async with w.sessions() as s:
        trophies = [
            (t.id, t.clan_id, t.region, t.month, t.place, t.score, t.bonus)
            for t in await s.scalars(select(ClanTrophy).order_by(ClanTrophy.id))
        ]
        points = [
            (p.clan_id, p.month, p.points, p.reason, p.ref)
            for p in await s.scalars(select(ClanPoints).order_by(ClanPoints.id))
        ]
        ledger = [
            (e.user_id, e.delta, e.reason, e.ref) for e in await s.scalars(select(PointsEntry).order_by(PointsEntry.id))
        ]
        balances = [
            (p.user_id, p.balance, p.earned)
            for p in await s.scalars(select(PlayerPoints).order_by(PlayerPoints.user_id))
        ]
        closes = [
            (c.month, c.region, c.trophies)
            for c in await s.scalars(select(LadderClose).order_by(LadderClose.month, LadderClose.region))
        ]
        months = [
            (m.month, m.closed_at is not None) for m in await s.scalars(select(LadderMonth).order_by(LadderMonth.month))
        ]
        history = await s.scalar(select(func.count()).select_from(ClanHistory).where(ClanHistory.code == "trophy"))
    return {
        "trophies": trophies,
        "points": points,
        "ledger": ledger,
        "balances": balances,
        "closes": closes,
        "months": months,
        "history": history,
    }


async def trophies(w: World) -> list[tuple[str, str, int, str, int]]:
    """``(region, month, place, clan tag, score)`` of every trophy, by region, month and place."""
    async with w.sessions() as s:
        rows = await s.execute(
            select(ClanTrophy.region, ClanTrophy.month, ClanTrophy.place, Clan.tag, ClanTrophy.score)
            .join(Clan, Clan.id == ClanTrophy.clan_id)
            .order_by(ClanTrophy.region, ClanTrophy.month, ClanTrophy.place)
        )
        return [tuple(r) for r in rows]  # type: ignore[misc]
