"""The page walk of issue 15: every translated page, in every language, shows no English word
outside proper names. The walk covers the pages translated so far (:data:`PAGES`, server-rendered
text: elements and the attributes people read); the next engineer adds pages as they are
translated (docs/i18n.md lists those still English). The browser's words (static/js) are checked by
tests/i18n/test_catalogs.py and, on the Scratch Wars board, by tests/browser/test_i18n_browser.py."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from app.games.core import all_games, bot_levels
from app.i18n import catalogs
from app.i18n.locales import DEFAULT_LOCALE, LOCALES

PASSWORD = "correct horse battery"
#: (path, logged in?) of the pages translated into every language
PAGES = [("/", False), ("/", True), ("/signup", False), ("/login", False), ("/lobby", False), ("/lobby", True)]
#: proper names and codes that stay as they are in every language
PROPER = {
    "tabletop",
    "arena",
    "battle",
    "runes",
    "scratch",
    "wars",
    "stratego",
    "junior",
    "fantasy",
    "treasure",
    "beasts",
    "api",
    "sha",
    "json",
    "bot",
    "english",
    "quest",
    "victory",
    "flag",
}
#: words spelled as in English that belong to these languages: loanwords ("online", "limit") and
#: native words ("run", Czech: "of the runes"; "most", Hungarian: "now")
NATIVE = {
    "hu": {"most", "online"},
    "cs": {"online", "limit", "run"},
    "sk": {"online", "limit"},
    "uk": set(),
    "ru": set(),
}


def english_vocabulary() -> set[str]:
    """Every word of three or more letters in the English sources: the gettext msgids and WORDS."""
    texts = [
        str(m)
        for msg in catalogs.read_catalog("cs")
        if msg.id
        for m in (msg.id if isinstance(msg.id, tuple) else (msg.id,))
    ]
    for entry in catalogs.english_words().values():
        forms = entry.values() if isinstance(entry, dict) else [entry]
        for form in forms:
            texts.extend(form if isinstance(form, list) else [form])
    words = set()
    for text in texts:
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}|%\(\w+\)s|<[^>]+>", " ", text)))
    return words


class Visible(HTMLParser):
    """The text a person reads: text outside <script>/<style>, and title, aria-label, placeholder, alt."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def english_words_in(html: str, vocabulary: set[str], allowed: set[str]) -> dict[str, str]:
    """The English words a person reads on the page, each with the text it stands in."""
    parser = Visible()
    parser.feed(html)
    found = {}
    for part in parser.parts:
        for word in re.findall(r"(?<![^\W\d_])[A-Za-z]{3,}(?![^\W\d_])", part):
            if word.lower() in vocabulary and word.lower() not in allowed:
                found[word] = " ".join(part.split())[:80]
    return found


@pytest.mark.parametrize("locale", [loc for loc in LOCALES if loc != DEFAULT_LOCALE])
def test_translated_pages_have_no_english_words(client, locale):
    vocabulary = english_vocabulary()
    algorithms = {lv.lower() for game in all_games() for lv in bot_levels(game)}
    allowed = PROPER | algorithms | NATIVE[locale] | {name.lower() for name in re.findall(r"[A-Za-z]{3,}", "Pavouk")}
    r = client.post("/api/auth/register", json={"name": "Pavouk", "password": PASSWORD})
    assert r.status_code == 201
    me = client.cookies.get("arena_session")
    problems = {}
    for path, logged_in in PAGES:
        if logged_in:
            client.cookies.set("arena_session", me)
        else:
            client.cookies.delete("arena_session")
        r = client.get(path, params={"lang": locale})
        assert r.status_code == 200, path
        found = english_words_in(r.text, vocabulary, allowed)
        if found:
            problems[f"{path} ({'user' if logged_in else 'visitor'})"] = found
    assert not problems, f"{locale}: English words on translated pages: {problems}"


def test_the_walk_finds_english(client):
    """The check can fail: the English pages are full of English words."""
    vocabulary = english_vocabulary()
    r = client.get("/", params={"lang": "en"})
    assert {"How", "works", "Games"} <= set(english_words_in(r.text, vocabulary, PROPER))
