"""The page walk of issue 15 for the site's front pages (home, sign-up, log-in, lobby): in every
language they show no English word outside proper names (server-rendered text: elements and the
attributes people read). The other pages have walks of their own (``test_no_english_*.py``; every
page is walked, tests/i18n/test_every_page.py); the browser's words are checked by
tests/i18n/test_catalogs.py and the browser walks (tests/browser/test_i18n_*.py)."""

from __future__ import annotations

import pytest

from tests.i18n.walk import PROPER, TRANSLATED, english_vocabulary, english_words_in, walk_pages

PASSWORD = "correct horse battery"
#: (path, logged in?) of the pages translated into every language
PAGES = [("/", False), ("/", True), ("/signup", False), ("/login", False), ("/lobby", False), ("/lobby", True)]
#: the pages walked here (tests/i18n/test_every_page.py)
ROUTES = {path for path, _ in PAGES}


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translated_pages_have_no_english_words(client, locale):
    problems = walk_pages(client, locale, PAGES, "Pavouk", PASSWORD)
    assert not problems, f"{locale}: English words on translated pages: {problems}"


def test_the_walk_finds_english(client):
    """The check can fail: the English pages are full of English words."""
    vocabulary = english_vocabulary()
    r = client.get("/", params={"lang": "en"})
    assert {"How", "works", "Games"} <= set(english_words_in(r.text, vocabulary, PROPER))
