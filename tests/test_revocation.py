"""Credentials end everywhere at once: revoking a token or logging out closes every websocket
opened with it, in this process and (through Redis) in every other, within a second."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from app.main import create_app
from tests.conftest import make_settings, require_redis
from tests.service.test_gateway import _match, _recv, _user

POLICY_VIOLATION = 1008


def _assert_closed_as_revoked(ws, within: float = 1.0) -> None:
    """Keep pinging ``ws`` until it answers ``unauthorized`` (reason ``revoked``) and closes with
    1008; fail if it still answers ``pong`` after ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        ws.send_json({"type": "ping"})
        frame = _recv(ws)
        if frame["type"] != "pong":
            break
        assert time.monotonic() < deadline, "the socket still answers after its credential ended"
    assert frame["type"] == "error" and frame["code"] == "unauthorized", frame
    assert frame["params"] == {"reason": "revoked"}
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:  # a pong already on its way may come first
            assert _recv(ws)["type"] == "pong"
    assert closed.value.code == POLICY_VIOLATION


def test_revoking_a_token_closes_its_sockets_and_no_other(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        a2 = _user_token(client, "alice")
        match_id = _match(client, a, b)
        url = f"/ws/matches/{match_id}"
        with (
            client.websocket_connect(url, headers=a) as revoked,
            client.websocket_connect(url, headers=a2) as same_user_other_token,
            client.websocket_connect(url, headers=b) as other_user,
        ):
            revoked.send_json({"type": "hello", "since": 0})
            assert _recv(revoked, "snapshot")["seat"] == 0
            assert client.delete("/api/auth/token", headers=a).status_code == 204
            _assert_closed_as_revoked(revoked, within=0.0)
            for ws in (same_user_other_token, other_user):
                ws.send_json({"type": "ping"})
                assert _recv(ws, "pong")


def test_logging_out_closes_the_sockets_of_that_session(sqlite_url):
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        b = _user(client, "bobby")
        r = client.post("/api/auth/register", json={"name": "alice", "password": "correct horse 1"})
        assert r.status_code == 201
        a = _user_token(client, "alice")  # a bot token of the same player, not this browser session
        match_id = _match(client, a, b)
        url = f"/ws/matches/{match_id}"
        with client.websocket_connect(url) as browser, client.websocket_connect(url, headers=a) as bot:
            browser.send_json({"type": "hello", "since": 0})
            assert _recv(browser, "snapshot")["seat"] == 0  # the cookie holds the seat
            assert client.post("/api/auth/logout").status_code == 204
            _assert_closed_as_revoked(browser, within=0.0)
            bot.send_json({"type": "ping"})
            assert _recv(bot, "pong")


@pytest.mark.redis
def test_revocation_reaches_sockets_on_another_process(tmp_path):
    """Two app instances (two event loops, as two processes would have) on one database and one
    Redis: a token revoked through the first closes the socket opened on the second."""
    redis_url = require_redis(0)
    from tests.conftest import _create_schema, run

    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    run(_create_schema(url))
    settings = make_settings(url, redis_url=redis_url)
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        a, b = _user(one, "alice"), _user(one, "bobby")
        match_id = _match(one, a, b)
        with two.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
            ws.send_json({"type": "hello", "since": 0})
            assert _recv(ws, "snapshot")["seat"] == 0
            assert one.delete("/api/auth/token", headers=a).status_code == 204
            _assert_closed_as_revoked(ws, within=1.0)


def _user_token(client, name):
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    return {"Authorization": f"Bearer {r.json()['token']}"}
