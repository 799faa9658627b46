"""Every websocket frame sent to red, blue and a spectator during whole Stratego Junior matches
carries no castle identity its recipient had not been shown (issue: hidden setups)."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select

from app.games.core import get_rules
from app.matches.models import Match, MatchEvent
from app.matches.write import replay_rows
from tests.games.test_stratego_junior import _dicts, _unrevealed
from tests.service.test_gateway import _user

RULES = get_rules("stratego_junior")


def _drain(ws, frames, want_version=None):
    """Read frames until a snapshot at ``want_version`` or later arrives (an error frame fails the
    test at once: nothing else would come until the turn clock ran out)."""
    while True:
        frame = ws.receive_json()
        assert frame["type"] != "error", frame
        frames.append(frame)
        if frame["type"] == "snapshot" and (want_version is None or frame["version"] >= want_version):
            return frame


def _states_by_version(client, match_id):
    """The stored events and the engine state after every version, rebuilt from them."""

    async def load():
        async with client.app.state.sessionmaker() as s:
            stmt = select(MatchEvent).where(MatchEvent.match_id == match_id).order_by(MatchEvent.version)
            return await s.get(Match, match_id), (await s.execute(stmt)).scalars().all()

    m, stored = client.portal.call(load)
    states = {row.version: state for row, (state, _) in zip(stored, replay_rows(m, stored), strict=True)}
    return stored, states


@pytest.mark.parametrize(
    "options",
    [{"variant": "victory"}, {"variant": "quest", "memory_aid": True}],
    ids=["victory", "quest-memory-aid"],
)
def test_no_frame_carries_an_identity_its_recipient_was_not_shown(client, options):
    red, blue = _user(client, "redplayer"), _user(client, "blueplayer")
    options = {**options, "turn_seconds": 600}
    r = client.post("/api/matches", json={"game": "stratego_junior", "options": options}, headers=red)
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    assert client.post(f"/api/matches/{match_id}/join", headers=blue).json()["status"] == "active"
    url = f"/ws/matches/{match_id}"
    frames: dict[int | None, list[dict]] = {0: [], 1: [], None: []}
    rng = random.Random(5)
    client.cookies.clear()
    with (
        client.websocket_connect(url, headers=dict(red)) as w0,
        client.websocket_connect(url, headers=dict(blue)) as w1,
        client.websocket_connect(url) as ws,
    ):
        sockets = {0: w0, 1: w1, None: ws}
        for viewer, sock in sockets.items():
            sock.send_json({"type": "hello", "since": 0})
            _drain(sock, frames[viewer])
        snap = frames[None][-1]  # the spectator's latest snapshot says who is to act
        acts = 0
        for acts in range(3000):  # noqa: B007 (counted for the check below)
            if snap["status"] == "finished":
                break
            seat = next(s for s in snap["to_act"] if s not in snap["chosen"])
            mine = frames[seat][-1]
            sockets[seat].send_json(
                {"type": "act", "action": rng.choice(mine["legal"]), "version": mine["version"], "ack": "x"}
            )
            done = _drain(sockets[seat], frames[seat])
            assert done.get("ack") == "x", done
            for viewer in (1 - seat, None):  # the others get the change pushed
                _drain(sockets[viewer], frames[viewer], done["version"])
            snap = frames[None][-1]
        else:
            pytest.fail("the match did not end")
    assert snap["result"]["reason"] in ("flag_captured", "no_legal_action")
    stored, states = _states_by_version(client, match_id)
    visible_to = {row.version: row.payload["visible_to"] for row in stored}
    checked = 0
    for viewer, received in frames.items():
        for frame in received:
            assert frame["type"] == "snapshot", frame
            state = states[frame["version"]]
            text = json.dumps(frame, sort_keys=True)
            for secret in RULES.secrets(state, viewer):
                assert secret not in text, (viewer, frame["version"], secret)
            if frame["status"] == "finished":
                continue  # everything is revealed at the end
            hidden = _unrevealed(state, viewer)
            for d in _dicts([frame["view"], frame["events"]]):
                if "piece" in d and "uid" in d:
                    assert d["owner"] == viewer or d["uid"] not in hidden, (viewer, frame["version"], d)
            for event in frame["events"]:  # another seat's hidden input (a setup) stays hidden
                vis = visible_to[event["version"]]
                if vis is not None and viewer not in vis:
                    assert event["action"] is None and event["hidden"], (viewer, event)
            checked += 1
    # every act brought each of the three viewers at least one frame (the last ones are "finished")
    assert acts >= 3 and checked >= 3 * (acts - 1), (acts, checked)
    # the setups were sent and stored, and each seat saw only its own before the end
    setups = [row for row in stored if row.payload.get("action") and "setup" in row.payload["action"]]
    assert {row.seat for row in setups} == {0, 1}


def _faces(view) -> list[dict]:
    """Every castle and occupied tower slot in a Stratego Junior view."""
    towers = [t for row in view["towers"] for t in row if not t.get("empty")]
    return [*view["castles"], *towers]


def test_a_resigned_match_reveals_every_castle_live_and_in_the_replay(client):
    """Issue 16: a finished match (resignation included, where the game itself is not over) shows
    every castle to both players and spectators, on the live page and at every replay step."""
    red, blue = _user(client, "redresigns"), _user(client, "blueremains")
    options = {"variant": "victory", "turn_seconds": 600}
    match_id = client.post("/api/matches", json={"game": "stratego_junior", "options": options}, headers=red).json()[
        "id"
    ]
    assert client.post(f"/api/matches/{match_id}/join", headers=blue).json()["status"] == "active"
    url = f"/ws/matches/{match_id}"
    frames: dict[int | None, list[dict]] = {0: [], 1: [], None: []}
    rng = random.Random(7)
    client.cookies.clear()
    with (
        client.websocket_connect(url, headers=dict(red)) as w0,
        client.websocket_connect(url, headers=dict(blue)) as w1,
        client.websocket_connect(url) as ws,
    ):
        sockets = {0: w0, 1: w1, None: ws}
        for viewer, sock in sockets.items():
            sock.send_json({"type": "hello", "since": 0})
            _drain(sock, frames[viewer])
        snap = frames[None][-1]
        while snap["view"]["phase"] == "setup" or snap["view"]["turn"] < 4:  # the setups, then a few moves
            seat = next(s for s in snap["to_act"] if s not in snap["chosen"])
            mine = frames[seat][-1]
            sockets[seat].send_json(
                {"type": "act", "action": rng.choice(mine["legal"]), "version": mine["version"], "ack": "x"}
            )
            done = _drain(sockets[seat], frames[seat])
            for viewer in (1 - seat, None):
                _drain(sockets[viewer], frames[viewer], done["version"])
            snap = frames[None][-1]
        hidden = [c for c in snap["view"]["castles"] if "piece" not in c]
        assert hidden, "the spectator saw every castle before the end"
        assert client.post(f"/api/matches/{match_id}/resign", headers=red).status_code == 200
        last = {viewer: _drain(sock, frames[viewer], snap["version"] + 1) for viewer, sock in sockets.items()}
    for viewer, frame in last.items():
        assert frame["status"] == "finished" and frame["view"]["over"] is False, viewer
        assert all("piece" in c for c in _faces(frame["view"])), (viewer, frame["view"])
    steps = client.get(f"/api/matches/{match_id}/replay").json()["steps"]
    placed = [step for step in steps if step["view"]["castles"]]
    assert placed and all("piece" in c for step in placed for c in _faces(step["view"]))
