"""The server-rendered pages (app/web/routes.py): they render, show who is logged in, send
anonymous visitors of login-only pages to /login?next=..., and load the right scripts."""

from __future__ import annotations

import json
import re

PASSWORD = "correct horse battery"


def register(client, name: str) -> dict:
    r = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.json()["user"]


def page_json(html: str, element_id: str) -> dict:
    m = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert m, f"no #{element_id} in the page"
    return json.loads(m.group(1))


def test_home_page(client):
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "Tabletop Arena" in r.text
    assert "Battle Runes" in r.text
    assert 'href="/signup"' in r.text and 'href="/login"' in r.text
    assert "/static/css/site.css" in r.text
    assert "logout-button" not in r.text


def test_signup_and_login_pages(client):
    r = client.get("/signup")
    assert r.status_code == 200
    assert 'id="auth-form"' in r.text and 'data-mode="signup"' in r.text and 'id="password2"' in r.text
    assert "/static/js/auth.js" in r.text
    r = client.get("/login?next=/matches/3")
    assert r.status_code == 200
    assert 'data-mode="login"' in r.text and 'data-next="/matches/3"' in r.text


def test_login_next_must_stay_on_this_site(client):
    bad_targets = (
        "//evil.example/x", "https://evil.example/", "evil", "/\\evil.example",
        "/\t/evil.example/phish", "/\n/evil.example/x", "/\r/evil.example", "/ /evil.example", "/\x7f/x",
    )
    for bad in bad_targets:
        r = client.get("/login", params={"next": bad})
        assert 'data-next="/lobby"' in r.text, bad
    r = client.get("/login", params={"next": "/matches/3?x=1"})
    assert 'data-next="/matches/3?x=1"' in r.text


def test_lobby_redirects_to_login_when_logged_out(client):
    r = client.get("/lobby", follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=/lobby"
    r = client.get("/lobby")  # following it lands on the login form
    assert r.status_code == 200 and 'data-mode="login"' in r.text and 'data-next="/lobby"' in r.text


def test_lobby_when_logged_in(client):
    register(client, "lobbyist")
    r = client.get("/lobby")
    assert r.status_code == 200
    assert "Logged in as" in r.text and "lobbyist" in r.text and "logout-button" in r.text
    assert "Create a match" in r.text and "Open matches" in r.text and "Your matches" in r.text
    assert 'id="create-turn"' in r.text and "Untimed" in r.text and "120 seconds" in r.text
    data = page_json(r.text, "lobby-data")
    games = {g["id"]: g for g in data["games"]}
    assert games["battle_runes"]["bot_levels"]  # the computer levels the form offers
    assert data["user"]["name"] == "lobbyist"
    # logged out again: back to the redirect
    client.post("/api/auth/logout")
    assert client.get("/lobby", follow_redirects=False).status_code == 303


def test_match_page_and_replay_page(client):
    register(client, "maker")
    match = client.post("/api/matches", json={"game": "battle_runes", "options": {"turn_seconds": 60}}).json()
    r = client.get(f"/matches/{match['id']}")
    assert r.status_code == 200
    assert f'data-match-id="{match["id"]}"' in r.text
    assert 'data-module="/static/js/games/battle_runes.js"' in r.text
    assert "/static/js/match_page.js" in r.text
    assert "offline — reconnecting" in r.text and "I'm back" in r.text
    data = page_json(r.text, "match-data")
    assert data["match"]["id"] == match["id"] and data["user"]["name"] == "maker"
    assert "seed" not in data["match"]  # never before the end
    r = client.get(f"/matches/{match['id']}/replay")
    assert r.status_code == 200
    assert "The replay opens when the match is over" in r.text


def test_match_page_for_spectators(client):
    register(client, "host")
    match = client.post("/api/matches", json={"game": "battle_runes"}).json()
    client.post("/api/auth/logout")
    r = client.get(f"/matches/{match['id']}")  # anonymous visitors may watch
    assert r.status_code == 200
    assert page_json(r.text, "match-data")["user"] is None


def test_missing_match_is_a_404_page(client):
    for path in ("/matches/9999", "/matches/9999/replay", "/games/no_such_game"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html")
        assert "Not found" in r.text


def test_battle_runes_rules_page(client):
    r = client.get("/games/battle_runes")
    assert r.status_code == 200
    assert "Battle Runes: rules" in r.text
    catalog = client.get("/api/games/battle_runes").json()["catalog"]
    runes = catalog["runes"] if isinstance(catalog, dict) else catalog
    assert len(runes) == 30
    for rune in runes:
        assert f'title="{rune["name"]}"' in r.text
    assert "rune-build" in r.text and "rune-destroy" in r.text and "rune-modifier" in r.text


def test_static_files_are_served(client):
    for path in (
        "/static/css/site.css", "/static/js/api.js", "/static/js/match_client.js", "/static/js/match_page.js",
        "/static/js/games/battle_runes.js", "/static/js/games/generic.js", "/static/js/replay.js",
        "/static/js/lobby.js", "/static/js/auth.js", "/static/js/site.js", "/static/js/sha256.js",
    ):
        r = client.get(path)
        assert r.status_code == 200, path
    assert "javascript" in client.get("/static/js/match_client.js").headers["content-type"]
