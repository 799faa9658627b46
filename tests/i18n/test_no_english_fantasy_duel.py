"""Issue 15's page walk for Fantasy súboj: its rules page (``templates/games/fantasy_duel.html``:
the rules, the 36 units with their numbers, factions and abilities), for a visitor and for a
logged-in player, in every language, shows no English word outside proper names. The units keep
their original Slovak names; the page's language gives the translation beside each (docs/i18n.md).
The board (static/js/games/fantasy_duel.js) is walked in tests/browser/test_i18n_fantasy_duel.py."""

from __future__ import annotations

import re

import pytest

from app.games.core import get_rules
from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.web.games.fantasy_duel import display_name, unit_translation
from tests.i18n.walk import PROPER, TRANSLATED, english_vocabulary, english_words_in, walk_pages

PASSWORD = "correct horse battery"
RULES = "/games/fantasy_duel"
#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {RULES}


def unit_block(html: str, unit_id: str) -> str:
    return html.split(f'data-unit="{unit_id}"', 1)[1].split('<div class="fd-unit ', 1)[0]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_rules_page_has_no_english_words(client, locale):
    problems = walk_pages(client, locale, [(RULES, False), (RULES, True)], "Drak", PASSWORD)
    assert not problems, f"{locale}: English words on the rules page: {problems}"


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != DEFAULT_LOCALE])
def test_every_unit_shows_its_original_name_and_its_translation(client, locale):
    """Each card of the rules page names the unit as the Slovak cards do; in another language its
    translation stands beside it (a second line and the card's title), a Slovak page needs none."""
    r = client.get(RULES, params={"lang": locale})
    units = get_rules("fantasy_duel").catalog()["units"]
    for unit in units:
        block = unit_block(r.text, unit["id"])
        name = display_name(unit)
        assert f'<span class="fd-unit-name" lang="sk">{name}</span>' in block, unit["id"]
        translation = unit_translation(unit["id"], locale)
        if locale == "sk":
            assert "fd-unit-translation" not in block
        else:
            assert translation, (locale, unit["id"])
            same = translation == unit_translation(unit["id"], "en")
            assert not same or unit["id"] in ("paladin", "zombie"), (locale, unit["id"])  # loanwords
            assert f'<div class="fd-unit-translation">{translation}</div>' in block, (locale, unit["id"])


def test_the_walk_finds_english_on_the_english_rules_page(client):
    """The check can fail: the English rules page is full of English words."""
    r = client.get(RULES, params={"lang": "en"})
    found = english_words_in(r.text, english_vocabulary(), PROPER)
    assert {"rules", "attack", "Knight", "prison"} <= set(found), found
    assert re.search(r'<div class="fd-unit-translation">Knight</div>', r.text)
