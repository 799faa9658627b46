"""Connection budgets: caps on open websockets per user, per address, for anonymous spectators per
match and per address, and on frames across a user's or an address's sockets (``hello`` too).
Over a cap the socket gets a clear error (and a close code for a refused socket); nothing else
changes."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from tests.conftest import make_settings
from tests.service.test_gateway import _match, _recv, _user

TRY_AGAIN_LATER = 1013


def _app(sqlite_url, **caps):
    return TestClient(create_app(make_settings(sqlite_url, **caps)))


def _refused(ws, limit, per):
    """Send a ping: a refused socket answers with ``too_many_connections`` and closes instead."""
    ws.send_json({"type": "ping"})
    frame = _recv(ws)
    assert frame["type"] == "error" and frame["code"] == "too_many_connections", frame
    assert frame["params"] == {"limit": limit, "per": per}
    with pytest.raises(WebSocketDisconnect) as closed:
        _recv(ws)
    assert closed.value.code == TRY_AGAIN_LATER


def _open(ws):
    ws.send_json({"type": "ping"})
    assert _recv(ws, "pong")


def test_sockets_per_user_are_capped_and_freed_on_close(sqlite_url):
    with _app(sqlite_url, ws_max_sockets_per_user=2) as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        url = f"/ws/matches/{_match(client, a, b)}"
        with client.websocket_connect(url, headers=a) as one:
            _open(one)
            with client.websocket_connect(url, headers=a) as two:
                _open(two)
                with client.websocket_connect(url, headers=a) as three:
                    _refused(three, 2, "user")
                with client.websocket_connect(url, headers=b) as other_user:
                    _open(other_user)
                _open(one)  # the sockets within the cap are untouched
            with client.websocket_connect(url, headers=a) as again:  # a closed socket frees its place
                _open(again)


def test_sockets_per_address_are_capped(sqlite_url):
    with _app(sqlite_url, ws_max_sockets_per_address=2) as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        url = f"/ws/matches/{_match(client, a, b)}"
        with client.websocket_connect(url, headers=a) as one, client.websocket_connect(url, headers=b) as two:
            _open(one)
            _open(two)
            with client.websocket_connect(url) as three:
                _refused(three, 2, "address")


def test_anonymous_spectators_are_capped_per_match_and_per_address(sqlite_url):
    with _app(sqlite_url, ws_max_anonymous_per_match=2, ws_max_anonymous_per_address=3) as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        first, second = _match(client, a, b), _match(client, b, a)
        with (
            client.websocket_connect(f"/ws/matches/{first}") as s1,
            client.websocket_connect(f"/ws/matches/{first}") as s2,
        ):
            _open(s1)
            _open(s2)
            with client.websocket_connect(f"/ws/matches/{first}") as s3:
                _refused(s3, 2, "match")
            with client.websocket_connect(f"/ws/matches/{first}", headers=a) as player:
                _open(player)  # players are not spectators: their seat is theirs
            with client.websocket_connect(f"/ws/matches/{second}") as s4:
                _open(s4)
                with client.websocket_connect(f"/ws/matches/{second}") as s5:
                    _refused(s5, 3, "anonymous_address")


def test_frames_are_budgeted_across_a_users_sockets(sqlite_url):
    with _app(sqlite_url, ws_user_rate_limit="4/minute") as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        url = f"/ws/matches/{_match(client, a, b)}"
        with client.websocket_connect(url, headers=a) as one, client.websocket_connect(url, headers=a) as two:
            for ws in (one, two, one, two):
                _open(ws)
            two.send_json({"type": "act", "action": {}, "version": 1, "ack": "x"})
            err = _recv(two, "error")
            assert err["code"] == "rate_limited" and err["ack"] == "x"
            assert err["params"]["per"] == "user" and 1 <= err["params"]["retry_after"] <= 60
            one.send_json({"type": "hello", "since": 0})
            assert _recv(one, "error")["code"] == "rate_limited"
            with client.websocket_connect(url, headers=b) as other_user:
                _open(other_user)


def test_repeated_hellos_from_one_address_are_rate_limited(sqlite_url):
    with _app(sqlite_url, ws_address_rate_limit="3/minute") as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        url = f"/ws/matches/{_match(client, a, b)}"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            for ws in (one, two, one):
                ws.send_json({"type": "hello", "since": 0})
                assert _recv(ws, "snapshot")
            two.send_json({"type": "hello", "since": 0})
            err = _recv(two, "error")
            assert err["code"] == "rate_limited" and err["params"]["per"] == "address"


def test_frame_buckets_pass_a_burst_then_the_rate_and_say_when_to_retry(monkeypatch):
    from app.gateway import budget

    now = [1000.0]
    monkeypatch.setattr(budget.time, "monotonic", lambda: now[0])
    buckets = budget.FrameBuckets("3/10second; 5/minute")
    assert [buckets.hit("a") for _ in range(4)] == [0, 0, 0, 4]  # a token comes back every 10/3 s
    assert buckets.hit("b") == 0  # keys are independent
    now[0] += 3.4  # one token back: one frame, then 3.3 s more
    assert [buckets.hit("a"), buckets.hit("a")] == [0, 4]  # refused hits are not counted
    now[0] += 20  # the 10-second bucket is full; the per-minute one has 1.95 frames
    assert [buckets.hit("a"), buckets.hit("a"), buckets.hit("a")] == [0, 0, 1]
    with pytest.raises(ValueError):
        budget.FrameBuckets("")


def test_frame_buckets_forget_full_buckets_only(monkeypatch):
    from app.gateway import budget

    now = [0.0]
    monkeypatch.setattr(budget.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(budget.FrameBuckets, "SWEEP_AT", 3)
    buckets = budget.FrameBuckets("2/second")
    buckets.hit("old")
    buckets.hit("busy")
    buckets.hit("busy")
    now[0] += 0.1
    buckets.hit("x")  # third key: a sweep, but nobody has refilled yet
    assert set(buckets._buckets) == {"old", "busy", "x"}
    now[0] += 5
    buckets.hit("y")  # every bucket is full again: forgotten
    assert set(buckets._buckets) == {"y"}
