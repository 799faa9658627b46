"""The table around a match (issue 16): presence across processes (the connected seats of
:mod:`app.matches.table_roster`; its spectator counts are in test_spectators.py), and the quick
chat's checks (preset codes only, players only, a per-user budget, lines kept for a reload)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from app.errors import DomainError
from app.matches.chat import PHRASES, TableChat
from app.matches.hub import LocalHub, RedisHub
from app.matches.models import MatchChat
from app.matches.table_roster import TableRoster
from app.ratelimit import RateLimiter
from tests.conftest import require_service

# ---------------------------------------------------------------- presence


class Ticker:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


async def settle() -> None:
    """Let the roster's spawned announcements run (in-process hub: delivered at once)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_presence_is_shared_by_two_processes_on_one_hub():
    """Two :class:`TableRoster` on one hub stand for two processes: a seat connected on one is
    seen by the watchers of the other, goes when its last socket closes, and a process that starts
    watching later learns what the other one has (the query)."""
    hub = LocalHub()
    a, b = TableRoster(hub), TableRoster(hub)
    seen: list[frozenset[int]] = []
    unwatch = await a.watch(7, lambda table: seen.append(table.seats))
    b.join(7, 1)
    await settle()
    assert seen == [frozenset({1})] and a.connected(7) == {1}
    a.join(7, 0)  # a's own seat: heard at once
    b.join(7, 1)  # a second socket of seat 1 changes nothing
    await settle()
    assert seen[-1] == {0, 1} and len(seen) == 2
    b.leave(7, 1)
    await settle()
    assert len(seen) == 2, "seat 1 still has a socket"
    b.leave(7, 1)
    await settle()
    assert seen[-1] == {0}
    b.leave(7, 1)  # one leave too many is ignored
    b.join(8, 0)  # another match: not heard by a's watcher of match 7
    await settle()
    assert seen[-1] == {0} and len(seen) == 3
    unwatch()

    late: list[frozenset[int]] = []
    c = TableRoster(hub)  # a third process, starting to watch match 8 where b has seat 0
    await c.watch(8, lambda table: late.append(table.seats))
    await settle()
    assert c.connected(8) == {0} and late == [frozenset({0})]


async def test_a_dead_process_seats_expire_and_a_clean_stop_says_goodbye():
    hub = LocalHub()
    ticker = Ticker()
    a = TableRoster(hub, ttl_seconds=30, monotonic=ticker)
    b, c = TableRoster(hub), TableRoster(hub)
    seen: list[frozenset[int]] = []
    await a.watch(3, lambda table: seen.append(table.seats))
    b.join(3, 0)
    c.join(3, 1)
    await settle()
    assert seen[-1] == {0, 1}
    ticker.t += 20
    await c.refresh()  # c is alive: says its set again; b died without a word
    await settle()
    ticker.t += 15
    await a.refresh()
    assert seen[-1] == {1}, "b's seat expired after its time to live"
    await c.stop()
    await settle()
    assert seen[-1] == frozenset()


@pytest.mark.redis
async def test_presence_crosses_redis_between_two_processes():
    require_service("Redis", "127.0.0.1", 6379)
    hub_a, hub_b = RedisHub("redis://127.0.0.1:6379/15"), RedisHub("redis://127.0.0.1:6379/15")
    await hub_a.start()
    await hub_b.start()
    b = TableRoster(hub_b)
    a: TableRoster | None = None
    try:
        got: asyncio.Queue[frozenset[int]] = asyncio.Queue()
        b.join(99001, 1)  # b has a player before a's roster exists: a learns it by asking
        await asyncio.sleep(0.1)
        a = TableRoster(hub_a)
        assert a.connected(99001) == frozenset()
        await a.watch(99001, lambda table: got.put_nowait(table.seats))
        assert await asyncio.wait_for(got.get(), 5) == {1}
        b.join(99001, 0)
        assert await asyncio.wait_for(got.get(), 5) == {0, 1}
        b.leave(99001, 1)
        assert await asyncio.wait_for(got.get(), 5) == {0}
    finally:
        await b.stop()
        if a is not None:
            await a.stop()
        await hub_a.stop()
        await hub_b.stop()


# ---------------------------------------------------------------- chat


@pytest.fixture
async def table(env):
    """A running Battle Runes match of alice (seat 0) and bob (seat 1), and its chat with a
    budget of 3 lines per 10 seconds."""
    alice, bob, _carol = env.users
    info = await env.service.create_match(alice, "battle_runes", {"turn_seconds": 60})
    await env.service.join(info["id"], bob)
    chat = TableChat(
        env.service.sessionmaker,
        env.service.hub,
        env.service,
        RateLimiter("3/10second", namespace="chat-test"),
        env.clock,
    )
    return chat, info["id"]


async def _stored(env, match_id: int) -> int:
    async with env.service.sessionmaker() as session:
        return (await session.execute(select(func.count()).where(MatchChat.match_id == match_id))).scalar_one()


async def test_a_player_says_a_phrase_everyone_hears_it_and_it_is_kept(env, table):
    chat, match_id = table
    alice, bob, _ = env.users
    heard: list[dict] = []
    env.service.hub.subscribe_table(match_id, lambda _m, notice: heard.append(notice))
    line = await chat.say(match_id, alice, "good_luck")
    assert set(line) == {"id", "seat", "phrase", "at"}
    assert line["seat"] == 0 and line["phrase"] == "good_luck"
    await chat.say(match_id, bob, "thanks")
    assert [n["chat"]["phrase"] for n in heard] == ["good_luck", "thanks"]
    recent = await chat.recent(match_id)
    assert [(x["seat"], x["phrase"]) for x in recent] == [(0, "good_luck"), (1, "thanks")]
    assert await chat.recent(match_id, after=recent[0]["id"]) == recent[1:]
    assert [x["phrase"] for x in await chat.recent(match_id, limit=1)] == ["thanks"]


@pytest.mark.parametrize("phrase", ["gg noob", "HELLO", "", "hello ", "__proto__"])
async def test_an_unknown_phrase_is_refused_and_changes_nothing(env, table, phrase):
    chat, match_id = table
    heard: list[dict] = []
    env.service.hub.subscribe_table(match_id, lambda _m, notice: heard.append(notice))
    with pytest.raises(DomainError) as caught:
        await chat.say(match_id, env.users[0], phrase)
    assert caught.value.code == "bad_message"
    assert caught.value.params["reason"] == "unknown_phrase" and caught.value.params["phrases"] == list(PHRASES)
    assert heard == [] and await _stored(env, match_id) == 0
    # and it did not use up the budget
    for _ in range(3):
        await chat.say(match_id, env.users[0], "hello")


async def test_spectators_read_but_do_not_chat(env, table):
    chat, match_id = table
    with pytest.raises(DomainError) as caught:
        await chat.say(match_id, env.users[2], "hello")
    assert caught.value.code == "forbidden" and caught.value.params == {"reason": "players_only"}
    with pytest.raises(DomainError) as missing:
        await chat.say(10**6, env.users[0], "hello")
    assert missing.value.code == "not_found"
    assert await _stored(env, match_id) == 0


async def test_the_chat_budget_is_per_player(env, table):
    chat, match_id = table
    alice, bob, _ = env.users
    for phrase in ("hello", "good_luck", "oops"):
        await chat.say(match_id, alice, phrase)
    with pytest.raises(DomainError) as caught:
        await chat.say(match_id, alice, "thanks")
    assert caught.value.code == "rate_limited" and caught.value.params["retry_after"] >= 1
    assert await _stored(env, match_id) == 3
    await chat.say(match_id, bob, "hello")  # bob's budget is his own
    assert await _stored(env, match_id) == 4


async def test_a_refresh_of_many_tables_lets_the_event_loop_run_between_batches():
    """With a local hub no announcement waits, so a refresh of 250 matches would be one long
    callback; it yields every ``REFRESH_BATCH`` announcements, and still announces them all."""
    from app.matches import table_roster

    hub = LocalHub()
    roster = TableRoster(hub)
    heard: list[int] = []
    hub.subscribe_table_any(lambda match_id, notice: heard.append(match_id) if "roster" in notice else None)
    for match_id in range(1, 251):
        roster.join(match_id, 0)
    await asyncio.sleep(0.05)  # the joins' own announcements
    heard.clear()
    ticks: list[int] = []

    async def ticker() -> None:
        while True:
            ticks.append(len(heard))
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    await roster.refresh()
    task.cancel()
    assert sorted(heard) == list(range(1, 251))
    between = [n for n in ticks if 0 < n < 250]  # the ticker ran while the refresh was under way
    assert between and max(between) - min(between) >= table_roster.REFRESH_BATCH
