"""The table's frames on ``/ws/matches/{id}`` (issue 16): ``presence`` and ``chat``, their shapes,
who gets them (only a ``hello`` whose ``notices`` name them, each on its own), and that they carry
nothing hidden."""

from __future__ import annotations

import json

import pytest

from tests.service.test_gateway import FRAME_TYPES, _match, _user

#: what the match page asks for, the table's part of it
TABLE = ["presence", "chat"]


def recv(ws, kind: str) -> dict:
    """The next frame of type ``kind``, every frame on the way checked against its type in
    ``app/gateway/frames.py`` (every key it must have, no key it does not declare); snapshots
    on the way are skipped (the hub pushes them after any change), and presence frames when
    waiting for another kind."""
    skip = {"snapshot"} if kind == "presence" else {"snapshot", "presence"}
    while True:
        frame = ws.receive_json()
        typed = FRAME_TYPES[frame["type"]]
        assert typed.__required_keys__ <= set(frame) <= typed.__required_keys__ | typed.__optional_keys__, frame
        if frame["type"] == kind:
            return frame
        assert frame["type"] in skip, frame


def hello(ws, notices=TABLE, **extra) -> dict:
    ws.send_json({"type": "hello", "since": 0, "notices": notices, **extra})
    return recv(ws, "snapshot")


@pytest.fixture
def two(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    return client, a, b, _match(client, a, b)


def test_presence_follows_the_players_sockets(two):
    client, a, b, match_id = two
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa:
        hello(wa)
        assert recv(wa, "presence") == {"type": "presence", "match_id": match_id, "connected": [0]}
        with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb:
            hello(wb)
            assert recv(wb, "presence")["connected"] == [0, 1]
            assert recv(wa, "presence")["connected"] == [0, 1]  # pushed to a when b came
            client.cookies.clear()
            with client.websocket_connect(f"/ws/matches/{match_id}") as spectator:
                hello(spectator)
                assert recv(spectator, "presence")["connected"] == [0, 1]  # a spectator is no seat
        assert recv(wa, "presence")["connected"] == [0]  # b closed the tab: gone
        with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb:
            hello(wb)
            assert recv(wa, "presence")["connected"] == [0, 1]  # and came back


def test_chat_reaches_players_and_spectators_and_a_reload_gets_it_again(two):
    client, a, b, match_id = two
    carol = _user(client, "carol")  # logged in, no seat: a spectator
    with (
        client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa,
        client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb,
    ):
        with client.websocket_connect(f"/ws/matches/{match_id}", headers=carol) as spectator:
            for ws in (wa, wb, spectator):
                hello(ws)
            wa.send_json({"type": "chat", "phrase": "good_luck", "ack": "c1"})
            frames = [recv(ws, "chat") for ws in (wa, wb, spectator)]
            assert frames[0] == frames[1] == frames[2]  # one public line, the same for everyone
            (line,) = frames[0]["lines"]
            assert frames[0]["match_id"] == match_id
            assert set(line) == {"id", "seat", "phrase", "at"}
            assert (line["seat"], line["phrase"]) == (0, "good_luck")
            wb.send_json({"type": "chat", "phrase": "thanks"})
            assert recv(wa, "chat")["lines"][0]["phrase"] == "thanks"
            assert recv(spectator, "chat")["lines"][0]["phrase"] == "thanks"
            # a spectator reads but does not write
            spectator.send_json({"type": "chat", "phrase": "hello", "ack": "s1"})
            err = recv(spectator, "error")
            assert err["code"] == "forbidden" and err["params"] == {"reason": "players_only"} and err["ack"] == "s1"
        client.cookies.clear()
        with client.websocket_connect(f"/ws/matches/{match_id}") as anonymous:
            hello(anonymous)
            assert len(recv(anonymous, "chat")["lines"]) == 2  # anyone who may watch reads the chat
            anonymous.send_json({"type": "chat", "phrase": "hello", "ack": "n1"})
            assert recv(anonymous, "error")["code"] == "unauthorized"
    # a reload: the recent lines come with the hello, oldest first; with chat_since, only newer ones
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb:
        hello(wb)
        lines = recv(wb, "chat")["lines"]
        assert [(x["seat"], x["phrase"]) for x in lines] == [(0, "good_luck"), (1, "thanks")]
        hello(wb, chat_since=lines[0]["id"])
        assert [x["phrase"] for x in recv(wb, "chat")["lines"]] == ["thanks"]
        hello(wb, chat_since=lines[1]["id"])
        recv(wb, "presence")
        wb.send_json({"type": "ping"})
        recv(wb, "pong")  # no chat frame came before it: nothing newer


def test_bad_chat_frames_are_refused_and_change_nothing(two):
    client, a, _b, match_id = two
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa:
        hello(wa)
        for frame, params in [
            ({"phrase": "you suck"}, {"reason": "unknown_phrase", "field": "phrase"}),
            ({"phrase": "HELLO"}, {"reason": "unknown_phrase", "field": "phrase"}),
            ({"phrase": 3}, {"reason": "bad_field", "field": "phrase"}),
            ({"phrase": "x" * 33}, {"reason": "bad_field", "field": "phrase"}),
            ({}, {"reason": "bad_field", "field": "phrase"}),
            ({"text": "free text is off"}, {"reason": "bad_field", "field": "phrase"}),
        ]:
            wa.send_json({"type": "chat", "ack": "k", **frame})
            err = recv(wa, "error")
            assert err["code"] == "bad_message" and err["ack"] == "k", err
            assert {k: err["params"][k] for k in params} == params
        wa.send_json({"type": "hello", "since": 0, "notices": ["presence", "yes"]})
        assert recv(wa, "error")["params"] == {"reason": "bad_field", "field": "notices"}
    # nothing was said
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa:
        hello(wa)
        recv(wa, "presence")
        wa.send_json({"type": "ping"})
        recv(wa, "pong")


def test_the_chat_budget_refuses_a_flood(two):
    """The default budget (settings.chat_rate_limit, 4 lines per 10 seconds): the fifth line is
    refused with rate_limited and is not sent to anyone."""
    client, a, b, match_id = two
    with (
        client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa,
        client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb,
    ):
        hello(wa)
        hello(wb)
        for n in range(4):
            wa.send_json({"type": "chat", "phrase": "oops", "ack": f"f{n}"})
            recv(wa, "chat")  # the sender's own line comes back like everyone's
            recv(wb, "chat")
        wa.send_json({"type": "chat", "phrase": "oops", "ack": "f4"})
        err = recv(wa, "error")
        assert err["code"] == "rate_limited" and err["ack"] == "f4" and err["params"]["retry_after"] >= 1
        wb.send_json({"type": "chat", "phrase": "hello"})  # the other player's budget is their own
        assert recv(wb, "chat")["lines"][0]["seat"] == 1
        assert recv(wa, "chat")["lines"][0]["seat"] == 1  # the refused line was never sent


def test_without_table_a_connection_gets_only_the_frames_it_always_had(two):
    """A bot's ``hello`` without ``notices``: no presence and no chat frames, whatever happens."""
    client, a, b, match_id = two
    with (
        client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa,
        client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb,
    ):
        wb.send_json({"type": "hello", "since": 0})
        snap = recv(wb, "snapshot")
        hello(wa)
        wa.send_json({"type": "chat", "phrase": "hello"})
        recv(wa, "chat")
        wb.send_json({"type": "act", "action": snap["legal"][0], "version": snap["version"], "ack": "b1"})
        assert recv(wb, "snapshot")["ack"] == "b1"
        wb.send_json({"type": "ping"})
        assert wb.receive_json()["type"] == "pong"


def test_presence_and_chat_are_asked_for_each_on_its_own(two):
    """``notices: ["presence"]`` brings presence frames and no chat; ``["chat"]`` the chat and no
    presence; a later ``hello`` may add what the first one did not ask for."""
    client, a, b, match_id = two
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa:
        hello(wa, ["presence"])
        assert recv(wa, "presence")["connected"] == [0]
        with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb:
            hello(wb, ["chat"])
            assert recv(wa, "presence")["connected"] == [0, 1]
            wb.send_json({"type": "chat", "phrase": "hello"})
            assert recv(wb, "chat")["lines"][0]["phrase"] == "hello"
            wb.send_json({"type": "ping"})
            assert wb.receive_json()["type"] == "pong", "no presence frame for a hello without presence"
            wa.send_json({"type": "ping"})
            assert wa.receive_json()["type"] == "pong", "no chat frame for a hello without chat"
            hello(wa, ["presence", "chat"])  # now the chat too, with the lines said so far
            assert recv(wa, "presence")["connected"] == [0, 1]
            assert [x["phrase"] for x in recv(wa, "chat")["lines"]] == ["hello"]


def test_table_frames_hold_nothing_of_the_game(two):
    """Presence and chat frames are the same for every viewer and carry no view, hand or choice."""
    client, a, b, match_id = two
    with (
        client.websocket_connect(f"/ws/matches/{match_id}", headers=a) as wa,
        client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as wb,
    ):
        sa = hello(wa)
        hello(wb)
        recv(wa, "presence")
        recv(wb, "presence")
        hand = json.dumps(sa["view"]["hands"][0]) if isinstance(sa["view"].get("hands"), list) else None
        wa.send_json({"type": "act", "action": sa["legal"][0], "version": sa["version"], "ack": "a1"})
        wa.send_json({"type": "chat", "phrase": "oops"})
        got = recv(wb, "chat")
        text = json.dumps(got)
        assert set(got) == {"type", "match_id", "lines"}
        assert "view" not in text and "action" not in text and "runes" not in text
        if hand:
            assert hand not in text
