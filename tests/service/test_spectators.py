"""Spectators: the count across processes (the spectator sockets of app/matches/table_roster.py,
through in-process and Redis hub notices), the ``spectators`` frame, and the "Live now" list
(``GET /api/matches/live``)."""

from __future__ import annotations

import asyncio

import pytest

from app.matches.hub import LocalHub, RedisHub
from app.matches.table_roster import TTL_SECONDS, TableRoster
from tests.conftest import require_service
from tests.service.test_gateway import _match, _recv, _user


class Ticks:
    """A fake monotonic clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def settle() -> None:
    """Let the rosters' spawned announcements run (in-process hub: delivered at once)."""
    for _ in range(5):
        await asyncio.sleep(0)


async def test_counts_add_up_across_processes_and_a_dead_process_is_forgotten():
    """Two rosters on one in-process hub stand for two processes (every process hears every
    notice, with its publisher), as the Redis hub would."""
    hub = LocalHub()
    clock = Ticks()
    one, two = TableRoster(hub, monotonic=clock), TableRoster(hub, monotonic=clock)
    seen: list[int] = []
    await one.watch(5, lambda table: seen.append(table.spectators))
    one.join(5, None)
    await settle()
    two.join(5, None)
    await settle()
    two.join(5, None)
    await settle()
    two.join(6, None)
    await settle()
    assert one.spectators(5) == two.spectators(5) == 3
    assert one.spectators(6) == 1 and one.spectators(7) == 0
    assert seen == [1, 2, 3]
    two.leave(5, None)
    await settle()
    assert one.spectators(5) == 2 and seen[-1] == 2
    # process two dies with a socket open: once its figure is stale, one forgets it
    clock.now += TTL_SECONDS + 1
    await one.refresh()
    assert one.spectators(5) == 1 and seen[-1] == 1
    one.leave(5, None)
    await settle()
    assert one.spectators(5) == 0 and seen[-1] == 0


async def test_a_process_that_starts_watching_asks_the_others():
    hub = LocalHub()
    old = TableRoster(hub)
    old.join(9, None)
    await settle()
    new = TableRoster(hub)  # started after the socket opened elsewhere
    assert new.spectators(9) == 0
    seen: list[int] = []
    await new.watch(9, lambda table: seen.append(table.spectators))
    await asyncio.sleep(0.01)  # the answer is published from a task
    assert new.spectators(9) == 1 and seen == [1]


async def test_repeats_keep_a_live_process_counted():
    hub = LocalHub()
    clock = Ticks()
    one, two = TableRoster(hub, monotonic=clock), TableRoster(hub, monotonic=clock)
    two.join(4, None)
    await settle()
    for _ in range(3):
        clock.now += TTL_SECONDS - 1
        await two.refresh()
        await one.refresh()
        assert one.spectators(4) == 1


async def test_a_spectator_who_takes_a_seat_is_counted_once_as_a_player():
    """A spectator socket whose user joins moves over: one spectator fewer, the seat connected."""
    hub = LocalHub()
    one, two = TableRoster(hub), TableRoster(hub)
    seen: list[tuple[frozenset[int], int]] = []
    await one.watch(11, lambda table: seen.append((table.seats, table.spectators)))
    two.join(11, None)
    two.join(11, None)
    await settle()
    assert one.table(11) == (frozenset(), 2)
    two.seated(11, 1)
    await settle()
    assert one.table(11) == (frozenset({1}), 1) and seen[-1] == (frozenset({1}), 1)
    two.leave(11, 1)
    two.leave(11, None)
    two.leave(11, None)  # one leave too many is ignored
    await settle()
    assert one.table(11) == (frozenset(), 0) and two.table(11) == (frozenset(), 0)


@pytest.mark.redis
async def test_counts_travel_through_redis():
    require_service("Redis", "127.0.0.1", 6379)
    a, b = RedisHub("redis://127.0.0.1:6379/0"), RedisHub("redis://127.0.0.1:6379/0")
    await a.start()
    await b.start()
    one, two = TableRoster(a), TableRoster(b)
    try:
        changed = asyncio.Event()
        await one.watch(123456, lambda _t: changed.set())
        two.join(123456, None)
        await asyncio.wait_for(changed.wait(), 5)
        assert one.spectators(123456) == 1
        changed.clear()
        two.leave(123456, None)
        await asyncio.wait_for(changed.wait(), 5)
        assert one.spectators(123456) == 0
    finally:
        await one.stop()
        await two.stop()
        await a.stop()
        await b.stop()


def test_the_players_socket_hears_spectators_come_and_go(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    match_id = _match(client, a, b)
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as player:
        player.send_json({"type": "hello", "since": 0, "notices": ["spectators"]})
        _recv(player, "snapshot")
        assert _recv(player, "spectators") == {"type": "spectators", "match_id": match_id, "count": 0}
        with client.websocket_connect(f"/ws/matches/{match_id}") as viewer:  # anonymous
            viewer.send_json({"type": "hello", "since": 0})
            assert _recv(viewer, "snapshot")["seat"] is None
            assert _recv(player, "spectators")["count"] == 1
            live = client.get("/api/matches/live").json()["matches"]
            assert [(m["id"], m["spectators"]) for m in live] == [(match_id, 1)]
        assert _recv(player, "spectators")["count"] == 0
    # the players' own sockets are not spectators
    assert client.get("/api/matches/live").json()["matches"][0]["spectators"] == 0


def test_the_live_list_shows_watchable_running_matches_only(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    watchable = _match(client, a, b)
    r = client.post("/api/matches", json={"game": "battle_runes", "options": {"spectators": False}}, headers=a)
    private = r.json()["id"]
    client.post(f"/api/matches/{private}/join", headers=b)
    waiting = client.post("/api/matches", json={"game": "battle_runes"}, headers=a).json()["id"]
    done = _match(client, a, b)
    client.post(f"/api/matches/{done}/resign", headers=a)
    live = client.get("/api/matches/live").json()["matches"]
    assert [m["id"] for m in live] == [watchable]
    item = live[0]
    assert set(item) == {
        "id", "game", "origin", "num_players", "started_at", "turn_seconds", "options", "seats", "spectators"
    }  # fmt: skip
    assert set(item["options"]) <= {"clock", "turn_seconds", "bank_seconds", "increment_seconds"}  # the clock only
    assert [s["user"]["name"] for s in item["seats"]] == ["alice", "bobby"]
    assert all(set(s) == {"seat", "user", "bot"} for s in item["seats"])
    text = client.get("/api/matches/live").text
    for hidden in ("seed", "state", "pending", "legal", "view", "hand"):
        assert f'"{hidden}' not in text
    assert waiting not in [m["id"] for m in live]
    assert [m["id"] for m in client.get("/api/matches/live?game=stratego_junior").json()["matches"]] == []
    assert client.get("/api/matches/live?limit=0").status_code == 422
