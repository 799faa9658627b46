"""The ladder and profile pages (server-rendered from the same reads as their JSON twins): names
link to profiles, the viewer's row is highlighted, the rating chart has a point per rated match."""

from __future__ import annotations

import re

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
