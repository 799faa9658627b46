"""Issue 15's page walk for the table around the boards (every game's frame): the games list, the
saved-decks list, the 404 page with its messages, and the match and replay pages of a finished match
and of a cancelled one (the frame the server renders: clocks' buttons, fair play, chat, log, replay
controls, the aborted panel), in every language, show no English word outside proper names. The
browser-drawn parts of the same pages are walked by tests/browser/test_i18n_table.py."""

from __future__ import annotations

import pytest

from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from tests.i18n.walk import PROPER, allowed_words, english_vocabulary, english_words_in

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {"/games", "/decks", "/matches/{match_id}", "/matches/{match_id}/replay", "404"}

PASSWORD = "correct horse battery"
NAME = "Pavouk"


def _matches(client) -> tuple[int, int]:
    """A match Pavouk resigned against the computer (finished) and one he cancelled (aborted)."""
    r = client.post("/api/matches", json={"game": "battle_runes", "computer": [{"seat": 1, "level": None}]})
    assert r.status_code == 201, r.text
    finished = r.json()["id"]
    assert client.post(f"/api/matches/{finished}/resign").status_code in (200, 204)
    assert client.get(f"/api/matches/{finished}").json()["status"] == "finished"
    r = client.post("/api/matches", json={"game": "stratego_junior"})
    assert r.status_code == 201, r.text
    aborted = r.json()["id"]
    assert client.post(f"/api/matches/{aborted}/cancel").status_code in (200, 204)
    return finished, aborted


def _pages(finished: int, aborted: int) -> list[tuple[str, int]]:
    """(path, status) of the table's server-rendered pages."""
    return [
        ("/games", 200),
        ("/decks", 200),
        (f"/matches/{finished}", 200),
        (f"/matches/{finished}/replay", 200),
        (f"/matches/{aborted}", 200),
        (f"/matches/{aborted}/replay", 200),
        ("/matches/987654", 404),
        ("/matches/987654/replay", 404),
        ("/games/xyzzy", 404),
        ("/decks/xyzzy", 404),
        ("/users/Qwrtz", 404),
        ("/ladders/xyzzy", 404),
        ("/clans/ZZZZ", 404),
        ("/tournaments/987654", 404),
        ("/challenges/987654", 404),
    ]


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != DEFAULT_LOCALE])
def test_the_tables_pages_have_no_english_words(client, locale):
    vocabulary = english_vocabulary()
    allowed = allowed_words(locale, NAME)
    r = client.post("/api/auth/register", json={"name": NAME, "password": PASSWORD})
    assert r.status_code == 201
    finished, aborted = _matches(client)
    problems = {}
    for path, status in _pages(finished, aborted):
        r = client.get(path, params={"lang": locale})
        assert r.status_code == status, (path, r.status_code)
        found = english_words_in(r.text, vocabulary, allowed)
        if found:
            problems[path] = found
    assert not problems, f"{locale}: English words on the table's pages: {problems}"


def test_the_walk_finds_english_on_the_tables_pages(client):
    """The check can fail: the English pages are full of English words."""
    vocabulary = english_vocabulary()
    client.post("/api/auth/register", json={"name": NAME, "password": PASSWORD})
    finished, aborted = _matches(client)
    match = english_words_in(client.get(f"/matches/{finished}", params={"lang": "en"}).text, vocabulary, PROPER)
    assert {"Fair", "play", "Resign"} <= set(match)
    replay = english_words_in(client.get(f"/matches/{finished}/replay", params={"lang": "en"}).text, vocabulary, PROPER)
    assert {"Moves", "First", "Last"} <= set(replay)
    gone = english_words_in(client.get("/matches/987654", params={"lang": "en"}).text, vocabulary, PROPER)
    assert {"There", "match"} <= set(gone)
    aborted_page = client.get(f"/matches/{aborted}", params={"lang": "en"}).text
    assert "This match was cancelled" in aborted_page


def test_the_404_message_is_in_the_pages_language(client):
    r = client.get("/matches/987654", params={"lang": "cs"})
    assert r.status_code == 404 and "Zápas 987654 neexistuje." in r.text
    r = client.get("/games/nope", params={"lang": "ru"})
    assert r.status_code == 404 and "Игры «nope» нет." in r.text


@pytest.mark.parametrize("path", ["/no/such/page", "/lobbyx", "/matches/abc", "/users/"])
def test_an_unknown_address_gets_the_404_page_in_the_readers_language(client, path):
    """A browser asking for an address the site does not have (or a page address with a malformed
    id) reads the 404 page in its language; an API client still gets the JSON error."""
    for locale in [loc for loc in LOCALES if loc != DEFAULT_LOCALE]:
        r = client.get(path, params={"lang": locale}, headers={"Accept": "text/html,application/xhtml+xml"})
        assert r.status_code == 404 and r.headers["content-type"].startswith("text/html"), (path, locale)
        assert f'<html lang="{locale}"' in r.text
        assert english_words_in(r.text, english_vocabulary(), allowed_words(locale)) == {}, (path, locale)
    assert "Taková stránka tu není." in client.get(path, params={"lang": "cs"}, headers={"Accept": "text/html"}).text
    r = client.get(path, headers={"Accept": "application/json"})
    assert r.status_code in (404, 422) and r.json()["error"]["code"] in ("not_found", "validation_error")
    r = client.get("/api/no/such/thing", headers={"Accept": "text/html"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
