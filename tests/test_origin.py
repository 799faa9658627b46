"""Same-origin only: a page on another site cannot act with a visitor's session cookie, over HTTP
or a websocket; bearer-token clients and the site's own pages are unaffected; JSON routes refuse
forms."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from app.main import create_app
from tests.conftest import make_settings
from tests.service.test_gateway import _match, _recv, _user

EVIL = "https://evil.example"
PASSWORD = "correct horse 1"


@pytest.fixture
def site(sqlite_url):
    """A client logged in by cookie as alice (seat 0 of a running match), and bob's bearer headers."""
    with TestClient(create_app(make_settings(sqlite_url, allowed_origins="https://friend.example"))) as client:
        b = _user(client, "bobby")
        assert client.post("/api/auth/register", json={"name": "alice", "password": PASSWORD}).status_code == 201
        match_id = _match(client, {}, b)  # alice creates it with her cookie
        yield client, b, match_id


def _forbidden(r):
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "forbidden"
    assert r.json()["error"]["params"]["reason"] == "origin"


@pytest.mark.parametrize(
    "headers",
    [{"Origin": EVIL}, {"Origin": "null"}, {"Referer": EVIL + "/page"}, {"Origin": "http://testserver.evil.example"}],
)
def test_cookie_changes_from_another_site_are_refused(site, headers):
    client, _b, match_id = site
    _forbidden(client.post(f"/api/matches/{match_id}/resign", headers=headers))
    _forbidden(client.post("/api/auth/logout", headers=headers))
    _forbidden(client.post("/api/matches", json={"game": "battle_runes"}, headers=headers))
    assert client.get(f"/api/matches/{match_id}").json()["status"] == "active"  # nothing changed
    assert client.get("/api/users/me", headers=headers).status_code == 200  # still logged in; reads pass


def test_the_sites_own_pages_and_allowed_origins_may_act(site):
    client, _b, _match_id = site
    for origin in ("http://testserver", "https://friend.example"):
        r = client.post("/api/matches", json={"game": "battle_runes"}, headers={"Origin": origin})
        assert r.status_code == 201, r.text
    r = client.post("/api/matches", json={"game": "battle_runes"}, headers={"Referer": "http://testserver/lobby"})
    assert r.status_code == 201, r.text


def test_bearer_clients_are_unaffected(site):
    client, b, _match_id = site
    client.cookies.clear()
    r = client.post("/api/matches", json={"game": "battle_runes"}, headers={**b, "Origin": EVIL})
    assert r.status_code == 201, r.text


@pytest.mark.parametrize(
    "content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain;charset=UTF-8"]
)
def test_json_routes_refuse_forms(site, content_type):
    client, b, match_id = site
    for headers in ({"Origin": "http://testserver"}, b):
        r = client.post(
            f"/api/matches/{match_id}/resign", content=b"a=1", headers={**headers, "Content-Type": content_type}
        )
        assert r.status_code == 415, r.text
        assert r.json()["error"]["code"] == "unsupported_media_type"
        assert r.json()["error"]["params"] == {"content_type": content_type.split(";")[0]}
    assert client.get(f"/api/matches/{match_id}").json()["status"] == "active"


def test_a_websocket_from_another_site_is_refused(site):
    client, _b, match_id = site
    url = f"/ws/matches/{match_id}"
    with pytest.raises(WebSocketDenialResponse) as denied, client.websocket_connect(url, headers={"Origin": EVIL}):
        pass
    assert denied.value.status_code == 403
    assert denied.value.json()["error"]["params"]["reason"] == "origin"
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello", "since": 0})
        assert _recv(ws, "snapshot")["seat"] == 0
    client.cookies.clear()  # anonymous spectators carry no credential: any page may show the match
    with client.websocket_connect(url, headers={"Origin": EVIL}) as ws:
        ws.send_json({"type": "hello", "since": 0})
        assert _recv(ws, "snapshot")["seat"] is None
