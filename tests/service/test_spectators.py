"""Spectators: the count across processes (app/gateway/spectators.py, through in-process and
Redis notices), the ``spectators`` frame, and the "Live now" list (``GET /api/matches/live``)."""

from __future__ import annotations

import asyncio

import pytest

from app.gateway.spectators import FORGET_AFTER_SECONDS, SpectatorCounts
from app.matches.notices import LocalNotices, RedisNotices
from tests.conftest import require_service
from tests.service.test_gateway import _match, _recv, _user


class Ticks:
    """A fake monotonic clock."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SharedNotices(LocalNotices):
    """One process's end of an in-memory bus shared with other :class:`SharedNotices`, as
    :class:`RedisNotices` would be (every process hears every notice, with its publisher)."""

    def __init__(self, bus: list[SharedNotices]) -> None:
        super().__init__()
        self.bus = bus
        bus.append(self)

    async def publish(self, kind, match_id, data=None):
        for end in self.bus:
            end._deliver(kind, match_id, dict(data or {}), self.process)


async def test_counts_add_up_across_processes_and_a_dead_process_is_forgotten():
    bus: list[SharedNotices] = []
    clock = Ticks()
    one, two = SpectatorCounts(SharedNotices(bus), clock), SpectatorCounts(SharedNotices(bus), clock)
    seen: list[int] = []
    await one.watch(5, seen.append)
    await one.opened(5)
    await two.opened(5)
    await two.opened(5)
    await two.opened(6)
    assert one.count(5) == two.count(5) == 3
    assert one.count(6) == 1 and one.count(7) == 0
    assert seen == [1, 2, 3]
    await two.closed(5)
    assert one.count(5) == 2 and seen[-1] == 2
    # process two dies with a socket open: once its figure is stale, one forgets it
    clock.now += FORGET_AFTER_SECONDS + 1
    await one.repeat()
    assert one.count(5) == 1 and seen[-1] == 1
    await one.closed(5)
    assert one.count(5) == 0 and seen[-1] == 0


async def test_a_process_that_starts_watching_asks_the_others():
    bus: list[SharedNotices] = []
    old = SpectatorCounts(SharedNotices(bus))
    await old.opened(9)
    new = SpectatorCounts(SharedNotices(bus))  # started after the socket opened elsewhere
    assert new.count(9) == 0
    seen: list[int] = []
    await new.watch(9, seen.append)
    await asyncio.sleep(0.01)  # the answer is published from a task
    assert new.count(9) == 1 and seen == [1]


async def test_repeats_keep_a_live_process_counted():
    bus: list[SharedNotices] = []
    clock = Ticks()
    one, two = SpectatorCounts(SharedNotices(bus), clock), SpectatorCounts(SharedNotices(bus), clock)
    await two.opened(4)
    for _ in range(3):
        clock.now += FORGET_AFTER_SECONDS - 1
        await two.repeat()
        await one.repeat()
        assert one.count(4) == 1


@pytest.mark.redis
async def test_counts_travel_through_redis():
    require_service("Redis", "127.0.0.1", 6379)
    a, b = RedisNotices("redis://127.0.0.1:6379/0"), RedisNotices("redis://127.0.0.1:6379/0")
    await a.start()
    await b.start()
    try:
        one, two = SpectatorCounts(a), SpectatorCounts(b)
        changed = asyncio.Event()
        await one.watch(123456, lambda _n: changed.set())
        await two.opened(123456)
        await asyncio.wait_for(changed.wait(), 5)
        assert one.count(123456) == 1
        changed.clear()
        await two.closed(123456)
        await asyncio.wait_for(changed.wait(), 5)
        assert one.count(123456) == 0
    finally:
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
    assert set(item) == {"id", "game", "origin", "num_players", "started_at", "turn_seconds", "seats", "spectators"}
    assert [s["user"]["name"] for s in item["seats"]] == ["alice", "bobby"]
    assert all(set(s) == {"seat", "user", "bot"} for s in item["seats"])
    text = client.get("/api/matches/live").text
    for hidden in ("seed", "state", "pending", "legal", "view", "hand"):
        assert f'"{hidden}' not in text
    assert waiting not in [m["id"] for m in live]
    assert [m["id"] for m in client.get("/api/matches/live?game=stratego_junior").json()["matches"]] == []
    assert client.get("/api/matches/live?limit=0").status_code == 422
