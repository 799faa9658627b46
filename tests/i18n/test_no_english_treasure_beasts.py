"""The page walk of issue 15 for Treasure Beasts' rules page (``/games/treasure_beasts``): in every
language but English it shows no English word outside proper names, each card keeps its own
Ukrainian name with the page's translation beside it, and every rule text of the card set is
marked for the catalogs. The board's words are walked in tests/browser/test_i18n_treasure_beasts.py."""

from __future__ import annotations

import html
import re

import pytest

from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from tests.i18n.walk import PROPER, allowed_words, english_vocabulary, english_words_in

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {"/games/treasure_beasts"}

PAGE = "/games/treasure_beasts"
TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT_LOCALE]


def _cards():
    from app.games.core import get_rules

    return get_rules("treasure_beasts").catalog()["cards"]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_rules_page_has_no_english_words(client, locale):
    r = client.get(PAGE, params={"lang": locale})
    assert r.status_code == 200
    found = english_words_in(r.text, english_vocabulary(), allowed_words(locale))
    assert not found, f"{locale}: English words on {PAGE}: {found}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_card_keeps_its_ukrainian_name_with_the_translation_beside_it(client, locale):
    text = html.unescape(client.get(PAGE, params={"lang": locale}).text)
    for card in _cards():
        block = text.split(f'data-card="{card["id"]}"', 1)[1].split('<div class="tb-card ', 1)[0]
        assert f'<span class="tb-card-name" lang="uk">{card["name"]}</span>' in block, card["id"]
        translation = re.search(r'data-testid="card-translation">([^<]*)<', block)
        if locale == "uk":
            assert translation is None, card["id"]
        else:
            assert translation and translation.group(1) == card["names"][locale], (locale, card["id"])


def test_every_card_has_a_ukrainian_name_and_every_translation():
    for card in _cards():
        assert re.search("[а-щьюяєіїґ]", card["name"].lower()), card["id"]
        assert set(card["names"]) == set(LOCALES) - {"uk"}, card["id"]
        assert all(v.strip() for v in card["names"].values()), card["id"]


def test_every_rule_text_of_the_card_set_is_marked():
    from app.web.games.treasure_beasts import CARD_TEXTS

    texts = set()
    for card in _cards():
        texts.update(a["text"] for a in card.get("personal_abilities", ()))
        texts.update(card[k]["text"] for k in ("group_ability", "alternative_use", "attach_option") if card.get(k))
        texts.update([card["flavour"]] if card.get("flavour") else [])
    assert texts == set(CARD_TEXTS)


def test_the_walk_finds_english_on_the_english_page(client):
    """The check can fail: the English rules page is full of English words."""
    r = client.get(PAGE, params={"lang": "en"})
    found = set(english_words_in(r.text, english_vocabulary(), PROPER))
    assert {"draft", "Attacks", "Properties", "strength", "creature"} <= found
