"""The points ledger and ranks (issue 13, item 5): once per reason and reference, never negative,
thresholds promote, on SQLite and PostgreSQL, with racing debits on separate engines."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.db.session import make_engine, make_sessionmaker
from app.errors import DomainError
from app.points.ledger import balance_of, credit
from app.points.models import PointsEntry, RankChange
from app.points.ranks import Rank, RankThresholds, promote_to_at_least, rank_of, set_rank
from app.users.models import User

THRESHOLDS = RankThresholds(master=100, lord=300, leader=600)


@dataclass
class Db:
    url: str
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    ann: int
    bob: int


@pytest.fixture
async def db(db_url) -> AsyncIterator[Db]:
    engine = make_engine(db_url)
    sessions = make_sessionmaker(engine)
    async with sessions() as s, s.begin():
        users = [User(name=n, name_key=n, password_hash="x") for n in ("ann", "bob")]
        s.add_all(users)
        await s.flush()
        ids = [u.id for u in users]
    yield Db(db_url, engine, sessions, *ids)
    await engine.dispose()


async def _credit(db: Db, *args, **kwargs):
    async with db.sessions() as s, s.begin():
        return await credit(s, *args, **kwargs)


async def _entries(db: Db, user_id: int) -> int:
    async with db.sessions() as s:
        return int(await s.scalar(select(func.count()).select_from(PointsEntry).where(PointsEntry.user_id == user_id)))


async def test_a_credit_applies_once_per_reason_and_reference(db: Db) -> None:
    first = await _credit(db, db.ann, 30, "rated_win", 7)
    again = await _credit(db, db.ann, 30, "rated_win", "7")
    other = await _credit(db, db.ann, 30, "rated_win", 8)
    assert first is not None and first.balance_after == 30
    assert again is None
    assert other is not None and other.balance_after == 60
    async with db.sessions() as s:
        assert await balance_of(s, db.ann) == (60, 60)
        assert await balance_of(s, db.bob) == (0, 0)
    assert await _entries(db, db.ann) == 2


async def test_a_debit_beyond_the_balance_is_refused_and_changes_nothing(db: Db) -> None:
    await _credit(db, db.ann, 50, "rated_win", 1)
    with pytest.raises(DomainError) as err:
        await _credit(db, db.ann, -51, "reward", "p1")
    assert err.value.code == "conflict"
    assert err.value.params == {"reason": "insufficient_points", "balance": 50, "cost": 51}
    spent = await _credit(db, db.ann, -50, "reward", "p2")
    assert spent is not None and spent.balance_after == 0
    async with db.sessions() as s:
        # spending lowers the balance, never the lifetime points the ranks read
        assert await balance_of(s, db.ann) == (0, 50)
    assert await _entries(db, db.ann) == 2


@pytest.mark.parametrize("bad", [("nonsense", 5, "r"), ("rated_win", 0, "r"), ("rated_win", 5, "x" * 65)])
async def test_a_malformed_entry_is_a_programming_error(db: Db, bad) -> None:
    reason, delta, ref = bad
    with pytest.raises(ValueError):
        await _credit(db, db.ann, delta, reason, ref)


async def test_thresholds_promote_by_lifetime_points_and_never_demote(db: Db) -> None:
    await _credit(db, db.ann, 99, "rated_win", 1, thresholds=THRESHOLDS)
    async with db.sessions() as s:
        assert await rank_of(s, db.ann) == Rank.KNIGHT
    await _credit(db, db.ann, 1, "rated_win", 2, thresholds=THRESHOLDS)
    async with db.sessions() as s:
        assert await rank_of(s, db.ann) == Rank.MASTER
    await _credit(db, db.ann, 400, "challenge_win", 3, thresholds=THRESHOLDS)  # earned 500: a Lord
    await _credit(db, db.ann, -450, "reward", "p", thresholds=THRESHOLDS)
    async with db.sessions() as s:
        assert await rank_of(s, db.ann) == Rank.LORD
        changes = (
            await s.execute(select(RankChange.old, RankChange.new, RankChange.reason).order_by(RankChange.id))
        ).all()
    assert [tuple(c) for c in changes] == [("knight", "master", "threshold"), ("master", "lord", "threshold")]


async def test_promotion_only_raises_and_grants_are_audited(db: Db) -> None:
    async with db.sessions() as s, s.begin():
        assert await promote_to_at_least(s, db.bob, Rank.MASTER, "tournament_win", "t1")
        assert not await promote_to_at_least(s, db.bob, Rank.MASTER, "beat_lord", "m1")
        assert await set_rank(s, db.bob, Rank.LEADER, "grant", by_user_id=db.ann)
        assert not await promote_to_at_least(s, db.bob, Rank.LORD, "threshold")
        assert await set_rank(s, db.bob, Rank.KNIGHT, "revoke", by_user_id=db.ann)
    async with db.sessions() as s:
        rows = (await s.execute(select(RankChange.new, RankChange.by_user_id).order_by(RankChange.id))).all()
        assert await rank_of(s, db.bob) == Rank.KNIGHT
    assert [tuple(r) for r in rows] == [("master", None), ("leader", db.ann), ("knight", db.ann)]


async def test_racing_debits_on_separate_engines_cannot_overspend(db: Db) -> None:
    await _credit(db, db.ann, 100, "rated_win", 1)
    engines = [make_engine(db.url) for _ in range(4)]
    start = asyncio.Event()

    async def buy(engine: AsyncEngine, n: int) -> object:
        async with make_sessionmaker(engine)() as s:
            await start.wait()
            try:
                async with s.begin():
                    return await credit(s, db.ann, -60, "reward", f"p{n}")
            except DomainError as exc:
                return exc

    tasks = [asyncio.create_task(buy(e, n)) for n, e in enumerate(engines)]
    await asyncio.sleep(0)
    start.set()
    results = await asyncio.gather(*tasks)
    for e in engines:
        await e.dispose()
    assert sum(isinstance(r, PointsEntry) for r in results) == 1
    assert all(
        isinstance(r, DomainError) and r.params["reason"] == "insufficient_points"
        for r in results
        if not isinstance(r, PointsEntry)
    )
    async with db.sessions() as s:
        assert await balance_of(s, db.ann) == (40, 100)


async def test_clan_points_are_credited_once_per_reason_and_reference(db: Db) -> None:
    from app.clans import service
    from app.clans.models import ClanPoints
    from app.clans.points import credit_clan

    async with db.sessions() as s:
        clan = await service.found(s, db.ann, name="Alpha", tag="ALP", region="CZ-10", colour="#112233")
    async with db.sessions() as s, s.begin():
        assert await credit_clan(s, clan.id, 10, "challenge_win", 5, month="2026-11")
        assert not await credit_clan(s, clan.id, 10, "challenge_win", "5", month="2026-12")
    async with db.sessions() as s:
        rows = (await s.execute(select(ClanPoints.month, ClanPoints.points))).all()
    assert [tuple(r) for r in rows] == [("2026-11", 10)]
