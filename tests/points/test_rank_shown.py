"""The rank beside the name everywhere (issue 13, item 5): every payload that carries a player
carries their ``rank`` (matches and the lobby, the websocket snapshot, ladders and season
standings, profiles and a match's rating changes, clan pages), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

from app.clans import reads as clan_reads
from app.clans import service as clans
from app.matches.models import ACTIVE
from app.points.ranks import Rank, set_rank
from app.ratings import reads as ratings_reads
from app.ratings.apply import catch_up
from tests.ratings.conftest import finish_rated
from tests.service.conftest import Env


async def _rank(e: Env, user_id: int, rank: Rank) -> None:
    async with e.service.sessionmaker() as s, s.begin():
        await set_rank(s, user_id, rank, "grant", "test")


async def test_every_player_payload_carries_the_rank(env: Env) -> None:
    alice, bob, carol = env.users
    await _rank(env, bob, Rank.LORD)
    await _rank(env, carol, Rank.LEADER)
    # a waiting match in the lobby, then the running match and its snapshot
    info = await env.service.create_match(bob, "battle_runes", {"turn_seconds": 60})
    waiting = await env.service.list_matches()
    assert waiting[0]["seats"][0]["user"] == {"id": bob, "name": "bob", "is_bot": False, "rank": "lord"}
    await env.service.join(info["id"], alice)
    live = await env.service.get_match(info["id"])
    assert live["status"] == ACTIVE
    assert [s["user"]["rank"] for s in live["seats"]] == ["lord", "knight"]
    snapshot = await env.service.snapshot(info["id"], 0)
    assert [s["user"]["rank"] for s in snapshot["seats"]] == ["lord", "knight"]
    # ladders, season standings, profiles, a match's rating changes
    match_id = await finish_rated(env, carol, bob)
    await catch_up(env.service.sessionmaker)
    now = env.clock.now() + timedelta(seconds=1)
    async with env.service.sessionmaker() as s:
        ladder = await ratings_reads.ladder(s, "battle_runes", 1, None, now)
        assert {r["user"]["name"]: r["user"]["rank"] for r in ladder["rows"]} == {"carol": "leader", "bob": "lord"}
        season = await ratings_reads.season_standings(s, "battle_runes", None, 1, carol, now)
        assert season["rows"][0]["user"]["rank"] == "leader" and season["viewer"]["user"]["rank"] == "leader"
        profile = await ratings_reads.profile(s, "bob", carol, now)
        assert profile["user"]["rank"] == "lord"
        assert profile["recent"][0]["opponents"] == [{"id": carol, "name": "carol", "rank": "leader"}]
        assert profile["head_to_head"]["viewer"]["rank"] == "leader"
        changes = await ratings_reads.match_ratings(s, match_id)
        assert [c["user"]["rank"] for c in changes["changes"]] == ["leader", "lord"]
    # a clan's page: members, pending requests, history
    async with env.service.sessionmaker() as s:
        await clans.found(s, bob, name="Lords", tag="LRD", region="other", colour="#123456")
    async with env.service.sessionmaker() as s:
        await clans.request_to_join(s, carol, "LRD", limit=10)
    async with env.service.sessionmaker() as s:
        page = await clan_reads.clan_page(s, "LRD", bob)
    assert [(m["user"]["name"], m["user"]["rank"]) for m in page["members"]] == [("bob", "lord")]
    assert page["pending"][0]["user"]["rank"] == "leader"
    assert page["history"][-1]["actor"]["rank"] == "lord"
