"""The ladder and profile pages (server-rendered from the same reads as their JSON twins): names
link to profiles, the viewer's row is highlighted, the rating chart has a point per rated match; the
season standings by ladder points, past months selectable."""

from __future__ import annotations

import re

from app.db.session import make_engine, make_sessionmaker
from app.ratings.models import LadderPoints
from app.users.models import User
from tests.conftest import run
from tests.ratings.test_api import _login, _rated_match, _wait_applied


def _cookie_login(client, name):
    r = client.post("/api/auth/login", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 200, r.text


def test_ladder_and_profile_pages(client):
    alice, bob = _login(client, "alice"), _login(client, "bob")
    matches = [_rated_match(client, alice, bob), _rated_match(client, bob, alice), _rated_match(client, alice, bob)]
    for m in matches:
        assert _wait_applied(client, m)["applied"]
    _cookie_login(client, "bob")

    page = client.get("/ladders/battle_runes")
    assert page.status_code == 200
    html = page.text
    assert html.count('class="player-link" href="/users/alice"') == 1
    me = re.search(r'<tr class="ladder-me" aria-current="true" data-user="([^"]+)">', html)
    assert me and me.group(1) == "bob"
    assert '<span class="provisional"' in html  # three games: still provisional
    assert "/ladders/battle_runes" in client.get("/ladders").text
    assert 'id="find-me"' not in html  # bob's row is on the page

    profile = client.get("/users/alice").text
    assert 'data-points="3"' in profile and profile.count('class="rating-point"') == 3
    points = re.search(r'<polyline class="rating-line" points="([^"]+)"', profile).group(1).split()
    ys = [float(p.split(",")[1]) for p in points]
    assert ys[0] > ys[1] < ys[2] or ys[0] < ys[1] > ys[2]  # won, lost, won: down, up on the chart
    assert 'data-testid="head-to-head"' in profile and "alice won 2, lost 1, drew 0" in profile
    for m in matches:
        assert f'href="/matches/{m}/replay"' in profile
    assert profile.count('href="/users/bob"') >= 4  # the header, head-to-head, three opponents
    assert "(+" in profile and "(-" in profile

    assert client.get("/users/nobody").status_code == 404
    assert client.get("/ladders/chess").status_code == 404
    assert 'href="/ladders" id="nav-ladders"' in client.get("/").text


def test_season_standings_page_and_its_json_twin(client, settings):
    viewer = _login(client, "viewer")

    async def seed():
        engine = make_engine(settings.database_url)  # the app's pool belongs to its own event loop
        async with make_sessionmaker(engine)() as s, s.begin():
            users = [User(name=f"p{i:03d}", name_key=f"p{i:03d}", password_hash="x") for i in range(60)]
            s.add_all(users)
            await s.flush()
            for i, u in enumerate(users):
                s.add(LadderPoints(pool="fantasy_duel", season="2026-10", user_id=u.id, points=100 + i, wins=3))
            me = (await s.execute(User.__table__.select().where(User.name == "viewer"))).first()
            s.add(LadderPoints(pool="fantasy_duel", season="2026-10", user_id=me.id, points=1, wins=1))
        await engine.dispose()

    run(seed())
    api = client.get("/api/ladders/fantasy_duel/season?season=2026-10", headers=viewer).json()
    assert (api["total"], api["pages"], api["season"]) == (61, 2, "2026-10")
    assert api["rows"][0]["user"]["name"] == "p059" and api["rows"][0]["points"] == 159
    assert api["viewer"]["rank"] == 61 and api["viewer"] not in api["rows"]
    mine = client.get("/api/ladders/fantasy_duel/season?season=2026-10&find_me=true", headers=viewer).json()
    assert mine["page"] == 2 and mine["rows"][-1] == mine["viewer"]
    assert api["current"] in api["seasons"] and client.get("/api/ladders/fantasy_duel/season").json()["total"] == 0
    r = client.get("/api/ladders/fantasy_duel/season?season=2026-13")
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    assert client.get("/api/ladders/chess/season").json()["error"]["code"] == "not_found"

    _cookie_login(client, "viewer")
    html = client.get("/ladders/fantasy_duel/season?season=2026-10").text
    assert 'data-season="2026-10"' in html and html.count('class="player-link" href="/users/p059"') == 1
    assert 'data-testid="viewer-rank"' in html and "number 61" in html and 'id="find-me"' in html
    assert '<option value="2026-10" selected>' in html
    assert 'href="?season=2026-10&amp;page=2" rel="next"' in html
    page2 = client.get("/ladders/fantasy_duel/season?season=2026-10&find_me=true").text
    me = re.search(r'<tr class="ladder-me" aria-current="true" data-user="([^"]+)">', page2)
    assert me and me.group(1) == "viewer"
    assert 'rel="prev"' in page2 and 'id="find-me"' not in page2
    assert 'href="/ladders/fantasy_duel/season" id="season-link"' in client.get("/ladders/fantasy_duel").text
    assert client.get("/ladders/chess/season").status_code == 404
