"""Issue 15's page walk for Scratch Wars: the rules page, the card gallery and the loadout editor, in
every language but English, show no English word outside proper names (``tests.i18n.walk``). The
cards keep their original names (``walk.original_names``: heroes' names and the weapons' Czech
names, "Plechový krátký meč" stays, with its translation beside it); everything else on these pages, the server-rendered card facts included
(kinds, flavour lines, bonuses, the rarity check), is in the page's language. The browser-drawn
board is walked by tests/browser/test_i18n_scratch_wars.py."""

from __future__ import annotations

import pytest

from app.web.games.scratch_wars import catalog
from tests.i18n.walk import (
    PROPER,
    TRANSLATED,
    english_vocabulary,
    english_words_in,
    visible_text,
    walk_pages,
)

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {"/games/scratch_wars", "/games/scratch_wars/cards", "/decks/scratch_wars"}

PASSWORD = "correct horse battery"
#: (path, logged in?) of the Scratch Wars pages
PAGES = [
    ("/games/scratch_wars", False),
    ("/games/scratch_wars", True),
    ("/games/scratch_wars/cards", False),
    ("/games/scratch_wars/cards", True),
    ("/decks/scratch_wars", True),
]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_scratch_wars_pages_have_no_english_words(client, locale):
    problems = walk_pages(client, locale, PAGES, "Pavouk", PASSWORD)
    assert not problems, f"{locale}: English words on the Scratch Wars pages: {problems}"


@pytest.mark.parametrize("locale", ["en", "cs", "uk"])
def test_the_cards_keep_their_names_with_a_translation_beside(client, locale):
    """Every card's original name is on the gallery and the rules page, a weapon's in Czech; each
    weapon has its translation beside it on a page in another language (English included), none on a
    Czech page, and a hero's kind and flavour line are translated."""
    cards = catalog()
    tin = next(w for w in cards["weapons"] if w["code"] == "TINS")
    assert tin["name"] == "Plechový krátký meč"  # the set's own name, in Czech
    for path in ("/games/scratch_wars/cards", "/games/scratch_wars"):
        text = " ".join(visible_text(client.get(path, params={"lang": locale}).text))
        for card in cards["heroes"] + cards["weapons"]:
            assert card["name"] in text, (path, card["name"])
    gallery = client.get("/games/scratch_wars/cards", params={"lang": locale}).text
    assert '<h3 class="sw-card-name" lang="cs">Plechový krátký meč</h3>' in gallery
    local = {"en": "Tin Shortsword", "cs": None, "uk": "Бляшаний короткий меч"}[locale]
    if local:
        assert f'<p class="sw-card-local" lang="{locale}">{local}</p>' in gallery
    else:
        assert 'class="sw-card-local"' not in gallery  # the name alone
    rules = client.get("/games/scratch_wars", params={"lang": locale}).text
    beside = f' <span class="sw-name-local" lang="{locale}">({local})</span>' if local else " <span"
    assert f'lang="cs">Plechový krátký meč</a>{beside}' in rules
    kind = {"en": "Tinker Knight", "cs": "Rytíř kutil", "uk": "Лицар-майстер"}[locale]
    assert kind in gallery  # Bramwell Cogsworth's kind
    if locale != "en":
        assert "Winds his armour" not in " ".join(visible_text(gallery))  # (the page's data keeps the source)


def test_the_walk_finds_english_on_the_english_pages(client):
    """The check can fail: the English pages are full of English words (the card names aside)."""
    vocabulary = english_vocabulary()
    rules = english_words_in(client.get("/games/scratch_wars", params={"lang": "en"}).text, vocabulary, PROPER)
    assert {"duel", "heroes", "weapon"} <= {w.lower() for w in rules}
    gallery = english_words_in(client.get("/games/scratch_wars/cards", params={"lang": "en"}).text, vocabulary, PROPER)
    assert {"Winds", "armour", "Rarity"} <= set(gallery)
    assert {"Tin", "Shortsword"} <= set(gallery)  # a weapon's English translation, beside its name
    assert "TINS" not in gallery and "REED" not in gallery  # the cards' codes, read past
