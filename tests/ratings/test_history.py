"""The profile's rating-history chart, downsampled in the database (``app.ratings.reads._history``),
against a plain Python statement of the rule, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert

from app.matches.models import Match
from app.ratings import reads
from app.ratings.models import Rating, RatingChange

START = datetime(2026, 1, 1, tzinfo=UTC)


def _expected(ratings: list[int], buckets: int = reads.HISTORY_BUCKETS) -> list[int]:
    """The 1-based match numbers the chart keeps: all of them up to ``4 * buckets``; else, per run
    of consecutive matches, the first, the last, and the earliest lowest and highest."""
    n = len(ratings)
    if n <= 4 * buckets:
        return list(range(1, n + 1))
    runs: dict[int, list[int]] = {}
    for i in range(n):
        runs.setdefault(i * buckets // n, []).append(i)
    kept = set()
    for members in runs.values():
        kept |= {members[0], members[-1]}
        kept.add(min(members, key=lambda i: (ratings[i], i)))
        kept.add(max(members, key=lambda i: (ratings[i], -i)))
    return sorted(i + 1 for i in kept)


async def _seed(env, user_id: int, pools: dict[str, list[int]], rng: random.Random) -> dict[str, list[tuple[int, int]]]:
    """One finished match per rating in ``pools`` (``{pool: [rating after each match]}``), inserted
    in a shuffled order, two per minute: matches of the same minute are ordered by match id, which
    may swap two neighbours. :returns: ``{pool: [(match id, rating), oldest first]}``."""
    rows = [(pool, i, r) for pool, ratings in pools.items() for i, r in enumerate(ratings)]
    rng.shuffle(rows)
    async with env.service.sessionmaker() as s, s.begin():
        ids = (
            (
                await s.execute(
                    insert(Match).returning(Match.id),
                    [
                        {
                            "game": "battle_runes",
                            "options": {},
                            "num_players": 2,
                            "status": "finished",
                            "seed": "x",
                            "seed_hash": "x",
                        }
                        for _ in rows
                    ],
                )
            )
            .scalars()
            .all()
        )
        changes, order = [], {}
        for match_id, (pool, i, rating) in zip(ids, rows, strict=True):
            at = START + timedelta(minutes=i // 2)  # two matches per minute: the tie-break counts
            order.setdefault(pool, []).append((at, match_id, rating))
            changes.append(
                {
                    "match_id": match_id,
                    "seat": 0,
                    "user_id": user_id,
                    "pool": pool,
                    "result": "win",
                    "rank": 1,
                    "mu_before": 25.0,
                    "sigma_before": 8.0,
                    "mu_after": 25.0,
                    "sigma_after": 8.0,
                    "rating_before": 1500,
                    "rating_after": rating,
                    "season": "2026-01",
                    "at": at,
                }
            )
        await s.execute(insert(RatingChange), changes)
    return {pool: [(m, r) for _, m, r in sorted(rows)] for pool, rows in order.items()}


async def test_a_long_history_keeps_the_shape_in_at_most_the_chart_points(env):
    alice, bob, _ = env.users
    rng = random.Random(7)
    walk, r = [], 1500
    for _ in range(1003):
        r += rng.choice([-12, -8, 0, 0, 8, 12])
        walk.append(r)
    walk[517] = 2400  # a one-match peak and dip that a stride would miss
    walk[518] = 700
    short = [1500 + 10 * (i % 7) for i in range(reads.HISTORY_POINTS)]
    mine = await _seed(env, alice, {"battle_runes": walk, "fantasy_duel": short}, rng)
    await _seed(env, bob, {"battle_runes": [1600] * 300}, rng)  # someone else's history stays out

    async with env.service.sessionmaker() as s:
        history = await reads._history(s, alice)
        flat = await reads._history(s, bob)

    assert set(history) == {"battle_runes", "fantasy_duel"}
    long, played = history["battle_runes"], mine["battle_runes"]
    ratings = [r for _, r in played]
    assert [p["game"] for p in long] == _expected(ratings)
    assert [(p["match_id"], p["rating"]) for p in long] == [played[p["game"] - 1] for p in long]
    assert len(long) <= reads.HISTORY_POINTS and len(long) > 2 * reads.HISTORY_BUCKETS
    assert (long[0]["game"], long[-1]["game"]) == (1, len(walk))
    assert {2400, 700, min(walk), max(walk)} <= {p["rating"] for p in long}
    times = [p["at"] for p in long]
    assert times == sorted(times)
    # a pool of HISTORY_POINTS matches or fewer keeps every point, in order
    assert [(p["match_id"], p["rating"]) for p in history["fantasy_duel"]] == mine["fantasy_duel"]
    # a flat run keeps its first and last point only (the earliest of equal lows and highs is the first)
    assert [p["game"] for p in flat["battle_runes"]] == _expected([1600] * 300)
    assert len(flat["battle_runes"]) == 2 * reads.HISTORY_BUCKETS


async def test_the_profile_shares_its_points_between_the_pools(env):
    alice, _, _ = env.users
    async with env.service.sessionmaker() as s:
        assert (await reads._history(s, alice)) == {}
    pools = ["battle_runes", "fantasy_duel", "scratch_wars.l1", "scratch_wars.l2"]
    walks = {p: [1500 + (i * (k + 3)) % 50 for i in range(200 + k)] for k, p in enumerate(pools)}
    played = await _seed(env, alice, walks, random.Random(3))
    async with env.service.sessionmaker() as s, s.begin():
        s.add_all(Rating(user_id=alice, pool=p, rating=walks[p][-1], games=len(walks[p])) for p in pools)
    async with env.service.sessionmaker() as s:
        profile = await reads.profile(s, "alice")
    # four pools share PROFILE_HISTORY_BUCKETS: 30 runs each, at most 120 points per chart
    per_pool = reads.PROFILE_HISTORY_BUCKETS // 4
    assert per_pool < reads.HISTORY_BUCKETS
    assert sorted(r["pool"]["key"] for r in profile["ratings"]) == sorted(pools)
    for r in profile["ratings"]:
        mine = played[r["pool"]["key"]]
        assert [p["game"] for p in r["history"]] == _expected([x for _, x in mine], per_pool)
        assert [(p["match_id"], p["rating"]) for p in r["history"]] == [mine[p["game"] - 1] for p in r["history"]]
        assert len(r["history"]) <= 4 * per_pool


def test_the_chart_places_points_by_match_number():
    from app.web.ratings import CHART_PAD, CHART_W, chart

    history = [
        {"at": "2026-01-01T00:00:00+00:00", "rating": 1500, "match_id": 1, "game": 1},
        {"at": "2026-01-02T00:00:00+00:00", "rating": 1600, "match_id": 9, "game": 26},
        {"at": "2026-01-03T00:00:00+00:00", "rating": 1400, "match_id": 40, "game": 101},
    ]
    xs = [p["x"] for p in chart(history)["points"]]
    span = CHART_W - 2 * CHART_PAD
    assert xs == [CHART_PAD, round(CHART_PAD + span / 4, 1), CHART_W - CHART_PAD]  # 25 of 100 matches in
