"""Issue 15's page walk for Stratego Junior: its rules page (/games/stratego_junior) and its setups page
(/decks/stratego_junior, logged in) show no English word in any translated language; each castle
keeps its original (Hungarian) name with the page language's word beside it, and the games' names
are the rulebooks' (Quest and Victory in Czech and Slovak, Csata and Győzelem in Hungarian). The
boards the browser draws are walked by tests/browser/test_i18n_stratego_junior.py."""

from __future__ import annotations

import pytest

from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.web.games.stratego_junior import ORIGINAL_NAMES
from tests.i18n.walk import PROPER, allowed_words, english_vocabulary, english_words_in, visible_text

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {"/games/stratego_junior", "/decks/stratego_junior"}

PASSWORD = "correct horse battery"
NAME = "Hradnipan"
PAGES = ("/games/stratego_junior", "/decks/stratego_junior")
TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT_LOCALE]
#: the games' names and the Jester's, as each language's rulebook (or translation) has them
GAMES = {
    "cs": ("Quest", "Victory", "Šašek"),
    "sk": ("Quest", "Victory", "Blázon"),
    "uk": ("Похід", "Перемога", "Блазень"),
    "ru": ("Поход", "Победа", "Шут"),
    "hu": ("Csata", "Győzelem", "Udvaribolond"),
}


@pytest.fixture()
def player(client):
    r = client.post("/api/auth/register", json={"name": NAME, "password": PASSWORD})
    assert r.status_code == 201
    return client


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_stratego_junior_pages_have_no_english_words(player, locale):
    vocabulary = english_vocabulary()
    allowed = allowed_words(locale, NAME)
    problems = {}
    for path in PAGES:
        r = player.get(path, params={"lang": locale})
        assert r.status_code == 200, path
        assert f'<html lang="{locale}"' in r.text
        found = english_words_in(r.text, vocabulary, allowed)
        if found:
            problems[path] = found
    assert not problems, f"{locale}: English words on the Stratego Junior pages: {problems}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_rules_page_names_the_castles_and_the_games_in_the_language(player, locale):
    quest, victory, jester = GAMES[locale]
    text = " ".join(" ".join(visible_text(player.get("/games/stratego_junior", params={"lang": locale}).text)).split())
    assert quest in text and victory in text
    # every castle's original name is shown; beside it the page's word (none in Hungarian: it is the original)
    for original in ORIGINAL_NAMES.values():
        assert original in text
    if locale == "hu":
        assert "(Udvaribolond)" not in text and "Udvaribolond" in text
    else:
        assert f"Udvaribolond ({jester})" in text
    # the page's title is in its language too
    assert "rules" not in player.get("/games/stratego_junior", params={"lang": locale}).text.split("</title>")[0]


def test_the_walk_finds_english_on_the_english_pages(player):
    """The check can fail: the English pages are full of English words."""
    vocabulary = english_vocabulary()
    rules = player.get("/games/stratego_junior", params={"lang": "en"}).text
    assert {"castles", "Dragon", "Back", "forth"} <= set(english_words_in(rules, vocabulary, PROPER))
    # the games' names are no proper names any more: a page that kept "Quest" in Hungarian is caught
    assert "Quest" in english_words_in("<p>Quest</p>", vocabulary, allowed_words("hu"))
    assert "Quest" not in english_words_in("<p>Quest</p>", vocabulary, allowed_words("cs"))
    setups = player.get("/decks/stratego_junior", params={"lang": "en"}).text
    assert {"Saved", "setups"} <= set(english_words_in(setups, vocabulary, PROPER))
