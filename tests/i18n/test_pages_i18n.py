"""The pages in the players' languages (issue 15; app/i18n/): which language a request gets, the
picker and ``POST /api/users/me/language``, ``<html lang>``, the browser catalog inlined in the page,
and numbers and durations formatted for the language."""

from __future__ import annotations

import json
import re

import pytest

from app.i18n.locales import LOCALES, negotiate, parse_accept_language
from app.users.schemas import LanguageChoice

PASSWORD = "correct horse battery"


def html_lang(html: str) -> str:
    m = re.search(r'<html lang="([^"]+)">', html)
    assert m, "no <html lang>"
    return m.group(1)


def inlined_words(html: str) -> dict:
    m = re.search(r'<script id="i18n-words" type="application/json" data-locale="([^"]+)">(.*?)</script>', html, re.S)
    assert m, "no #i18n-words in the page"
    return json.loads(m.group(2))


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({}, "en"),
        ({"accept_language": "cs-CZ,cs;q=0.9,en;q=0.8"}, "cs"),
        ({"accept_language": "de-DE,uk;q=0.7,ru;q=0.5"}, "uk"),
        ({"accept_language": "fr, de"}, "en"),
        ({"accept_language": "sk;q=0, hu;q=0.2"}, "hu"),
        ({"accept_language": "sk", "cookie": "ru"}, "ru"),
        ({"accept_language": "sk", "cookie": "ru", "user_language": "hu"}, "hu"),
        ({"accept_language": "sk", "cookie": "ru", "user_language": "hu", "query": "cs"}, "cs"),
        ({"query": "xx", "cookie": "klingon", "accept_language": "sk-SK"}, "sk"),
    ],
)
def test_negotiation_order(kwargs, expected):
    assert negotiate(**kwargs) == expected


def test_accept_language_weights():
    assert parse_accept_language("en;q=0.1, cs-CZ, sk;q=0.5, ru;q=0") == ["cs-CZ", "sk", "en"]
    assert parse_accept_language("a;q=x, , *") == []


def test_the_route_schema_offers_exactly_the_locales():
    assert set(LanguageChoice.model_fields["language"].annotation.__args__) == set(LOCALES)


def test_home_page_follows_accept_language(client):
    r = client.get("/", headers={"Accept-Language": "cs-CZ,cs;q=0.9"})
    assert r.status_code == 200
    assert html_lang(r.text) == "cs" and r.headers["content-language"] == "cs"
    assert "Hry" in r.text and "Jak to funguje" in r.text and "How it works" not in r.text
    assert inlined_words(r.text)["error.bad_credentials"] == "Špatné jméno nebo heslo."
    # the picker offers every language in its own name, the current one chosen
    assert '<option value="cs" lang="cs" selected>Čeština</option>' in r.text
    assert '<option value="uk" lang="uk">Українська</option>' in r.text
    r = client.get("/", headers={"Accept-Language": "en"})
    assert html_lang(r.text) == "en" and "How it works" in r.text and inlined_words(r.text) == {}


def test_a_visitor_chooses_a_language_with_the_cookie(client):
    r = client.post("/api/users/me/language", json={"language": "uk"})
    assert r.status_code == 200 and r.json() == {"language": "uk"}
    assert "arena_lang=uk" in r.headers["set-cookie"]
    r = client.get("/lobby", headers={"Accept-Language": "cs"})
    assert html_lang(r.text) == "uk" and "Відкриті ігри" in r.text
    # ?lang= wins for one page
    r = client.get("/lobby?lang=hu")
    assert html_lang(r.text) == "hu" and "Nyitott meccsek" in r.text


def test_a_user_choice_is_stored(client, settings):
    r = client.post("/api/auth/register", json={"name": "Anička", "password": PASSWORD})
    assert r.status_code == 201, r.text
    r = client.post("/api/users/me/language", json={"language": "sk"})
    assert r.status_code == 200
    client.cookies.delete("arena_lang")  # another browser: no cookie, the stored choice still holds
    r = client.get("/", headers={"Accept-Language": "ru"})
    assert html_lang(r.text) == "sk" and "Odhlásiť sa" in r.text


def test_an_unknown_language_is_refused(client):
    r = client.post("/api/users/me/language", json={"language": "de"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    assert "arena_lang" not in r.headers.get("set-cookie", "")


def test_plural_forms_and_formatting_follow_the_language(client):
    r = client.post("/api/auth/register", json={"name": "Plurals", "password": PASSWORD})
    assert r.status_code == 201
    # gettext's plural forms (Babel's CLDR-derived Plural-Forms) in the lobby's turn times
    cs = client.get("/lobby?lang=cs").text
    assert "30 sekund" in cs and "60 sekund" in cs and "Bez časového limitu" in cs
    ru = client.get("/lobby?lang=ru").text
    assert "30 секунд" in ru and "120 секунд" in ru
    # durations through CLDR units: the time bank's choices
    assert "3 dny" in cs or "3 d" in cs
    hu = client.get("/?lang=hu").text
    # the game cards: players in Hungarian's plural (a noun after a number stays singular) and the
    # computer's levels by difficulty, the algorithm only in the tooltip (app/web/pages.py level_names)
    assert "2 játékos" in hu
    assert (
        '<span class="level-name" title="bármelyik szabályos lépést választja, véletlenszerűen (módszer: random)">'
        "Könnyű</span>"
    ) in hu  # the tooltip too: what the algorithm does, in the page's language


def test_duration_and_number_helpers():
    from app.i18n.jinja import duration

    assert duration(3600) == "1 hour" and duration(5400) == "90 minutes"
    assert duration(7200, "cs") == "2 hodiny" and duration(5 * 3600, "cs") == "5 hodin"
    assert duration(3 * 86400, "ru") == "3 дня" and duration(21 * 60, "uk") == "21 хвилина"
    assert duration(None, "sk") == "chvíľu"
