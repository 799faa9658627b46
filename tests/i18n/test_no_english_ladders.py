"""Issue 15's page walk for ladders, profiles, points, rewards and tournaments: every page of the
area, with the data it shows (rated matches, season points, a profile's rating history and points
ledger, a reward bought and shown, tournaments open, running with standings and finished), has no
English word outside proper names in any of the five translated languages."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, text, update

from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.points.ledger import credit
from app.users.models import User
from tests.i18n.walk import PROPER, allowed_words, english_vocabulary, english_words_in

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {
    "/ladders",
    "/ladders/{pool}",
    "/ladders/{pool}/season",
    "/users/{name}",
    "/rewards",
    "/tournaments",
    "/tournaments/{tournament_id}",
}

PASSWORD = "correct horse 1"
TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT_LOCALE]
#: the players of the walk (their names stay as they are)
NAMES = ("Vera", "Oleg", "Ilona", "Marek", "Zora")
#: the tie-breaks are named after their inventors (proper names)
INVENTORS = ("Buchholz", "Sonneborn", "Berger")
WAIT = 60.0
#: every reward the pages have words for (templates/_reward.html), with its kind
CATALOGUE = {
    "board_oak": "board_theme",
    "board_marble": "board_theme",
    "back_runes": "card_back",
    "back_stars": "card_back",
    "emblem_dragon": "emblem",
    "emblem_crown": "emblem",
    "title_wandering_knight": "title",
    "title_rune_keeper": "title",
}
#: pages that are not there (the 404 page says so in words of this area)
MISSING = ("/ladders/chess", "/ladders/chess/season", "/users/nobody", "/tournaments/99999")


def _login(client, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _db(client, fn) -> Any:
    async def go():
        async with client.app.state.sessionmaker() as s, s.begin():
            return await fn(s)

    return client.portal.call(go)


def _until(what: str, probe, timeout: float = WAIT) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := probe()):
        assert time.monotonic() < deadline, f"waited in vain for {what}"
        time.sleep(0.05)
    return found


def _rated_match(client, winner, loser, game: str = "battle_runes", options: dict | None = None) -> int:
    body = {"game": game, "options": {"rated": True, **(options or {})}}
    r = client.post("/api/matches", json=body, headers=winner)
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    assert client.post(f"/api/matches/{match_id}/join", headers=loser).status_code == 200
    assert client.post(f"/api/matches/{match_id}/resign", headers=loser).status_code == 200
    _until("the rating", lambda: client.get(f"/api/matches/{match_id}/ratings").json()["applied"])
    return match_id


def _tournament(client, org, fmt: str, players: list[dict[str, str]], name: str, start: bool) -> int:
    starts = (datetime.now(UTC) + timedelta(minutes=30)).isoformat()
    body = {"name": name, "game": "battle_runes", "format": fmt, "starts_at": starts, "max_players": 8}
    if fmt == "swiss":
        body["rounds"] = 2
    r = client.post("/api/tournaments", json={**body, "rated": True}, headers=org)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for who in players:
        assert client.post(f"/api/tournaments/{tid}/register", headers=who).status_code == 200
        assert client.post(f"/api/tournaments/{tid}/check-in", headers=who).status_code == 200
    if start:
        assert client.post(f"/api/tournaments/{tid}/start", headers=org).status_code == 200
        _until("the start", lambda: client.get(f"/api/tournaments/{tid}").json()["status"] != "registering")
    return tid


def _play_round(client, tid: int, heads: dict[str, dict[str, str]]) -> None:
    """The current round's matches end: the second seat of each board resigns."""
    t = client.get(f"/api/tournaments/{tid}").json()
    current = t["current_round"]
    boards = next(r for r in t["round_boards"] if r["round"] == current)["boards"]
    for b in boards:
        if b.get("match_id") and not b.get("result") and b.get("second"):
            r = client.post(f"/api/matches/{b['match_id']}/resign", headers=heads[b["second"]["name"]])
            assert r.status_code == 200, r.text

    def moved_on():
        now = client.get(f"/api/tournaments/{tid}").json()
        return now["status"] == "finished" or now["current_round"] > current

    _until(f"round {current} to end", moved_on)


@pytest.fixture
def world(client) -> dict[str, Any]:
    """Players with ratings, season points, a points ledger and a reward shown; three tournaments."""
    heads = {name: _login(client, name) for name in NAMES}
    vera, oleg, ilona, marek, zora = (heads[n] for n in NAMES)
    _rated_match(client, vera, oleg)
    _rated_match(client, oleg, vera)
    _rated_match(client, vera, ilona)
    _rated_match(client, vera, oleg, "stratego_junior", {"variant": "quest"})
    _rated_match(client, ilona, vera, "scratch_wars", {"level": 2})

    async def setup(s):
        await s.execute(update(User).where(User.name_key.in_(["zora", "marek"])).values(rank="master"))
        await s.execute(update(User).where(User.name_key == "zora").values(is_admin=True))
        uid = await s.scalar(select(User.id).where(User.name_key == "vera"))
        await credit(s, uid, 400, "adjust", "walk")
        await s.execute(text("SELECT 1"))

    _db(client, setup)
    for code, kind in CATALOGUE.items():  # the migration's catalogue (the tests' schema has no rows)
        r = client.post("/api/rewards", json={"code": code, "kind": kind, "cost": 100}, headers=zora)
        assert r.status_code == 201, r.text
    assert client.patch("/api/rewards/board_marble", json={"active": False}, headers=zora).status_code == 200
    for code in ("title_wandering_knight", "emblem_dragon"):
        assert client.post(f"/api/rewards/{code}/buy", headers=vera).status_code == 200, code
    for code in ("title_wandering_knight", "emblem_dragon"):
        kind = CATALOGUE[code]
        r = client.post("/api/users/me/equipped", json={"kind": kind, "code": code}, headers=vera)
        assert r.status_code == 200, r.text

    open_id = _tournament(client, zora, "knockout", [vera, oleg], "Jarní pohár", start=False)
    running_id = _tournament(client, zora, "swiss", [vera, oleg, ilona, marek], "Podzimní švýcar", start=True)
    _play_round(client, running_id, heads)
    finished_id = _tournament(client, zora, "round_robin", [vera, oleg, ilona], "Zimní turnaj", start=True)
    while client.get(f"/api/tournaments/{finished_id}").json()["status"] != "finished":
        _play_round(client, finished_id, heads)
    knockout_id = _tournament(client, marek, "knockout", [ilona, oleg, marek], "Vyřazovačka na 100%", start=True)
    while client.get(f"/api/tournaments/{knockout_id}").json()["status"] != "finished":
        _play_round(client, knockout_id, heads)
    cancelled_id = _tournament(client, marek, "double_round_robin", [ilona], "Nikdo nepřišel", start=True)
    assert client.get(f"/api/tournaments/{cancelled_id}").json()["status"] == "cancelled"
    season = client.get("/api/ladders/battle_runes/season").json()
    assert season["total"] >= 1
    return {
        "heads": heads,
        "tournaments": {
            "open": open_id,
            "running": running_id,
            "finished": finished_id,
            "knockout": knockout_id,
            "cancelled": cancelled_id,
        },
    }


def _pages(world) -> list[tuple[str, str | None]]:
    """(path, who looks: a player's name, or None for a visitor)."""
    t = world["tournaments"]
    pages: list[tuple[str, str | None]] = []
    for who in (None, "Vera", "Zora"):
        pages += [
            ("/ladders", who),
            ("/ladders/battle_runes", who),
            ("/ladders/battle_runes/season", who),
            ("/ladders/stratego_junior.quest", who),
            ("/ladders/scratch_wars.l2/season", who),
            ("/ladders/fantasy_duel", who),
            ("/ladders/fantasy_duel/season", who),
            ("/users/Vera", who),
            ("/users/Oleg", who),
            ("/users/Zora", who),
            ("/rewards", who),
            ("/tournaments", who),
        ]
        pages += [(f"/tournaments/{tid}", who) for tid in t.values()]
    pages += [("/ladders/battle_runes?find_me=true", "Oleg"), ("/ladders/battle_runes/season?page=2", "Oleg")]
    pages += [(path, None) for path in MISSING]
    return pages


def _english_on_pages(client, world, locale: str) -> dict[str, dict[str, str]]:
    vocabulary = english_vocabulary()
    allowed = allowed_words(locale, *NAMES, *INVENTORS, "Jarní pohár", "Podzimní švýcar", "Zimní turnaj")
    problems = {}
    for path, who in _pages(world):
        client.cookies.clear()
        headers = world["heads"][who] if who else {}
        r = client.get(path, params={"lang": locale}, headers=headers)
        assert r.status_code == (404 if path in MISSING else 200), path
        page = r.text
        if path in MISSING:  # the 404 page's frame is another area's: its message is this area's
            page = re.search(r"</h1>\s*<p>(.*?)</p>", page, re.S).group(1)
        found = english_words_in(page, vocabulary, allowed | {"chess", "nobody"})
        if found:
            problems[f"{path} ({who or 'visitor'})"] = found
    return problems


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_ladder_profile_reward_and_tournament_pages_have_no_english(client, world):
    problems = {locale: p for locale in TRANSLATED if (p := _english_on_pages(client, world, locale))}
    assert not problems, f"English words on the pages: {problems}"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_the_walk_finds_english(client):
    """The check can fail: the English pages of the area are full of English words."""
    vocabulary = english_vocabulary()
    for path, words in (("/ladders", {"Ladders", "Season"}), ("/tournaments", {"Tournaments", "Upcoming"})):
        r = client.get(path, params={"lang": "en"})
        assert words <= set(english_words_in(r.text, vocabulary, PROPER)), path
