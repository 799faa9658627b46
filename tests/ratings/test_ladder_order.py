"""Ladder pages and ranks read from ``rating_counts``, and season standings from ``ladder_points``
(app/ratings/reads.py), against a plain sort of every player, with many ties, on SQLite and
PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from sqlalchemy import func, select

from app.ratings import reads
from app.ratings.models import LadderPoints, Rating, RatingCount, RatingPool
from app.users.models import User

POOL = "fantasy_duel"


async def _seed(env, n: int, ratings: list[int]) -> list[int]:
    """``n`` players with ``ratings`` (drawn in turn, so many share one) in :data:`POOL`, and the
    pool's counts as the consumer keeps them. :returns: the new players' ids."""
    async with env.service.sessionmaker() as s, s.begin():
        users = [User(name=f"q{i:04d}", name_key=f"q{i:04d}", password_hash="x") for i in range(n)]
        s.add_all(users)
        await s.flush()
        rng = random.Random(12)
        for u in users:
            s.add(Rating(user_id=u.id, pool=POOL, rating=rng.choice(ratings), games=1))
        await s.flush()
        per_rating = select(Rating.rating, func.count()).where(Rating.pool == POOL).group_by(Rating.rating)
        for rating, count in (await s.execute(per_rating)).all():
            s.add(RatingCount(pool=POOL, rating=rating, players=count))
        s.add(RatingCount(pool=POOL, rating=3000, players=0))  # a rating every player left
        s.add(RatingPool(pool=POOL, players=n))
        return [u.id for u in users]


async def _expected(env) -> list[int]:
    """Every player's id in ladder order: best rating first, ties the later account first."""
    async with env.service.sessionmaker() as s:
        rows = (await s.execute(select(Rating.user_id, Rating.rating).where(Rating.pool == POOL))).all()
    return [u for u, _ in sorted(rows, key=lambda r: (-r.rating, -r.user_id))]


async def test_every_page_and_every_rank_match_a_plain_sort(env):
    await _seed(env, 137, [1400, 1500, 1500, 1510, 1620, 1620, 1620, 1700])
    expected = await _expected(env)
    got = []
    async with env.service.sessionmaker() as s:
        for page in (1, 2, 3):
            data = await reads.ladder(s, POOL, page)
            assert (data["total"], data["pages"], data["page"]) == (137, 3, page)
            assert [r["rank"] for r in data["rows"]] == list(range(50 * page - 49, 50 * page - 49 + len(data["rows"])))
            got += [r["user"]["id"] for r in data["rows"]]
        assert got == expected
        assert (await reads.ladder(s, POOL, 4))["rows"] == []
        for rank, user_id in enumerate(expected, 1):
            data = await reads.ladder(s, POOL, 3, user_id, find_viewer=True)
            assert data["viewer"]["rank"] == rank and data["page"] == (rank - 1) // 50 + 1
            assert [r["user"]["id"] for r in data["rows"]] == expected[50 * data["page"] - 50 : 50 * data["page"]]
            assert data["viewer"] in data["rows"]  # the page shown holds the viewer's row


async def test_one_rating_for_everyone_pages_by_account(env):
    """Every player tied: the pages come from one count, ordered by account, latest first."""
    ids = await _seed(env, 75, [1500])
    async with env.service.sessionmaker() as s:
        first, second = (await reads.ladder(s, POOL, 1, ids[0])), (await reads.ladder(s, POOL, 2, ids[0]))
    assert [r["user"]["id"] for r in first["rows"] + second["rows"]] == sorted(ids, reverse=True)
    assert first["viewer"]["rank"] == 75 and second["rows"][-1] == second["viewer"]


async def test_an_empty_pool_has_one_empty_page(env):
    async with env.service.sessionmaker() as s:
        data = await reads.ladder(s, POOL, 1, env.users[0], find_viewer=True)
    assert (data["rows"], data["viewer"], data["pages"], data["total"]) == ([], None, 1, 0)


async def test_season_standings_page_and_rank_match_a_plain_sort(env):
    async with env.service.sessionmaker() as s, s.begin():
        users = [User(name=f"s{i:03d}", name_key=f"s{i:03d}", password_hash="x") for i in range(113)]
        s.add_all(users)
        await s.flush()
        ids = [u.id for u in users]
        rng = random.Random(5)
        for uid in ids:  # few distinct points and wins: many ties on both
            s.add(
                LadderPoints(
                    pool=POOL,
                    season="2026-10",
                    user_id=uid,
                    points=rng.choice([5, 10, 10, 20]),
                    wins=rng.choice([1, 2]),
                )
            )
        for uid in ids[:7]:  # another month and another pool stay apart
            s.add(LadderPoints(pool=POOL, season="2026-11", user_id=uid, points=99, wins=9))
            s.add(LadderPoints(pool="battle_runes", season="2026-10", user_id=uid, points=500, wins=50))
    async with env.service.sessionmaker() as s:
        rows = (
            await s.execute(
                select(LadderPoints.user_id, LadderPoints.points, LadderPoints.wins).where(
                    LadderPoints.pool == POOL, LadderPoints.season == "2026-10"
                )
            )
        ).all()
        expected = [u for u, _, _ in sorted(rows, key=lambda r: (-r.points, -r.wins, -r.user_id))]
        now = datetime(2026, 11, 30, 21, 0, tzinfo=UTC)
        got = []
        for page in (1, 2, 3):
            data = await reads.season_standings(s, POOL, "2026-10", page, now=now)
            assert (data["total"], data["pages"], data["season"], data["current"]) == (113, 3, "2026-10", "2026-11")
            assert [r["rank"] for r in data["rows"]] == list(range(50 * page - 49, 50 * page - 49 + len(data["rows"])))
            got += [r["user"]["id"] for r in data["rows"]]
        assert got == expected
        assert data["seasons"][:3] == ["2026-11", "2026-10", "2026-09"] and data["seasons"][-1] == "2025-12"
        for rank, uid in enumerate(expected, 1):
            data = await reads.season_standings(s, POOL, "2026-10", 1, uid, now, find_viewer=True)
            assert data["viewer"]["rank"] == rank and data["page"] == (rank - 1) // 50 + 1
            assert data["viewer"] in data["rows"]
        current = await reads.season_standings(s, POOL, None, 1, ids[-1], now)
        assert current["season"] == "2026-11" and current["total"] == 7
        assert current["viewer"] is None  # no points this month
        assert {r["points"] for r in current["rows"]} == {99}
