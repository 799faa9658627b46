"""Issue 15 on Battle Runes' rules page (``/games/battle_runes``, templates/games/battle_runes.html):
in every language it shows no English word outside proper names, each of the 30 runes keeps its
original Russian name with the page's language's name beside it, and the rune words the page
(gettext) and the board (``br.*`` of static/js/messages.js) translate are runes.yaml's own."""

from __future__ import annotations

import re

import pytest

from app.games.battle_runes.data import RUNES
from app.i18n import catalogs
from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.web.games.battle_runes import KIND_NAMES, MODIFIER_FACES, RUNE_WORDS
from tests.i18n.walk import PROPER, allowed_words, english_vocabulary, english_words_in

#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {"/games/battle_runes"}

TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT_LOCALE]
PAGE = "/games/battle_runes"


def _cards(html: str) -> dict[str, str]:
    """Rune id -> the HTML of its card on the rules page."""
    parts = re.split(r'(?=<div class="rune rune-)', html)
    return {m.group(1): part for part in parts if (m := re.search(r'data-rune="(\w+)"', part[:400]))}


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_rules_page_has_no_english_words(client, locale):
    r = client.get(PAGE, params={"lang": locale})
    assert r.status_code == 200
    assert f'<html lang="{locale}"' in r.text
    found = english_words_in(r.text, english_vocabulary(), allowed_words(locale))
    assert not found, f"{locale}: English words on {PAGE}: {found}"


def test_the_walk_finds_english(client):
    """The check can fail: the English rules page is full of English words."""
    r = client.get(PAGE, params={"lang": "en"})
    found = set(english_words_in(r.text, english_vocabulary(), PROPER))
    assert {"Construction", "Destruction", "Modifier", "rules", "turn"} <= found


@pytest.mark.parametrize("locale", [*TRANSLATED, "en"])
def test_each_rune_keeps_its_russian_name_with_the_local_one_beside_it(client, locale):
    r = client.get(PAGE, params={"lang": locale})
    cards = _cards(r.text)
    assert set(cards) == set(RUNES)
    gettext = catalogs.translations(locale).gettext
    for rid, rune in RUNES.items():
        card = cards[rid]
        assert f'<div class="rune-name" lang="ru">{rune.name_ru}</div>' in card, (locale, rid)
        local = gettext(rune.name)
        # the card's tooltip is the name in the page's language
        assert f'title="{local}"' in card, (locale, rid)
        if locale == "ru":
            assert local == rune.name_ru and "rune-name-local" not in card, rid
        else:
            assert local != rune.name_ru and f'<div class="rune-name-local">{local}</div>' in card, (locale, rid)
        assert gettext(rune.text) in card.replace("&#39;", "'"), (locale, rid)


def test_the_original_names_are_russian():
    for rid, rune in RUNES.items():
        assert re.search(r"[А-Яа-яЁё]", rune.name_ru), rid
        # no English word in an original name (the seed's image captions mixed some in)
        assert not re.search(r"[A-Za-z]{2,}", rune.name_ru), (rid, rune.name_ru)


def test_the_rune_words_are_runes_yaml_own():
    """runes.yaml's English names and texts are what app/web/games/battle_runes.py marks for the
    gettext catalogs and what the board's br.rune.* / br.text.* hold; the faces and kind names too."""
    assert set(RUNE_WORDS) == set(RUNES)
    words = catalogs.english_words()
    for rid, rune in RUNES.items():
        assert RUNE_WORDS[rid] == (rune.name, rune.text), rid
        assert words[f"br.rune.{rid}"] == rune.name, rid
        assert words[f"br.text.{rid}"] == rune.text, rid
    for rid, face in MODIFIER_FACES.items():
        if re.search(r"[A-Za-z]{2,}", face):
            assert words[f"br.face.{rid}"] == face, rid
    for kind, name in KIND_NAMES.items():
        assert words[f"br.kind.{kind}"] == name


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_board_and_the_page_name_a_rune_alike(locale):
    """The board (JSON catalog) and the rules page (gettext) give a rune the same name and text."""
    table = catalogs.js_catalog(locale)
    gettext = catalogs.translations(locale).gettext
    for rid, (name, text) in RUNE_WORDS.items():
        assert table[f"br.rune.{rid}"] == gettext(name), (locale, rid)
        assert table[f"br.text.{rid}"] == gettext(text), (locale, rid)
    for rid, face in MODIFIER_FACES.items():
        if f"br.face.{rid}" in table:
            assert table[f"br.face.{rid}"] == gettext(face), (locale, rid)
    assert all(table[f"br.rune.{rid}"] == RUNES[rid].name_ru for rid in RUNES) == (locale == "ru")
