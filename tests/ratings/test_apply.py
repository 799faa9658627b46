"""What counts for ratings and ladder points, applied by the ``ratings`` consumer
(app/ratings/apply.py), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from app.matches.models import MatchResult
from app.ratings import skill
from app.ratings.apply import catch_up, season_of
from app.ratings.models import LadderPoints, PlayerRecord, Rating, RatingChange
from tests.ratings.conftest import finish_rated


async def _changes(env, match_id=None):
    async with env.service.sessionmaker() as s:
        stmt = select(RatingChange).order_by(RatingChange.match_id, RatingChange.seat)
        if match_id is not None:
            stmt = stmt.where(RatingChange.match_id == match_id)
        return (await s.execute(stmt)).scalars().all()


async def _ratings(env, pool="battle_runes"):
    async with env.service.sessionmaker() as s:
        rows = (await s.execute(select(Rating).where(Rating.pool == pool))).scalars().all()
        return {r.user_id: r for r in rows}


async def test_a_rated_win_moves_both_ratings_and_earns_points(env):
    alice, bob, _ = env.users
    match_id = await finish_rated(env, alice, bob)
    assert await catch_up(env.service.sessionmaker) == 2
    changes = await _changes(env, match_id)
    assert [(c.user_id, c.result) for c in changes] == [(alice, "win"), (bob, "loss")]
    win, loss = changes
    assert win.rating_before == loss.rating_before == 1500
    assert win.rating_after > 1500 > loss.rating_after
    assert (win.points, loss.points) == (10, 0)
    ratings = await _ratings(env)
    assert ratings[alice].rating == win.rating_after and ratings[alice].mu == win.mu_after
    assert (ratings[alice].games, ratings[alice].wins, ratings[alice].losses) == (1, 1, 0)
    assert (ratings[bob].games, ratings[bob].wins, ratings[bob].losses) == (1, 0, 1)
    assert ratings[bob].last_played_at is not None
    async with env.service.sessionmaker() as s:
        points = (await s.execute(select(LadderPoints))).scalars().all()
    assert [(p.user_id, p.pool, p.season, p.points, p.wins) for p in points] == [
        (alice, "battle_runes", season_of(win.at), 10, 1)
    ]


async def test_a_seat_the_computer_finished_counts_as_the_players_result(env):
    """A seat the computer finished for a player who left (here: away) is that player's result."""
    alice, bob, _ = env.users
    for _attempt in range(10):  # the dice may end a match before bob is away: then another one
        info = await env.service.create_match(alice, "battle_runes", {"rated": True, "turn_seconds": 60})
        await env.service.join(info["id"], bob)
        for _ in range(2):  # bob lets his clock run out twice: he is away, the computer plays his seat
            snap = await env.service.snapshot(info["id"], 0)
            while 0 in snap["to_act"] and snap["legal"]:
                await env.service.act(info["id"], alice, snap["legal"][0], snap["version"])
                snap = await env.service.snapshot(info["id"], 0)
            env.clock.advance(61)
            await env.service.process_match(info["id"])
        now = await env.service.get_match(info["id"])
        if now["status"] == "active" and now["seats"][1]["away"]:
            break
    await env.service.resign(info["id"], alice)
    async with env.service.sessionmaker() as s:
        rows = (await s.execute(select(MatchResult).where(MatchResult.match_id == info["id"]))).scalars().all()
    assert [r.computer_finished for r in rows] == [False, True]
    await catch_up(env.service.sessionmaker)
    changes = await _changes(env, info["id"])
    assert [(c.user_id, c.result) for c in changes] == [(r.user_id, r.result) for r in rows]
    assert rows[1].result == "win" and changes[1].rating_after > changes[1].rating_before


async def test_casual_and_computer_matches_do_not_count(env):
    alice, bob, _ = env.users
    casual = await finish_rated(env, alice, bob, options={"rated": False})
    info = await env.service.create_match(alice, "battle_runes", {"rated": True, "turn_seconds": 60}, bots=[_bot(1)])
    await env.service.resign(info["id"], alice)
    assert (await env.service.get_match(info["id"]))["status"] == "finished"
    assert await catch_up(env.service.sessionmaker) == 4  # delivered, and ignored
    assert await _changes(env) == [] and await _ratings(env) == {}
    # the players' records count every finished match, rated or not; computer seats have none
    async with env.service.sessionmaker() as s:
        records = (await s.execute(select(PlayerRecord).order_by(PlayerRecord.user_id))).scalars().all()
    assert [(r.user_id, r.game, r.wins, r.losses, r.draws) for r in records] == [
        (alice, "battle_runes", 1, 1, 0),
        (bob, "battle_runes", 0, 1, 0),
    ]
    assert casual != info["id"]
    # a later batch adds to the stored records (and starts a player's record in another game)
    await finish_rated(env, bob, alice, options={"rated": False})
    await finish_rated(env, alice, bob, "stratego_junior", options={"rated": False})
    assert await catch_up(env.service.sessionmaker) == 4
    async with env.service.sessionmaker() as s:
        records = (
            (await s.execute(select(PlayerRecord).order_by(PlayerRecord.user_id, PlayerRecord.game))).scalars().all()
        )
    assert [(r.user_id, r.game, r.wins, r.losses, r.draws) for r in records] == [
        (alice, "battle_runes", 1, 2, 0),
        (alice, "stratego_junior", 1, 0, 0),
        (bob, "battle_runes", 1, 1, 0),
        (bob, "stratego_junior", 0, 1, 0),
    ]


def _bot(seat):
    from app.matches.service import BotSeat

    return BotSeat(seat, None)


async def test_variants_and_levels_are_rated_apart(env):
    alice, bob, _ = env.users
    await finish_rated(env, alice, bob, "stratego_junior", {"variant": "quest"})
    await finish_rated(env, bob, alice, "stratego_junior", {"variant": "victory"})
    await finish_rated(env, alice, bob, "scratch_wars", {"level": 1})
    await catch_up(env.service.sessionmaker)
    quest = await _ratings(env, "stratego_junior.quest")
    victory = await _ratings(env, "stratego_junior.victory")
    level1 = await _ratings(env, "scratch_wars.l1")
    assert quest[alice].rating > 1500 > quest[bob].rating
    assert victory[bob].rating > 1500 > victory[alice].rating
    assert level1[alice].wins == 1 and await _ratings(env, "scratch_wars.l3") == {}


async def test_repeat_wins_over_the_same_opponent_in_a_day_earn_fewer_points(env):
    alice, bob, carol = env.users
    for _ in range(3):
        await finish_rated(env, alice, bob)
    await finish_rated(env, alice, carol)
    await catch_up(env.service.sessionmaker)
    changes = await _changes(env)
    wins = [c for c in changes if c.user_id == alice]
    lost = {c.match_id: c for c in changes if c.user_id != alice}

    def expected(c, earlier):
        o = lost[c.match_id]
        p = skill.win_probability(skill.Skill(c.mu_before, c.sigma_before), skill.Skill(o.mu_before, o.sigma_before))
        return skill.win_points(p, earlier)

    first, second, third, other = (c.points for c in wins)
    assert first == 10  # even odds, the first win
    assert [second, third] == [expected(wins[1], 1), expected(wins[2], 2)]  # halved per earlier win today
    assert 1 <= third < second <= first // 2
    assert other == expected(wins[3], 0) > third  # carol: a first win over her today
    # the next day the same opponent is worth full points again (odds aside)
    env.clock.advance(timedelta(days=1).total_seconds())
    await finish_rated(env, alice, bob)
    await catch_up(env.service.sessionmaker)
    changes = await _changes(env)
    lost.update({c.match_id: c for c in changes if c.user_id != alice})
    next_day = changes[-2]
    assert next_day.user_id == alice and next_day.points == expected(next_day, 0)  # not halved
    async with env.service.sessionmaker() as s:
        total = await s.scalar(select(LadderPoints.points).where(LadderPoints.user_id == alice))
    assert total == sum(c.points for c in await _changes(env) if c.user_id == alice and c.season == wins[0].season)
