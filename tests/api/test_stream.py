"""``GET /api/matches/{id}/stream`` (app/gateway/sse.py): the websocket's snapshots as
server-sent events, for the seat of the viewer, until the match is over. (A whole match over the
stream: tests/service/test_example_bot.py.)"""

from __future__ import annotations

import json

PASSWORD = "a good password"


def bearer(client, name: str) -> dict[str, str]:
    client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    client.post("/api/auth/logout")  # the bearer token only: no session cookie in the test client
    r = client.post("/api/auth/token", json={"name": name, "password": PASSWORD})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def events(text: str) -> list[tuple[str, str, dict]]:
    """``(event, id, data)`` of each event of an event-stream body."""
    out = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if not line.startswith(":"))
        out.append((fields["event"], fields.get("id", ""), json.loads(fields["data"])))
    return out


def test_an_over_match_streams_its_last_snapshot_and_ends(client):
    alice = bearer(client, "alice")
    match_id = client.post("/api/matches", json={"game": "battle_runes"}, headers=alice).json()["id"]
    assert client.post(f"/api/matches/{match_id}/cancel", headers=alice).status_code == 200
    r = client.get(f"/api/matches/{match_id}/stream", headers=alice)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    [(kind, version, frame)] = events(r.text)
    assert kind == "snapshot" and frame["type"] == "snapshot" and frame["status"] == "aborted"
    assert int(version) == frame["version"] and frame["seat"] == 0
    # the same frame as the HTTP snapshot of that seat
    assert frame == client.get(f"/api/matches/{match_id}/snapshot", headers=alice).json()


def test_refusals_come_before_the_stream(client):
    alice = bearer(client, "alice")
    r = client.get("/api/matches/999/stream", headers=alice)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    body = {"game": "battle_runes", "options": {"spectators": False}}
    match_id = client.post("/api/matches", json=body, headers=alice).json()["id"]
    r = client.get(f"/api/matches/{match_id}/stream")  # an anonymous spectator
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    r = client.get(f"/api/matches/{match_id}/stream", headers={**alice, "Last-Event-ID": "x"})
    assert r.status_code == 422
