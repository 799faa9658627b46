"""Issue 15's page walk for the clans' area: the clan list, a clan page as its leader, a member, a
player of another clan (the challenge form), a player with an invitation or a request, a visitor;
the clan ladder overall and per region, this month (closed, with its trophies) and a past month
not yet awarded; a challenge page in each state (proposed, accepted, finished, declined, withdrawn,
expired) as each side and a visitor; the trophies in the cabinets and the history rows. Every page
in every language shows no English word outside proper names (``tests/i18n/walk.py``).

The world is built once through the API (as ``tests/clans/test_api.py`` and
``tests/clans/challenges/test_api.py`` do), with the month close the server's job runs
(``tests/clans/test_ladder_api.py``); every history code and challenge status is also rendered
straight from its macro (``templates/_clan.html``, ``templates/_challenge.html``), codes the walk
cannot reach cheaply (a disbanded clan's last row, an expired challenge's) included."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.clans.challenges.models import Challenge
from app.clans.service import HISTORY_CODES
from app.db.session import make_engine, make_sessionmaker
from app.games.core import all_games
from app.i18n.jinja import Language
from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.main import create_app
from app.web.games import web_parts
from app.web.pages import templates
from tests.clans.challenges.test_api import _wait
from tests.clans.test_ladder_api import MONTH, _close_this_month, _credit
from tests.conftest import _create_schema, make_settings, run
from tests.i18n.walk import PROPER, allowed_words, english_in_text, english_vocabulary, english_words_in

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {"/clans", "/clans/{tag}", "/clans/ladder", "/clans/ladder/{region}", "/challenges/{challenge_id}"}

TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT_LOCALE]
PASSWORD = "correct horse 1"
#: the players of the world (their names may stay as they are on every page)
NAMES = ("lea", "mem", "off", "bob", "bme", "gam", "cid", "new", "inv", "dua", "tri")
#: the clans' names and tags (proper names)
CLAN_WORDS = ("Alpha", "ALP", "Beta", "BET", "Gamma", "GAM", "Delta", "DEL", "Epsilon", "EPS")
#: a month long gone, never closed: its ladder says the trophies are not awarded yet
OLD_MONTH = "2020-01"


def _login(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _ok(r: Any) -> Any:
    assert r.status_code in (200, 201), r.text
    return r.json()


def _build(c: TestClient, url: str, settings: Any) -> dict[str, Any]:
    """The world: every player, clan, history code the API reaches, wall post, challenge and trophy.
    :returns: ``{"who": {name: headers}, "ids": {name: user id}, "challenges": {state: id}}``."""
    who = {n: _login(c, n) for n in NAMES}
    ids = {n: c.get("/api/users/me", headers=h).json()["id"] for n, h in who.items()}

    def clan(name: str, tag: str, region: str, leader: str) -> None:
        body = {"name": name, "tag": tag, "region": region, "colour": "#aa3300", "description": "gg"}
        _ok(c.post("/api/clans", json=body, headers=who[leader]))

    def invite(tag: str, by: str, name: str) -> int:
        page = _ok(c.post(f"/api/clans/{tag}/invitations", json={"name": name}, headers=who[by]))
        return next(p["id"] for p in page["pending"] if p["user"]["name"] == name)

    def request(tag: str, name: str) -> int:
        page = _ok(c.post(f"/api/clans/{tag}/requests", headers=who[name]))
        return next(p["id"] for p in page["pending"] if p["user"]["name"] == name)

    def answer(tag: str, by: str, inv: int, accept: bool) -> None:
        _ok(c.post(f"/api/clans/{tag}/invitations/{inv}/{'accept' if accept else 'decline'}", headers=who[by]))

    def role(tag: str, by: str, name: str, new: str) -> None:
        _ok(c.post(f"/api/clans/{tag}/members/{ids[name]}/role", json={"role": new}, headers=who[by]))

    clan("Alpha", "ALP", "CZ-64", "lea")
    clan("Beta", "BET", "SK-BL", "bob")
    clan("Gamma", "GAM", "other", "gam")
    clan("Delta", "DEL", "CZ-64", "dua")
    clan("Epsilon", "EPS", "CZ-64", "tri")
    answer("ALP", "mem", invite("ALP", "lea", "mem"), True)  # invited, joined
    answer("ALP", "lea", request("ALP", "off"), True)  # requested, joined by request
    role("ALP", "lea", "off", "officer")  # promoted
    role("ALP", "lea", "off", "member")  # demoted
    role("ALP", "lea", "off", "officer")
    answer("ALP", "cid", invite("ALP", "lea", "cid"), False)  # the invitation declined
    answer("ALP", "lea", request("ALP", "cid"), False)  # the request declined
    answer("ALP", "lea", invite("ALP", "off", "cid"), False)  # the invitation withdrawn
    answer("ALP", "cid", request("ALP", "cid"), False)  # the request withdrawn
    answer("ALP", "cid", invite("ALP", "lea", "cid"), True)
    _ok(c.post(f"/api/clans/ALP/members/{ids['cid']}/remove", headers=who["lea"]))  # removed
    answer("ALP", "lea", request("ALP", "cid"), True)
    _ok(c.post("/api/clans/ALP/leave", headers=who["cid"]))  # left
    _ok(c.patch("/api/clans/ALP", json={"description": "Hrajeme.", "colour": "#112233"}, headers=who["lea"]))
    answer("BET", "bme", invite("BET", "bob", "bme"), True)
    role("BET", "bob", "bme", "leader")  # the leadership handed over ...
    role("BET", "bme", "bob", "leader")  # ... and back
    request("ALP", "new")  # waiting: a request and an invitation
    invite("ALP", "lea", "inv")

    # the wall: two posts, one removed by the leader
    _ok(c.post("/api/clans/ALP/wall", json={"text": "hi"}, headers=who["lea"]))
    wall = _ok(c.post("/api/clans/ALP/wall", json={"text": "yo"}, headers=who["mem"]))
    post_id = next(p["id"] for p in wall["posts"] if p["text"] == "yo")
    _ok(c.post(f"/api/clans/ALP/wall/{post_id}/remove", headers=who["lea"]))

    def propose(by: str, tag: str, opponent: str, game: str, boards: int, **options: Any) -> int:
        body = {
            "opponent": opponent,
            "game": game,
            "options": {"turn_seconds": 120, **options},
            "boards": boards,
            "deadline_hours": 48,
        }
        return int(_ok(c.post(f"/api/clans/{tag}/challenges", json=body, headers=who[by]))["challenge"]["id"])

    # finished: one board of Battle Runes, BET's player resigns
    finished = propose("lea", "ALP", "bet", "battle_runes", 1)
    _ok(c.post(f"/api/challenges/{finished}/accept", headers=who["bob"]))
    for name in ("lea", "bob"):
        _ok(c.post(f"/api/challenges/{finished}/boards/1/signup", headers=who[name]))
    match_id = c.get(f"/api/challenges/{finished}", headers=who["lea"]).json()["boards"][0]["match"]["id"]
    _ok(c.post(f"/api/matches/{match_id}/resign", headers=who["bob"]))
    done = _wait(
        c, f"/api/challenges/{finished}", who["lea"], lambda d: d["challenge"]["status"] == "finished", timeout=60.0
    )
    assert done["challenge"]["status"] == "finished"

    declined = propose("lea", "ALP", "bet", "fantasy_duel", 1, recruit_swap_prison="loser")
    _ok(c.post(f"/api/challenges/{declined}/decline", headers=who["bob"]))
    withdrawn = propose("bob", "BET", "alp", "treasure_beasts", 1, creature_actions="one_total", threat_scope="global")
    _ok(c.post(f"/api/challenges/{withdrawn}/withdraw", headers=who["bob"]))
    expired = propose("bob", "BET", "alp", "battle_runes", 1)
    # (the deadline job's outcome, without waiting 48 hours: the page shows the status)
    _set_status(url, expired, "expired")
    proposed = propose("lea", "ALP", "bet", "stratego_junior", 1, variant="quest")
    accepted = propose("lea", "ALP", "bet", "scratch_wars", 2, level=1)
    _ok(c.post(f"/api/challenges/{accepted}/accept", headers=who["bob"]))
    _ok(c.post(f"/api/challenges/{accepted}/boards/1/signup", headers=who["lea"]))

    # the month's trophies: gold, silver and bronze in CZ-64, gold in SK-BL and in "other"
    run(_credit(url, {"ALP": 40, "DEL": 20, "EPS": 15, "BET": 10, "GAM": 5}))
    run(_close_this_month(url, settings))
    states = {
        "finished": finished,
        "declined": declined,
        "withdrawn": withdrawn,
        "expired": expired,
        "proposed": proposed,
        "accepted": accepted,
    }
    return {"who": who, "ids": ids, "challenges": states}


def _set_status(url: str, challenge_id: int, status: str) -> None:
    async def main() -> None:
        engine = make_engine(url)
        try:
            async with make_sessionmaker(engine)() as s, s.begin():
                await s.execute(update(Challenge).where(Challenge.id == challenge_id).values(status=status))
        finally:
            await engine.dispose()

    run(main())


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Iterator[tuple[TestClient, dict[str, Any]]]:
    """One app on a SQLite database of its own, with the world of :func:`_build`."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('clans-i18n') / 'test.db'}"
    run(_create_schema(url))
    settings = make_settings(url, clock_tick_seconds=0.1)
    with TestClient(create_app(settings)) as c:
        data = _build(c, url, settings)
        yield c, data


def _in(path: str, locale: str) -> str:
    """``path`` in ``locale`` (``?lang=``, kept beside the path's own query)."""
    return f"{path}{'&' if '?' in path else '?'}lang={locale}"


def _pages(data: dict[str, Any]) -> list[tuple[str, str | None]]:
    """``(path, viewer)`` of every page of the area (``None``: a visitor)."""
    ch = data["challenges"]
    pages: list[tuple[str, str | None]] = [
        ("/clans", None),
        ("/clans", "lea"),
        ("/clans", "cid"),
        ("/clans", "new"),
        ("/clans", "inv"),
        ("/clans?q=zzz", None),
        ("/clans?region=other", "cid"),
        ("/clans/ladder", None),
        ("/clans/ladder?page=2", None),
        (f"/clans/ladder/CZ-64?month={MONTH}", "lea"),
        ("/clans/ladder/other", None),
        (f"/clans/ladder/SK-BL?month={OLD_MONTH}", None),
        (f"/clans/ladder?month={OLD_MONTH}", None),
        ("/clans/GAM", None),
        ("/clans/BET", "bme"),
    ]
    pages += [("/clans/ALP", v) for v in ("lea", "off", "mem", "bob", "cid", "new", "inv", None)]
    pages += [(f"/challenges/{cid}", v) for cid in ch.values() for v in ("lea", "bob", "mem", None)]
    return pages


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_clan_pages_have_no_english_words(world, locale):
    c, data = world
    vocabulary = english_vocabulary()
    allowed = allowed_words(locale, *NAMES, *CLAN_WORDS)
    problems = {}
    for path, viewer in _pages(data):
        headers = data["who"][viewer] if viewer else {}
        r = c.get(_in(path, locale), headers=headers)
        assert r.status_code == 200, (path, viewer)
        assert r.headers["content-language"] == locale
        found = english_words_in(r.text, vocabulary, allowed)
        if found:
            problems[f"{path} ({viewer or 'visitor'})"] = found
    assert not problems, f"{locale}: English words on the clan pages: {problems}"


def test_the_walk_reaches_what_it_means_to(world):
    """The pages show what the walk is meant to read: every challenge state, the trophies, the
    leader's section, the challenge form, the invitations, the history rows."""
    c, data = world
    who = data["who"]
    for state, cid in data["challenges"].items():
        html = c.get(f"/challenges/{cid}", headers=who["lea"]).text
        assert f'data-status="{state}"' in html, state
    assert 'id="challenge-accept"' in c.get(f"/challenges/{data['challenges']['proposed']}", headers=who["bob"]).text
    assert 'data-action="signup"' in c.get(f"/challenges/{data['challenges']['accepted']}", headers=who["bob"]).text
    alp = c.get("/clans/ALP", headers=who["lea"]).text
    assert 'id="clan-manage"' in alp and 'id="trophy-cabinet"' in alp and 'id="wall-posts"' in alp
    codes = set(re.findall(r'<li data-code="(\w+)"', alp))
    assert {"founded", "updated", "invited", "requested", "joined", "declined", "withdrawn", "left"} <= codes
    assert {"removed", "promoted", "demoted", "wall_removed", "trophy", "challenge_finished"} <= codes
    assert {"leader"} <= set(re.findall(r'<li data-code="(\w+)"', c.get("/clans/BET").text))
    assert 'id="challenge-form"' in c.get("/clans/ALP", headers=who["bob"]).text
    assert 'id="my-invitations"' in c.get("/clans", headers=who["inv"]).text
    assert 'id="found-form"' in c.get("/clans", headers=who["cid"]).text
    ladder = c.get(f"/clans/ladder/CZ-64?month={MONTH}").text
    assert all(f'class="trophy trophy-{m}"' in ladder for m in ("gold", "silver", "bronze"))
    assert 'id="ladder-not-closed"' in c.get(f"/clans/ladder?month={OLD_MONTH}").text


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_challenge_forms_option_words_are_translated(world, locale):
    """The challenge form's games and options (drawn by static/js/challenges.js from the page's
    JSON, so not in the HTML the walk reads) are in the page's language."""
    c, data = world
    html = c.get("/clans/ALP", params={"lang": locale}, headers=data["who"]["bob"]).text
    games = json.loads(re.search(r'<script type="application/json" id="challenge-games">(.*?)</script>', html, re.S)[1])
    texts = [o["label"] for g in games for o in g["options"]] + [
        t for g in games for o in g["options"] for _v, t in o["choices"]
    ]
    assert len(texts) >= 10
    assert english_in_text(texts, locale, "Taunt", "Threat", "Total", "Swap", "Quest", "Victory") == {}, texts


def test_every_option_word_of_the_games_is_marked():
    """Every label, choice and tag the games declare (app/web/games/<game>.py, marked ``N_``; the
    teams of Fantasy súboj aside), as the challenge form and page show them, is translated in every
    language and keeps its ``{value}``."""
    declared = set()
    for game in all_games():
        web = web_parts(game)
        for spec in web.lobby_options.values():
            declared.add(spec["label"])
            declared.update(text for _value, text in spec.get("choices", []))
        for key, tag in web.option_tags.items():
            if key == "teams":
                continue
            if isinstance(tag, str):
                declared.add(tag)
            else:
                declared.update(tag.get("values", {}).values())
                if tag.get("else"):
                    declared.add(tag["else"])
    assert len(declared) >= 40
    for locale in TRANSLATED:
        lang = Language.of(locale)
        for word in sorted(declared):
            shown = lang.gettext(word)
            assert shown != word, (locale, word)
            assert ("{value}" in shown) == ("{value}" in word), (locale, word)


def _history_rows() -> list[dict[str, Any]]:
    """One history row of every code, with the parameters the services write."""
    player = {"id": 1, "name": "lea"}
    other = {"id": 2, "name": "mem"}
    clan = {"id": 9, "name": "Beta", "tag": "BET", "colour": "#0033aa"}
    rows = []
    for code in HISTORY_CODES:
        params: dict[str, Any] = {"user": other, "previous": player, "kind": "invite", "via": "request"}
        params.update(name="Alpha", tag="ALP", region="CZ-64", fields=["description", "colour", "region"])
        params.update(place=2, month="2026-11", score=12, bonus=3)
        params.update(clan=clan, challenge=5, side="challenger", game="battle_runes", boards=3)
        params.update(player_side="challenged", board=2, result="draw")
        if code == "challenge_finished":
            params["score"] = [1, 1]
        rows.append({"code": code, "actor": player, "params": params, "at": "2026-11-02T10:00:00+00:00"})
        if code in ("declined", "withdrawn"):
            rows.append({**rows[-1], "params": {**params, "kind": "request"}})
        if code.startswith("challenge_"):
            rows.append({**rows[-1], "params": {**params, "side": "challenged", "player_side": "challenged"}})
    rows.append({**rows[0], "actor": None})  # a former player
    return rows


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_history_row_and_challenge_status_is_translated(locale):
    """Rendered straight from the macros, every code in every shape: none falls back to its code
    or to English (the walk above cannot reach a disbanded clan's row or an expired challenge's
    cheaply)."""
    source = (
        '{% from "_clan.html" import history_row with context %}'
        '{% from "_challenge.html" import status with context %}'
        "{% for h in rows %}<p>{{ history_row(h) }}</p>{% endfor %}"
        "{% for s in statuses %}<p>{{ status(s) }}</p>{% endfor %}"
    )
    statuses = ["proposed", "accepted", "declined", "withdrawn", "finished", "expired"]
    rows = _history_rows()
    html = templates.env.from_string(source).render(i18n=Language.of(locale), rows=rows, statuses=statuses)
    assert html.count("<p>") == len(rows) + len(statuses)
    codes = [r["code"] for r in rows] + statuses
    leaked = [code for code in codes if f"<p>{code}</p>" in html]
    assert not leaked, leaked
    found = english_words_in(html, english_vocabulary(), allowed_words(locale, "lea", "mem", "Alpha", "Beta"))
    assert not found, f"{locale}: {found}"


def test_the_404_messages_are_translated(world):
    c, _data = world
    for path, words in (
        ("/clans/NOPE", {"cs": "Klan „NOPE“ neexistuje.", "hu": "Nincs „NOPE” klán."}),
        ("/challenges/999999", {"cs": "Výzva 999999 neexistuje.", "ru": "Вызова 999999 нет."}),
        ("/clans/ladder/XX-1", {"sk": "Oblasť „XX-1“ neexistuje.", "uk": "Регіону «XX-1» немає."}),
    ):
        for locale, text in words.items():
            r = c.get(path, params={"lang": locale})
            assert r.status_code == 404 and text in r.text, (path, locale)


def test_months_are_named_in_the_pages_language(world):
    c, _data = world
    for locale, month in (("cs", "leden 2020"), ("hu", "2020. január"), ("ru", "январь 2020"), ("en", "January 2020")):
        assert month in c.get(_in(f"/clans/ladder?month={OLD_MONTH}", locale)).text, locale


def test_the_walk_finds_english(world):
    """The check can fail: the English clan page is full of English words."""
    c, data = world
    r = c.get("/clans/ALP", params={"lang": "en"}, headers=data["who"]["lea"])
    found = english_words_in(r.text, english_vocabulary(), PROPER | set(NAMES))
    assert {"Players", "History", "Wall", "Challenges"} <= set(found)
