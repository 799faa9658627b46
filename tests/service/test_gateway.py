"""The websocket gateway: protocol frames, per-viewer snapshots, bad frames that change nothing."""

from __future__ import annotations

import contextlib
import json

import pytest

from app.gateway.frames import (
    ChatFrame,
    ErrorFrame,
    PongFrame,
    PresenceFrame,
    RematchFrame,
    SnapshotFrame,
    SpectatorsFrame,
)

#: every server frame type, with its TypedDict (a hello asks for the last four in ``notices``)
FRAME_TYPES = {
    "snapshot": SnapshotFrame,
    "error": ErrorFrame,
    "pong": PongFrame,
    "rematch": RematchFrame,
    "spectators": SpectatorsFrame,
    "presence": PresenceFrame,
    "chat": ChatFrame,
}


def _user(client, name):
    """Register ``name`` and return bearer headers (the client's cookie jar is left empty)."""
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _match(client, a, b):
    r = client.post(
        "/api/matches",
        json={"game": "battle_runes", "options": {"turn_seconds": 120, "start_score": 500, "win_score": 1000}},
        headers=a,
    )
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    r = client.post(f"/api/matches/{match_id}/join", headers=b)
    assert r.status_code == 200 and r.json()["status"] == "active", r.text
    return match_id


def _recv(ws, kind=None):
    """The next frame, checked against its type in ``app/gateway/frames.py`` (every key it must
    have, no key it does not declare)."""
    frame = ws.receive_json()
    if kind is not None:
        assert frame["type"] == kind, frame
    typed = FRAME_TYPES[frame["type"]]
    assert typed.__required_keys__ <= set(frame) <= typed.__required_keys__ | typed.__optional_keys__, frame
    return frame


@pytest.fixture
def two(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    return client, a, b, _match(client, a, b)


def test_hello_gives_a_snapshot_for_the_seat(two):
    client, a, _b, match_id = two
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
        ws.send_json({"type": "hello", "since": 0})
        snap = _recv(ws, "snapshot")
        assert snap["seat"] == 0 and snap["status"] == "active"
        assert snap["to_act"] == [0, 1] and len(snap["legal"]) == 10
        assert snap["clock"]["remaining_ms"]["0"] > 100_000
        assert [e["kind"] for e in snap["events"]][:2] == ["start", "chance"]
        assert snap["events"][0]["seed_hash"] == snap["seed_hash"]
    # a spectator sees the same board, no legal actions
    client.cookies.clear()
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "hello", "since": 0})
        snap = _recv(ws, "snapshot")
        assert snap["seat"] is None and snap["legal"] == []
        assert snap["view"]["hands"] == snap["view"]["hands"]


def test_an_open_socket_holds_no_database_session_or_user_row(two):
    """A socket needs its viewer's id only: the session that looked the user up, and the row,
    are gone once the socket serves (every full collection walks what open sockets hold)."""
    import gc

    from sqlalchemy.ext.asyncio import AsyncSession

    from app.users.models import User

    client, a, b, match_id = two

    def alive(kind: type) -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is kind)

    sessions, users = alive(AsyncSession), alive(User)
    with contextlib.ExitStack() as stack:
        for headers in (a, b) * 3:
            ws = stack.enter_context(client.websocket_connect(f"/ws/matches/{match_id}", headers=headers))
            ws.send_json({"type": "hello", "since": 0})
            assert _recv(ws, "snapshot")["status"] == "active"
        # (a session of the app's background work may be open at the moment of counting: not 6)
        assert alive(AsyncSession) - sessions < 3 and alive(User) - users < 3


def test_act_over_websocket_reaches_every_viewer(two):
    client, a, b, match_id = two
    with (
        client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa,
        client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb,
    ):
        wa.send_json({"type": "hello", "since": 0})
        sa = _recv(wa, "snapshot")
        wb.send_json({"type": "hello", "since": 0})
        sb = _recv(wb, "snapshot")
        wa.send_json({"type": "act", "action": sa["legal"][0], "version": sa["version"], "ack": "a1"})
        ack = _recv(wa, "snapshot")
        assert ack["ack"] == "a1" and ack["chosen"] == [0] and ack["legal"] == []
        seen = _recv(wb, "snapshot")  # pushed to B by the hub
        assert seen["chosen"] == [0] and seen["events"][-1]["action"] is None
        wb.send_json({"type": "act", "action": sb["legal"][9], "version": sb["version"], "ack": "b1"})
        done = _recv(wb, "snapshot")
        assert done["ack"] == "b1" and done["view"]["turn"] == sb["view"]["turn"] + 1
        kinds = [e["kind"] for ev in done["events"] for e in ev["events"]]
        assert "turn_resolved" in kinds
        pushed = _recv(wa, "snapshot")
        assert pushed["version"] == done["version"] and pushed["legal"]


BAD_FRAMES = [  # (frame, code, what params say)
    ("not json", "bad_message", {"reason": "not_json"}),
    (json.dumps([1, 2]), "bad_message", {"reason": "not_object"}),
    (json.dumps({"type": "dance"}), "bad_message", {"reason": "unknown_type"}),
    (json.dumps({"type": "act", "version": 3}), "bad_message", {"reason": "missing_field", "field": "action"}),
    (
        json.dumps({"type": "act", "action": {"runes": ["S1"]}, "version": "x"}),
        "bad_message",
        {"reason": "bad_field", "field": "version"},
    ),
    (json.dumps({"type": "hello", "since": -4}), "bad_message", {"reason": "bad_field", "field": "since"}),
    (
        json.dumps({"type": "act", "action": {"runes": ["S1", "S2", "S3"]}, "version": 1, "ack": "x" * 200}),
        "bad_message",
        {"reason": "bad_field", "field": "ack", "limit": 64},
    ),
    (json.dumps({"type": "ping", "pad": "x" * 40_000}), "bad_message", {"reason": "too_large", "limit": 16384}),
]


def test_bad_frames_get_errors_and_the_socket_stays_usable(two):
    client, a, _b, match_id = two
    before = client.get(f"/api/matches/{match_id}").json()["version"]
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
        ws.send_json({"type": "hello", "since": 0})
        snap = _recv(ws, "snapshot")
        for text, code, params in BAD_FRAMES:
            ws.send_text(text)
            err = _recv(ws, "error")
            assert err["code"] == code, (text[:60], err)
            assert err["message"] and err["params"] == params and err["ack"] is None
        ws.send_text(json.dumps({"type": "hello", "since": "x", "ack": "h1"}))  # a readable ack is answered
        assert _recv(ws, "error") | {"message": ""} == {
            "type": "error",
            "code": "bad_message",
            "message": "",
            "params": {"reason": "bad_field", "field": "since"},
            "ack": "h1",
        }
        ws.send_bytes(b"\x00\x01")
        err = _recv(ws, "error")
        assert err["code"] == "bad_message" and err["params"] == {"reason": "binary"}
        # an action not in legal: runes of the opponent's hand
        foreign = snap["view"]["hands"][1][:3]
        ws.send_json({"type": "act", "action": {"runes": foreign}, "version": snap["version"], "ack": "f"})
        err = _recv(ws, "error")
        assert err["code"] == "illegal_action" and err["ack"] == "f"
        ws.send_json({"type": "ping"})
        assert _recv(ws, "pong")
    assert client.get(f"/api/matches/{match_id}").json()["version"] == before


def test_out_of_turn_stale_and_spectator_errors(two):
    client, a, b, match_id = two
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
        ws.send_json({"type": "hello", "since": 0})
        snap = _recv(ws, "snapshot")
        ws.send_json({"type": "act", "action": snap["legal"][0], "version": snap["version"], "ack": "1"})
        _recv(ws, "snapshot")
        ws.send_json({"type": "act", "action": snap["legal"][1], "version": snap["version"], "ack": "2"})
        err = _recv(ws, "error")
        assert err["code"] == "not_your_turn" and err["ack"] == "2"
    # B resolves the turn; then A's old version is stale and A gets a fresh snapshot
    sb = client.get(f"/api/matches/{match_id}/snapshot", headers=b).json()
    r = client.post(
        f"/api/matches/{match_id}/act", json={"action": sb["legal"][0], "version": sb["version"]}, headers=b
    )
    assert r.status_code == 200, r.text
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
        ws.send_json({"type": "hello", "since": 0})
        fresh = _recv(ws, "snapshot")
        assert fresh["legal"], {k: fresh[k] for k in ("seat", "status", "to_act", "chosen", "version", "events")}
        ws.send_json({"type": "act", "action": fresh["legal"][0], "version": snap["version"], "ack": "3"})
        assert _recv(ws, "error")["code"] == "stale_version"
        assert _recv(ws, "snapshot")["version"] == fresh["version"]
    client.cookies.clear()
    with client.websocket_connect(f"/ws/matches/{match_id}") as ws:
        ws.send_json({"type": "act", "action": fresh["legal"][0], "version": fresh["version"]})
        assert _recv(ws, "error")["code"] == "unauthorized"
    c = _user(client, "carol")
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=c) as ws:
        ws.send_json({"type": "act", "action": fresh["legal"][0], "version": fresh["version"]})
        assert _recv(ws, "error")["code"] == "not_your_turn"


def test_unknown_match_is_not_found(client):
    with client.websocket_connect("/ws/matches/424242") as ws:
        err = _recv(ws, "error")
        assert err["code"] == "not_found" and err["ack"] is None


def test_game_over_after_the_end(client):
    a = _user(client, "alice")
    r = client.post(
        "/api/matches",
        json={
            "game": "battle_runes",
            "options": {"turn_seconds": 30, "start_score": 1},
            "computer": [{"seat": 1, "level": "random"}],
        },
        headers=a,
    )
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
        ws.send_json({"type": "hello", "since": 0})
        snap = _recv(ws, "snapshot")
        for _ in range(100):
            if snap["status"] == "finished":
                break
            if snap["legal"]:
                ws.send_json({"type": "act", "action": snap["legal"][0], "version": snap["version"]})
            frame = _recv(ws)
            if frame["type"] == "error":  # the computer moved on meanwhile: a fresh snapshot follows
                assert frame["code"] == "stale_version", frame
                frame = _recv(ws, "snapshot")
            snap = frame
        assert snap["status"] == "finished" and snap["result"]["results"]
        assert "seed" in snap
        ws.send_json({"type": "act", "action": {"runes": snap["view"]["hands"][0][:3]}, "version": snap["version"]})
        assert _recv(ws, "error")["code"] == "game_over"
    replay = client.get(f"/api/matches/{match_id}/replay").json()
    assert replay["steps"][-1]["kind"] == "end"


def test_two_tabs_of_one_player_and_a_reconnect_that_misses_nothing(two):
    client, a, b, match_id = two
    url = f"/ws/matches/{match_id}"
    with client.websocket_connect(url, headers=dict(a)) as tab1, client.websocket_connect(url, headers=dict(a)) as tab2:
        tab1.send_json({"type": "hello", "since": 0})
        first = _recv(tab1, "snapshot")
        tab2.send_json({"type": "hello", "since": 0})
        assert _recv(tab2, "snapshot")["seat"] == 0
        # the player acts in tab 2; tab 1 gets the change too
        tab2.send_json({"type": "act", "action": first["legal"][0], "version": first["version"], "ack": "t2"})
        assert _recv(tab2, "snapshot")["ack"] == "t2"
        pushed = _recv(tab1, "snapshot")
        assert pushed["chosen"] == [0] and pushed["legal"] == []
        last_seen = pushed["version"]
    # while A is away from the match, B finishes the turn and the next turn starts
    sb = client.get(f"/api/matches/{match_id}/snapshot", headers=b).json()
    client.post(f"/api/matches/{match_id}/act", json={"action": sb["legal"][0], "version": sb["version"]}, headers=b)
    with client.websocket_connect(url, headers=dict(a)) as ws:
        ws.send_json({"type": "hello", "since": last_seen})
        snap = _recv(ws, "snapshot")
        assert snap["seat"] == 0 and snap["legal"]  # the seat is kept
        assert [e["version"] for e in snap["events"]] == list(range(last_seen + 1, snap["version"] + 1))
        kinds = [e["kind"] for ev in snap["events"] for e in ev["events"]]
        assert "turn_resolved" in kinds


def test_huge_numbers_and_deep_nesting_are_refused_cleanly(two):
    client, a, _b, match_id = two
    huge = 10**30
    for path in (
        f"/api/matches/{huge}",
        f"/api/matches/{match_id}/events?since={huge}",
        f"/api/matches/{huge}/snapshot",
        f"/api/decks/{huge}",
    ):
        r = client.get(path, headers=a)
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", path
    assert client.get(f"/matches/{huge}").status_code == 422
    with client.websocket_connect(f"/ws/matches/{huge}") as ws:
        assert _recv(ws, "error")["code"] == "not_found"
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=dict(a)) as ws:
        for frame in ({"type": "hello", "since": huge}, {"type": "act", "action": {}, "version": huge}):
            ws.send_json(frame)
            assert _recv(ws, "error")["code"] == "bad_message"
        ws.send_text("[" * 5000 + "]" * 5000)
        assert _recv(ws, "error")["code"] == "bad_message"
        ws.send_json({"type": "ping"})
        assert _recv(ws, "pong")


def test_a_flood_of_frames_is_rate_limited_with_a_retry_after(sqlite_url):
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(sqlite_url, ws_rate_limit="3/minute"))) as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        match_id = _match(client, a, b)
        with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as ws:
            for _ in range(3):
                ws.send_json({"type": "ping"})
                _recv(ws, "pong")
            ws.send_json({"type": "act", "action": {}, "version": 1, "ack": "late"})
            err = _recv(ws, "error")
            assert err["code"] == "rate_limited" and err["ack"] == "late"
            assert set(err["params"]) == {"retry_after"} and 1 <= err["params"]["retry_after"] <= 60
