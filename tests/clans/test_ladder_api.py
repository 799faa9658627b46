"""Clan ladder and wall routes and pages through the app, on SQLite and PostgreSQL: the ladders
(overall, per region, a past month with its trophies, the month picker), the clan page's score,
trophy cabinet and wall, the errors (401, 403, 404, 422, 429) and escaping."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from app.clans import month_close
from app.clans.models import Clan
from app.clans.months import month_start, next_month
from app.clans.points import credit_clan, month_of
from app.db.base import utcnow
from app.db.session import make_engine, make_sessionmaker
from app.main import create_app
from tests.clans.test_api import BAD, _found, _login
from tests.conftest import make_settings, run

MONTH = month_of(utcnow())


async def _credit(url: str, points: dict[str, int]) -> None:
    engine = make_engine(url)
    try:
        async with make_sessionmaker(engine)() as s, s.begin():
            from sqlalchemy import select

            for tag, n in points.items():
                clan_id = await s.scalar(select(Clan.id).where(Clan.tag == tag))
                assert clan_id is not None
                await credit_clan(s, clan_id, n, "adjust", f"test:{tag}", month=MONTH)
    finally:
        await engine.dispose()


async def _close_this_month(url: str, settings) -> None:
    """What the job does at the turn of the month, run a moment after this month ends."""
    engine = make_engine(url)
    try:
        sessions = make_sessionmaker(engine)
        await month_close.open_months(sessions, utcnow())
        await month_close.close_due(sessions, settings, month_start(next_month(MONTH)) + timedelta(seconds=1))
    finally:
        await engine.dispose()


def test_ladders_trophies_and_the_clan_page(client, settings):
    lea, bob, cid = _login(client, "lea"), _login(client, "bob"), _login(client, "cid")
    assert _found(client, lea, name="Alpha <b>", tag="ALP", region="CZ-64").status_code == 201
    assert _found(client, bob, name="Beta", tag="BET", region="SK-BL").status_code == 201
    assert _found(client, cid, name="Gamma", tag="GAM", region="CZ-64").status_code == 201
    run(_credit(settings.database_url, {"ALP": 40, "BET": 10, "GAM": 5}))

    body = client.get("/api/clan-ladder").json()
    assert [(r["place"], r["clan"]["tag"], r["score"]) for r in body["rows"]] == [
        (1, "ALP", 40),
        (2, "BET", 10),
        (3, "GAM", 5),
    ]
    assert body["month"] == MONTH and body["months"][0] == {"month": MONTH, "closed": False}
    body = client.get("/api/clan-ladder/CZ-64").json()
    assert [r["clan"]["tag"] for r in body["rows"]] == ["ALP", "GAM"] and body["trophies"] == []
    assert client.get("/api/clans/alp/ladder").json() == {
        "standing": {"month": MONTH, "region": "CZ-64", "score": 40, "clan_points": 40, "member_points": 0, "place": 1},
        "trophies": [],
    }
    html = client.get("/clans/ALP").text
    assert 'id="clan-score"' in html and "<strong>40</strong> points this month" in html
    assert 'id="trophy-cabinet-empty"' in html

    run(_close_this_month(settings.database_url, settings))
    body = client.get("/api/clan-ladder/CZ-64", params={"month": MONTH}).json()
    assert body["closed"] and [(t["place"], t["clan"]["tag"], t["score"]) for t in body["trophies"]] == [
        (1, "ALP", 40),
        (2, "GAM", 5),
    ]
    assert [(r["clan"]["tag"], r["trophy"]) for r in body["rows"]] == [("ALP", 1), ("GAM", 2)]
    trophies = client.get("/api/clans/ALP/ladder").json()["trophies"]
    assert [(t["region"], t["month"], t["place"], t["bonus"]) for t in trophies] == [("CZ-64", MONTH, 1, 300)]
    following = client.get("/api/clan-ladder", params={"month": next_month(MONTH)}).json()
    assert [(r["clan"]["tag"], r["score"]) for r in following["rows"]] == [("ALP", 300), ("BET", 300), ("GAM", 200)]

    html = client.get("/clans/ALP").text
    assert f'data-month="{MONTH}" data-region="CZ-64" data-place="1"' in html
    assert 'class="trophy trophy-gold" data-place="1">Gold</span> Jihomoravský kraj' in html
    assert 'data-code="trophy"' in html and "The clan won gold in Jihomoravský kraj" in html
    page = client.get(f"/clans/ladder/CZ-64?month={MONTH}").text
    assert 'id="ladder-trophies"' in page and 'data-tag="ALP" data-place="1"' in page
    assert "Alpha &lt;b&gt;" in page and "Alpha <b>" not in page
    overall = client.get("/clans/ladder").text
    assert 'id="clan-ladder-page"' in overall and 'data-tag="BET"' in overall and "Bratislavský kraj" in overall
    r = client.get("/clans/ladder", params={"region": "CZ-64", "month": MONTH}, follow_redirects=False)
    assert (r.status_code, r.headers["location"]) == (303, f"/clans/ladder/CZ-64?month={MONTH}")
    assert 'href="/clans/ladder"' in client.get("/clans").text
    assert client.get("/clans/ladder/XX-99").status_code == 404
    assert client.get("/clans/ladder?month=nonsense").status_code == 200


def test_ladder_refusals(client):
    for path, params in (
        ("/api/clan-ladder/XX-99", {}),
        ("/api/clan-ladder", {"month": "2026-13"}),
        ("/api/clan-ladder", {"month": "0999-01"}),
        ("/api/clan-ladder", {"page": 0}),
    ):
        r = client.get(path, params=params)
        assert (r.status_code, r.json()["error"]["code"]) == (422, "validation_error"), path
    r = client.get("/api/clans/NOPE/ladder")
    assert (r.status_code, r.json()["error"]["params"]) == (404, {"tag": "NOPE"})
    lea = _login(client, "lea")
    r = _found(client, lea, name="Ladder", tag="LadDer")  # /clans/ladder is a page
    assert (r.status_code, r.json()["error"]["code"]) == (422, "validation_error")


@pytest.fixture
def limited(db_url):
    with TestClient(create_app(make_settings(db_url, clan_wall_rate_limit="3/minute"))) as c:
        yield c


def test_the_wall_through_the_api_and_the_page(limited):
    client = limited
    lea, bob, mem = _login(client, "lea"), _login(client, "bob"), _login(client, "mem")
    assert _found(client, lea).status_code == 201
    request_id = client.post("/api/clans/ALP/requests", headers=mem).json()["pending"][0]["id"]
    assert client.post(f"/api/clans/ALP/invitations/{request_id}/accept", headers=lea).status_code == 200

    r = client.post("/api/clans/ALP/wall", json={"text": BAD}, headers=mem)
    assert r.status_code == 201, r.text
    post = r.json()["posts"][0]
    assert (post["text"], post["author"]["name"], post["can_remove"], r.json()["can_post"]) == (BAD, "mem", True, True)
    html = client.get("/clans/ALP").text
    assert BAD not in html and "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert 'id="wall-posts"' in html and 'id="wall-form"' not in html  # a visitor reads, does not post
    assert 'id="wall-form"' in client.get("/clans/ALP", headers=mem).text

    assert client.post("/api/clans/ALP/wall", json={"text": "hi"}).status_code == 401
    r = client.post("/api/clans/ALP/wall", json={"text": "hi"}, headers=bob)
    assert (r.status_code, r.json()["error"]["params"]) == (403, {"reason": "not_member"})
    for bad in ({"text": ""}, {"text": "   "}, {"text": "x" * 281}, {"text": "a\nb"}, {"text": "x", "extra": 1}):
        assert client.post("/api/clans/ALP/wall", json=bad, headers=mem).status_code == 422, bad
    r = client.post(f"/api/clans/ALP/wall/{post['id']}/remove", headers=bob)
    assert (r.status_code, r.json()["error"]["params"]) == (403, {"reason": "not_member"})
    r = client.post(f"/api/clans/ALP/wall/{post['id']}/remove", headers=lea)
    assert r.status_code == 200 and r.json()["posts"] == []
    r = client.post(f"/api/clans/ALP/wall/{post['id']}/remove", headers=lea)
    assert (r.status_code, r.json()["error"]["params"]) == (404, {"reason": "post", "post_id": post["id"]})
    html = client.get("/clans/ALP").text
    assert 'data-code="wall_removed"' in html and 'id="wall-empty"' in html
    assert client.get("/api/clans/ALP/wall").json() == {"posts": [], "can_post": False}

    # the rate limit: 3 a minute per player, the refused post stored nowhere
    assert client.post("/api/clans/ALP/wall", json={"text": "two"}, headers=mem).status_code == 201
    assert client.post("/api/clans/ALP/wall", json={"text": "three"}, headers=mem).status_code == 201
    r = client.post("/api/clans/ALP/wall", json={"text": "four"}, headers=mem)
    assert (r.status_code, r.json()["error"]["code"]) == (429, "rate_limited")
    assert int(r.headers["retry-after"]) >= 1 and r.json()["error"]["params"]["retry_after"] >= 1
    assert [p["text"] for p in client.get("/api/clans/ALP/wall").json()["posts"]] == ["three", "two"]


def test_the_wall_script_never_writes_html_and_has_words(client):
    js = client.get("/static/js/clan_wall.js").text
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "errorText(err)" in js
    words = client.get("/static/js/messages.js").text
    for key in ("error.not_found.post", "clan.wall.empty", "clan.confirm.wall_remove"):
        assert f'"{key}"' in words
