"""The clan routes and pages through the app, on SQLite and PostgreSQL: found, ask to join,
accept; the errors (401, 404, 409, 422) and their codes; the pages (list with search, region
filter and pages; the clan page with roles, history and the management section for officers
only), with everything players wrote escaped."""

from __future__ import annotations

import re

BAD = '<script>alert("x")</script>'


def _login(client, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _found(client, who, name="Alpha", tag="ALP", region="CZ-64", **extra):
    body = {"name": name, "tag": tag, "region": region, "colour": "#aa3300", **extra}
    return client.post("/api/clans", json=body, headers=who)


def test_found_request_accept_and_the_pages(client):
    lea, bob = _login(client, "lea"), _login(client, "bob")
    r = _found(client, lea, name="Alpha <b>", description=BAD)
    assert r.status_code == 201, r.text
    page = r.json()
    assert page["clan"]["tag"] == "ALP" and page["viewer"]["role"] == "leader"
    assert [(m["user"]["name"], m["role"]) for m in page["members"]] == [("lea", "leader")]

    r = client.post("/api/clans/alp/requests", headers=bob)
    assert r.status_code == 201 and r.json()["viewer"]["can"] == ["withdraw"]
    request_id = r.json()["pending"][0]["id"]
    # bob may not accept his own request; a visitor is not logged in
    r = client.post(f"/api/clans/ALP/invitations/{request_id}/accept", headers=bob)
    assert (r.status_code, r.json()["error"]["code"], r.json()["error"]["params"]) == (
        403,
        "forbidden",
        {"reason": "not_member"},
    )
    assert client.post(f"/api/clans/ALP/invitations/{request_id}/accept").status_code == 401
    r = client.post(f"/api/clans/ALP/invitations/{request_id}/accept", headers=lea)
    assert r.status_code == 200, r.text
    assert [(m["user"]["name"], m["role"]) for m in r.json()["members"]] == [("lea", "leader"), ("bob", "member")]
    assert client.get("/api/users/me/clan", headers=bob).json()["clan"]["tag"] == "ALP"

    html = client.get("/clans/ALP", headers=bob).text
    assert 'data-user="bob" data-role="member"' in html
    assert BAD not in html and "&lt;script&gt;" in html and "Alpha &lt;b&gt;" in html
    assert "Jihomoravský kraj" in html and 'id="clan-leave"' in html and 'id="clan-manage"' not in html
    # (each name links to the profile and has its rank badge beside it)
    assert re.search(
        r"bob</a>(?: <span class=\"rank-badge\"[^>]*>[^<]*</span>)? joined \(.*lea</a>.*? accepted the request\)", html
    )
    assert 'id="clan-manage"' in client.get("/clans/ALP", headers=lea).text
    listing = client.get("/clans").text
    assert 'href="/clans"' in listing and 'data-tag="ALP"' in listing and BAD not in listing


def test_refusals_carry_codes_and_change_nothing(client):
    lea, bob = _login(client, "lea"), _login(client, "bob")
    assert _found(client, lea).status_code == 201
    r = _found(client, bob, name="ALPHA", tag="BET")
    assert (r.status_code, r.json()["error"]["code"], r.json()["error"]["params"]["field"]) == (
        409,
        "name_taken",
        "name",
    )
    r = _found(client, bob, name="Beta", tag="alp")
    assert (r.status_code, r.json()["error"]["params"]) == (409, {"field": "tag", "tag": "alp"})
    r = _found(client, lea, name="Beta", tag="BET")
    assert (r.status_code, r.json()["error"]["params"]) == (409, {"reason": "already_in_clan"})
    for bad in ({"tag": "A-B"}, {"region": "XX-1"}, {"colour": "red"}, {"name": "\u0000x"}, {"extra": 1}):
        r = _found(client, bob, name=bad.pop("name", "Beta"), tag=bad.pop("tag", "BET"), **bad)
        assert (r.status_code, r.json()["error"]["code"]) == (422, "validation_error"), bad
    assert client.get("/api/clans").json()["total"] == 1
    assert _found(client, {}).status_code == 401
    r = client.get("/api/clans/NOPE")
    assert (r.status_code, r.json()["error"]["params"]) == (404, {"tag": "NOPE"})
    assert client.get("/api/clans/x").status_code == 422  # a tag has 2-6 letters or digits
    r = client.post("/api/clans/ALP/members/99999/role", json={"role": "king"}, headers=lea)
    assert r.status_code == 422
    r = client.patch("/api/clans/ALP", json={"description": "new"}, headers=bob)
    assert (r.status_code, r.json()["error"]["params"]) == (403, {"reason": "not_member"})
    assert client.get("/clans/NOPE").status_code == 404


def test_the_list_searches_filters_and_names_regions(client):
    owners = [_login(client, f"owner{i}") for i in range(3)]
    for i, (who, region) in enumerate(zip(owners, ("CZ-10", "SK-KI", "CZ-10"), strict=True)):
        assert _found(client, who, name=f"Clan {i} x", tag=f"C{i}", region=region).status_code == 201
    assert client.get("/api/regions").json()["regions"][0] == {
        "code": "CZ-10",
        "country": "CZ",
        "name": "Hlavní město Praha",
    }
    body = client.get("/api/clans", params={"region": "CZ-10"}).json()
    assert sorted(c["tag"] for c in body["clans"]) == ["C0", "C2"] and body["total"] == 2
    assert [c["tag"] for c in client.get("/api/clans", params={"q": "clan 1"}).json()["clans"]] == ["C1"]
    assert client.get("/api/clans", params={"region": "XX"}).status_code == 422
    html = client.get("/clans", params={"region": "SK-KI"}).text
    assert 'data-tag="C1"' in html and 'data-tag="C0"' not in html and "Košický kraj" in html
    assert 'id="nav-clans"' in html


def test_every_reason_and_history_code_has_words(client):
    """Each ``reason`` the clan service sends has its words in static/js/messages.js, each history
    code in templates/_clan.html, and clans.js shows errors through errorText, never ``message``."""
    from app.clans.service import HISTORY_CODES
    from app.settings import ROOT

    source = (ROOT / "app" / "clans" / "service.py").read_text(encoding="utf-8")
    reasons = {("forbidden", r) for r in re.findall(r'_forbidden\("(\w+)"', source)} | {
        ("conflict", r) for r in re.findall(r'_conflict\("(\w+)"', source)
    }
    reasons |= {("not_found", r) for r in re.findall(r'NOT_FOUND, [^\n]*"reason": "(\w+)"', source)}
    reasons.add(("conflict", "concurrent_change"))
    assert len(reasons) >= 14
    words = client.get("/static/js/messages.js").text
    missing = [f"error.{code}.{reason}" for code, reason in sorted(reasons) if f'"error.{code}.{reason}"' not in words]
    assert not missing
    # the challenges' history codes are said by templates/_challenge.html, which _clan.html calls
    template = "".join((ROOT / "templates" / t).read_text(encoding="utf-8") for t in ("_clan.html", "_challenge.html"))
    assert not [c for c in HISTORY_CODES if f'h.code == "{c}"' not in template]
    js = client.get("/static/js/clans.js").text
    assert "errorText(err)" in js and "err.message" not in js


def test_a_description_keeps_its_lines_and_refuses_other_control_characters(client):
    """The description is written in a multi-line box: its line breaks are kept (the clan page
    shows them); a tab or a NUL is refused as in any other text."""
    lea = _login(client, "lea")
    text = "We play on Fridays.\nEveryone welcome!\n\n<b>Ahoj</b>"
    r = _found(client, lea, description=text)
    assert r.status_code == 201, r.text
    assert r.json()["clan"]["description"] == text
    page = client.get("/clans/ALP").text
    assert "We play on Fridays.\nEveryone welcome!\n\n&lt;b&gt;Ahoj&lt;/b&gt;" in page
    for bad in ("tab\there", "nul\x00", "cr\rlf"):
        r = client.patch("/api/clans/ALP", json={"description": bad}, headers=lea)
        assert r.status_code == 422, bad
        assert [e["type"] for e in r.json()["error"]["params"]["errors"]] == ["control_characters"]
    r = client.patch("/api/clans/ALP", json={"description": "one\ntwo"}, headers=lea)
    assert r.status_code == 200 and r.json()["clan"]["description"] == "one\ntwo"
