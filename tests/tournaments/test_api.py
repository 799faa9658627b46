"""``/api/tournaments`` and the pages: who may organise, what registration refuses, what the pages
show (the whole run is in test_swiss_run.py and the browser test)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import text


def _login(client, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _make_master(client, name: str) -> None:
    async def go():
        async with client.app.state.sessionmaker() as s, s.begin():
            await s.execute(text("UPDATE users SET rank = 'master' WHERE name = :n"), {"n": name})

    client.portal.call(go)


def _body(**extra):
    starts = (datetime.now(UTC) + timedelta(minutes=30)).isoformat()
    return {
        "name": "Spring cup",
        "game": "battle_runes",
        "format": "swiss",
        "starts_at": starts,
        "max_players": 4,
        **extra,
    }


def test_only_masters_and_administrators_organise(client):
    knight = _login(client, "knight")
    r = client.post("/api/tournaments", json=_body(), headers=knight)
    assert r.status_code == 403 and r.json()["error"]["params"]["reason"] == "not_master"
    _make_master(client, "knight")
    r = client.post("/api/tournaments", json=_body(rounds=2), headers=knight)
    assert r.status_code == 201, r.text
    t = r.json()
    assert (t["status"], t["format"], t["rounds"], t["max_players"]) == ("registering", "swiss", 2, 4)
    assert t["viewer"]["can"] == ["register", "start"]


def test_bad_tournaments_are_refused_and_change_nothing(client):
    lea = _login(client, "lea")
    _make_master(client, "lea")
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    for body, status, params in (
        (_body(starts_at=past), 422, {"reason": "starts_at"}),
        # a Swiss of 4 has at most 3 rounds
        (_body(rounds=4), 422, {"reason": "option_range", "option": "rounds", "low": 1, "high": 3}),
        (
            _body(options={"win_score": 0}),
            422,
            {"reason": "option_range", "option": "win_score", "low": 1, "high": 10_000},
        ),
        (_body(game="chess"), 422, None),  # the schema's list of games: validation_error
        (_body(turn_seconds=0), 422, None),  # the schema's minimum
        (_body(clan_only=True), 409, {"reason": "not_in_clan"}),
    ):
        r = client.post("/api/tournaments", json=body, headers=lea)
        assert r.status_code == status, (body, r.text)
        if params is not None:
            assert r.json()["error"]["params"] == params, body
    assert client.get("/api/tournaments").json() == {"upcoming": [], "running": [], "finished": []}


def test_registration_check_in_and_withdrawal(client):
    org, a, b = _login(client, "org"), _login(client, "ann"), _login(client, "ben")
    _make_master(client, "org")
    far = (datetime.now(UTC) + timedelta(hours=3)).isoformat()
    tid = client.post(
        "/api/tournaments", json=_body(starts_at=far, max_players=2, format="knockout"), headers=org
    ).json()["id"]
    assert client.post(f"/api/tournaments/{tid}/register", headers=a).status_code == 200
    r = client.post(f"/api/tournaments/{tid}/register", headers=a)
    assert r.status_code == 409 and r.json()["error"]["params"]["reason"] == "already_registered"
    r = client.post(f"/api/tournaments/{tid}/check-in", headers=a)
    assert r.status_code == 409 and r.json()["error"]["params"]["reason"] == "checkin_not_open"
    assert client.post(f"/api/tournaments/{tid}/check-in", headers=b).status_code == 404
    assert client.post(f"/api/tournaments/{tid}/register", headers=b).status_code == 200
    r = client.post(f"/api/tournaments/{tid}/register", headers=org)
    assert r.status_code == 409 and r.json()["error"]["params"]["reason"] == "full"
    r = client.post(f"/api/tournaments/{tid}/withdraw", headers=b)
    assert r.status_code == 200 and [p["user"]["name"] for p in r.json()["players"]] == ["ann"]
    r = client.post(f"/api/tournaments/{tid}/start", headers=a)
    assert r.status_code == 403 and r.json()["error"]["params"]["reason"] == "not_organiser"
    # the pages
    listing = client.get("/tournaments")
    assert listing.status_code == 200 and "Spring cup" in listing.text and 'href="/tournaments"' in listing.text
    page = client.get(f"/tournaments/{tid}")
    assert page.status_code == 200 and "ann" in page.text and "Knockout" in page.text
    assert client.get("/tournaments/999999").status_code == 404
    assert client.get("/api/tournaments/999999").status_code == 404


def test_starting_with_too_few_players_cancels(client):
    org, a = _login(client, "org2"), _login(client, "amy")
    _make_master(client, "org2")
    tid = client.post("/api/tournaments", json=_body(format="round_robin"), headers=org).json()["id"]
    client.post(f"/api/tournaments/{tid}/register", headers=a)
    # the organiser's "Start now" asks whether to call it off: one player has checked in
    page = client.get(f"/tournaments/{tid}", headers=org).text
    assert 'data-confirm="start_calls_off" id="tournament-start"' in page
    client.post(f"/api/tournaments/{tid}/check-in", headers=a)
    assert 'data-confirm="start_calls_off"' in client.get(f"/tournaments/{tid}", headers=org).text
    b = _login(client, "ben")
    client.post(f"/api/tournaments/{tid}/register", headers=b)
    client.post(f"/api/tournaments/{tid}/check-in", headers=b)
    assert 'data-confirm="start" id="tournament-start"' in client.get(f"/tournaments/{tid}", headers=org).text
    client.post(f"/api/tournaments/{tid}/withdraw", headers=b)
    assert client.post(f"/api/tournaments/{tid}/start", headers=org).status_code == 200

    deadline = time.monotonic() + 60  # the runner starts it in the background: wait for that state
    while (t := client.get(f"/api/tournaments/{tid}").json())["status"] == "registering":
        assert time.monotonic() < deadline, "the runner never started the tournament"
        time.sleep(0.05)
    assert t["status"] == "cancelled"
    assert client.get("/api/tournaments").json()["finished"][0]["id"] == tid
