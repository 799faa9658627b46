"""The clan wall (issue 13, item 7) through its service, on SQLite and PostgreSQL: who may post
and remove (a player in no clan, the leader of another clan, a member, an officer, the leader, the
author, an administrator), a refusal changes nothing, a removal keeps the row with who removed it
and writes a history row, input checks and the rate limit."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from app.clans import service, wall
from app.clans.models import Clan, ClanHistory
from app.clans.wall_models import ClanWallPost
from app.errors import DomainError
from app.ratelimit import RateLimiter
from tests.clans.conftest import LIMIT, World
from tests.clans.ladder_world import add_players


async def _posts(w: World) -> list[tuple[Any, ...]]:
    async with w.sessions() as s:
        return [
            (p.id, p.clan_id, p.author_id, p.text, p.removed_by_id, p.removed_at is not None)
            for p in await s.scalars(select(ClanWallPost).order_by(ClanWallPost.id))
        ]


async def _refused(w: World, fn, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    before = (await _posts(w), await w.state())
    with pytest.raises(DomainError) as caught:
        await w.do(fn, *args, **kwargs)
    assert (await _posts(w), await w.state()) == before  # nothing changed
    return caught.value.code.value, caught.value.params.get("reason", caught.value.params.get("field"))


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("out", ("forbidden", "not_member")),  # a player in no clan
        ("oth", ("forbidden", "not_member")),  # the leader of another clan
        ("admin", ("forbidden", "not_member")),  # an administrator moderates, posts only in their own clan
        ("mem", None),  # a member
        ("off", None),  # an officer
        ("lea", None),  # the leader
    ],
)
async def test_who_may_post(world: World, who: str, expected) -> None:
    await add_players(world, "admin", admin=True)
    actor = world.users[who]
    if expected:
        assert await _refused(world, wall.post, actor, "ALP", "hello") == expected
        return
    entry = await world.do(wall.post, actor, "alp", "  hello <b>there</b>  ")
    assert (await _posts(world))[-1] == (entry.id, entry.clan_id, actor, "hello <b>there</b>", None, False)
    async with world.sessions() as s:
        seen = await wall.wall(s, entry.clan_id, None)
    assert [(p["text"], p["author"]["name"], p["can_remove"]) for p in seen["posts"]] == [
        ("hello <b>there</b>", who, False)
    ]
    assert seen["can_post"] is False


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("out", ("forbidden", "not_member")),  # a player in no clan
        ("oth", ("forbidden", "not_member")),  # the leader of another clan
        ("tgt", ("forbidden", "not_officer")),  # a member, not the author
        ("mem", None),  # the author
        ("off", None),  # an officer
        ("lea", None),  # the leader
        ("admin", None),  # an administrator, in no clan
    ],
)
async def test_who_may_remove(world: World, who: str, expected) -> None:
    await add_players(world, "admin", admin=True)
    entry = await world.do(wall.post, world.users["mem"], "ALP", "a post by mem")
    actor = world.users[who]
    if expected:
        assert await _refused(world, wall.remove, actor, "ALP", entry.id) == expected
        return
    history_before = await world.history_codes()
    await world.do(wall.remove, actor, "alp", entry.id)
    row = (await _posts(world))[-1]
    assert row == (entry.id, entry.clan_id, world.users["mem"], "a post by mem", actor, True)  # kept, marked
    assert await world.history_codes() == [*history_before, "wall_removed"]
    async with world.sessions() as s:
        h = await s.scalar(select(ClanHistory).order_by(ClanHistory.id.desc()).limit(1))
        assert h is not None and h.actor_id == actor
        assert h.params == {"post_id": entry.id, "user": {"id": world.users["mem"], "name": "mem"}}
        assert "a post by mem" not in str(h.params)
        assert (await wall.wall(s, entry.clan_id, actor))["posts"] == []  # nobody sees it again
    # removing it again: it is not on the wall any more
    assert await _refused(world, wall.remove, actor, "ALP", entry.id) == ("not_found", "post")


async def test_who_sees_the_remove_button(world: World) -> None:
    await add_players(world, "admin", admin=True)
    entry = await world.do(wall.post, world.users["mem"], "ALP", "mine")
    u = world.users
    async with world.sessions() as s:
        clan_id = await s.scalar(select(Clan.id).where(Clan.tag == "ALP"))
        seen = {
            who: (await wall.wall(s, clan_id, u[who] if who else None))
            for who in ("mem", "tgt", "off", "lea", "admin", "out", "")
        }
    assert {who: v["posts"][0]["can_remove"] for who, v in seen.items()} == {
        "mem": True,
        "tgt": False,
        "off": True,
        "lea": True,
        "admin": True,
        "out": False,
        "": False,
    }
    assert {who: v["can_post"] for who, v in seen.items()} == {
        "mem": True,
        "tgt": True,
        "off": True,
        "lea": True,
        "admin": False,
        "out": False,
        "": False,
    }
    assert seen["out"]["posts"][0]["id"] == entry.id  # the wall is public


async def test_bad_posts_are_refused(world: World) -> None:
    mem = world.users["mem"]
    for text in ("", "   ", "x" * 281, "line\nbreak", "nul\x00"):
        assert await _refused(world, wall.post, mem, "ALP", text) == ("validation_error", "text")
    assert await _refused(world, wall.post, mem, "NOPE", "hi") == ("not_found", None)
    assert await world.do(wall.post, mem, "ALP", "x" * 280)
    other = await world.do(wall.post, world.users["oth"], "BET", "beta's")
    # a post of another clan is not on this wall
    assert await _refused(world, wall.remove, world.users["lea"], "ALP", other.id) == ("not_found", "post")


async def test_the_rate_limit_counts_posts_per_player(world: World) -> None:
    limiter = RateLimiter("2/minute", namespace=f"wall-test-{world.url[-12:]}")
    out, lea = world.users["out"], world.users["lea"]
    # refused posts do not count: out, in no clan yet, tries three times
    for _ in range(3):
        assert await _refused(world, wall.post, out, "ALP", "spam", limiter=limiter) == ("forbidden", "not_member")
    invitation = await world.do(service.invite, lea, "ALP", "out", limit=LIMIT)
    await world.do(service.accept, out, "ALP", invitation.id, limit=LIMIT)
    await world.do(wall.post, out, "ALP", "one", limiter=limiter)
    await world.do(wall.post, out, "ALP", "two", limiter=limiter)
    before = await _posts(world)
    with pytest.raises(DomainError) as caught:
        await world.do(wall.post, out, "ALP", "three", limiter=limiter)
    assert caught.value.code == "rate_limited" and caught.value.params["retry_after"] >= 1
    assert await _posts(world) == before  # the refused post wrote nothing
    await world.do(wall.post, lea, "ALP", "the leader has a limit of his own", limiter=limiter)
