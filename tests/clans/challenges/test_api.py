"""The challenge routes and pages through the app (SQLite; the service's rules run on both
backends in the other tests here): propose from one clan's page data, accept, sign up for both
boards, the boards' matches, play them to the end, the series result on the challenge page and the
clan ladder points on the clan page; the errors and their codes; names players wrote escaped."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings

BAD = "<b>Al</b>"


@pytest.fixture
def app_client(sqlite_url):
    app = create_app(make_settings(sqlite_url, clock_tick_seconds=0.1))
    with TestClient(app) as c:
        yield c


def _login(client, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _found(client, who, name, tag):
    r = client.post("/api/clans", json={"name": name, "tag": tag, "region": "CZ-64", "colour": "#aa3300"}, headers=who)
    assert r.status_code == 201, r.text


def _wait(client, path: str, headers, done, timeout: float = 30.0):
    """GET ``path`` until ``done(json)`` (the consumer runs in the app's background)."""
    end = time.monotonic() + timeout
    while True:
        data = client.get(path, headers=headers).json()
        if done(data) or time.monotonic() > end:
            return data
        time.sleep(0.1)


def test_a_challenge_through_the_api_and_its_pages(app_client):
    c = app_client
    alice, bob, carol = _login(c, "alice"), _login(c, "bob"), _login(c, "carol")
    _found(c, alice, BAD, "ALP")
    _found(c, bob, "Beta", "BET")
    body = {
        "opponent": "bet",
        "game": "battle_runes",
        "options": {"turn_seconds": 120},
        "boards": 2,
        "deadline_hours": 48,
    }

    # the clan page offers the form to BET's leader only
    assert 'id="challenge-form"' in c.get("/clans/ALP", headers=bob).text
    assert 'id="challenge-form"' not in c.get("/clans/ALP", headers=alice).text
    assert 'id="challenge-form"' not in c.get("/clans/ALP", headers=carol).text
    assert c.post("/api/clans/ALP/challenges", json=body).status_code == 401
    r = c.post("/api/clans/ALP/challenges", json=body, headers=carol)
    assert (r.status_code, r.json()["error"]["params"]) == (403, {"reason": "not_member"})
    r = c.post("/api/clans/ALP/challenges", json={**body, "opponent": "alp"}, headers=alice)
    assert (r.status_code, r.json()["error"]["params"]["reason"]) == (409, "same_clan")
    r = c.post("/api/clans/ALP/challenges", json={**body, "options": {"turn_seconds": 0}}, headers=alice)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "bad_options")
    assert r.json()["error"]["params"] == {"reason": "untimed"}
    r = c.post("/api/clans/ALP/challenges", json={**body, "options": {"win_score": 0}}, headers=alice)
    assert (r.status_code, r.json()["error"]["params"]) == (
        422,
        {"reason": "option_range", "option": "win_score", "low": 1, "high": 10_000},
    )
    bank = {**body, "options": {"clock": "bank", "bank_seconds": 300, "increment_seconds": 5}}
    r = c.post("/api/clans/ALP/challenges", json=bank, headers=alice)
    assert r.status_code == 201, r.text  # a time bank is a clock too: every board ends
    assert c.post(f"/api/challenges/{r.json()['challenge']['id']}/withdraw", headers=alice).status_code == 200
    r = c.post("/api/clans/ALP/challenges", json={**body, "boards": 11}, headers=alice)
    assert (r.status_code, r.json()["error"]["code"]) == (422, "validation_error")

    r = c.post("/api/clans/ALP/challenges", json=body, headers=alice)
    assert r.status_code == 201, r.text
    ch = r.json()["challenge"]
    cid = ch["id"]
    assert (ch["status"], ch["challenger"]["tag"], ch["challenged"]["tag"]) == ("proposed", "ALP", "BET")
    assert r.json()["viewer"]["can"] == ["withdraw"]
    assert c.get(f"/api/challenges/{cid}", headers=bob).json()["viewer"]["can"] == ["accept", "decline"]
    r = c.post(f"/api/challenges/{cid}/accept", headers=alice)
    assert (r.status_code, r.json()["error"]["params"]) == (403, {"reason": "not_member"})
    assert c.post(f"/api/challenges/{cid}/accept", headers=bob).json()["challenge"]["status"] == "accepted"
    assert c.get("/api/challenges/999999").status_code == 404

    # each clan's one player plays both boards
    for who in (alice, bob):
        for board in (1, 2):
            r = c.post(f"/api/challenges/{cid}/boards/{board}/signup", headers=who)
            assert r.status_code == 200, r.text
    r = c.post(f"/api/challenges/{cid}/boards/1/player", json={"side": "challenger", "name": "alice"}, headers=alice)
    assert r.json()["error"]["params"]["reason"] == "board_started"
    page = c.get(f"/api/challenges/{cid}", headers=alice).json()
    matches = [b["match"]["id"] for b in page["boards"]]
    assert all(b["match"]["status"] == "active" for b in page["boards"])
    assert [b["seats"]["challenger"] for b in page["boards"]] == [0, 1]

    # board 1: bob resigns; board 2: bob resigns too. ALP wins 2-0
    for match_id in matches:
        assert c.post(f"/api/matches/{match_id}/resign", headers=bob).status_code == 200
    page = _wait(c, f"/api/challenges/{cid}", alice, lambda d: d["challenge"]["status"] == "finished")
    assert (page["challenge"]["result"], page["challenge"]["score"]) == ("win", {"challenger": 2, "challenged": 0})
    html = c.get(f"/challenges/{cid}", headers=alice).text
    assert "&lt;b&gt;Al&lt;/b&gt; won the series, 2–0." in html and BAD not in html
    assert 'id="challenge-score">2–0<' in html
    section = c.get("/api/clans/ALP/challenges").json()
    assert section["ladder_points"] == 10 and section["past"][0]["id"] == cid
    clan_html = c.get("/clans/ALP", headers=alice).text
    assert 'id="clan-ladder-points">10<' in clan_html
    assert 'data-code="challenge_finished"' in clan_html and "The clan won the" in clan_html
    assert c.get("/api/clans/BET/challenges").json()["ladder_points"] == 0
    assert "The clan lost the" in c.get("/clans/BET").text
    assert c.get("/challenges/0").status_code == 404


def test_every_reason_has_words_and_the_pages_show_errors_by_code():
    """Each ``reason`` the challenge service sends has its words in static/js/messages.js, and
    challenges.js shows errors through errorText, never ``message``."""
    import re

    from app.settings import ROOT

    source = (ROOT / "app" / "clans" / "challenges" / "service.py").read_text(encoding="utf-8")
    reasons = {("conflict", r) for r in re.findall(r'_conflict\(\s*"(\w+)"', source)}
    reasons |= {("not_found", r) for r in re.findall(r'"reason": "(\w+)"', source) if r != "not_member"}
    reasons |= {("conflict", r) for r in re.findall(r'_must_be\(ch, ChallengeStatus\.\w+, "(\w+)"\)', source)}
    reasons |= {("bad_options", r) for r in re.findall(r'_bad_options\(\s*"(\w+)"', source)}
    assert len(reasons) >= 10, reasons
    words = (ROOT / "static" / "js" / "messages.js").read_text(encoding="utf-8")
    assert not [f"error.{c}.{r}" for c, r in sorted(reasons) if f'"error.{c}.{r}"' not in words]
    js = (ROOT / "static" / "js" / "challenges.js").read_text(encoding="utf-8")
    assert "errorText(err)" in js and "err.message" not in js
