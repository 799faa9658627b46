"""What the language checks share: the English vocabulary (every word of the English sources), the
text a person reads on a page, and the words allowed to stay as they are. Used by the page walks in
this folder and by the browser walks of the game boards (``tests/browser/helpers.py``'s
``english_on_page``)."""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser

from app.games.core import all_games, bot_levels
from app.i18n import catalogs

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
    # Fantasy súboj's units keep their Slovak names ("Kostej", "Zombie") in every language
    "kostej",
    "zombie",
}
#: words spelled as in English that belong to these languages, each with the languages and why
_NATIVE = {
    "online": ({"cs", "sk", "hu"}, "a loanword"),
    "limit": ({"cs", "sk"}, "a loanword"),
    "bonus": ({"cs", "sk"}, "a loanword; the Czech Scratch Wars rulebook's word"),
    "min": ({"cs", "sk"}, "the abbreviation of minutes"),
    "run": ({"cs"}, "'of the runes'"),
    "her": ({"cs"}, "'of the games'"),
    "let": ({"cs", "sk"}, "'flight', Treasure Beasts' property (Політ)"),
    "start": ({"cs"}, "Treasure Beasts' nearest zone, the rulebook's 'Старт'"),
    "paladin": ({"cs", "hu"}, "Fantasy súboj's unit, so spelled"),
    "quest": ({"cs", "sk"}, "Stratego Junior's game, so named by the Czech and Slovak rulebooks"),
    "victory": ({"cs", "sk"}, "the same; the Hungarian rulebook says 'Csata' and 'Győzelem'"),
    "most": ({"hu"}, "'now'"),
    "add": ({"hu"}, "'gives'"),
    "tie": ({"sk"}, "'those'"),
    "type": ({"sk"}, "'in the type'"),
}
NATIVE = {loc: {w for w, (langs, _why) in _NATIVE.items() if loc in langs} for loc in ("cs", "sk", "uk", "ru", "hu")}


@cache
def english_vocabulary() -> frozenset[str]:
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
    return frozenset(words)


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


def visible_text(html: str) -> list[str]:
    """The texts a person reads in ``html``: elements' text and the attributes read aloud or shown."""
    parser = Visible()
    parser.feed(html)
    return parser.parts


def english_words_in(html: str, vocabulary: frozenset[str] | set[str], allowed: set[str]) -> dict[str, str]:
    """The English words a person reads on the page, each with the text it stands in."""
    return _english(visible_text(html), vocabulary, allowed)


@cache
def original_names() -> tuple[str, ...]:
    """The games' card names that stay as they are in every language (docs/i18n.md, "names"): Scratch
    Wars' heroes (personal names, "Bramwell Cogsworth") and weapons (their own Czech names, the set's
    language, shown with a translation beside them: "Plechový krátký meč") and the cards' 4-letter
    codes ("TINS", "REED"), longest first. The walk reads past them, so a hero's name or the code
    "REED" on a Slovak page is a name, not English; the translation beside a weapon's name is not
    read past (on an English page, "Reed Blade" is English)."""
    names: set[str] = set()
    sw = all_games().get("scratch_wars")
    if sw is not None:
        cards = sw.catalog()
        for card in [*cards.get("heroes", ()), *cards.get("weapons", ())]:
            names.update((str(card["name"]), str(card["code"])))
    return tuple(sorted(names, key=len, reverse=True))


#: hexadecimal digests (a match's seed and its hash): not words
_DIGESTS = re.compile(r"\b[0-9a-f]{32,}\b")


def _english(parts: list[str], vocabulary: frozenset[str] | set[str], allowed: set[str]) -> dict[str, str]:
    found = {}
    for text in parts:
        part = text
        for name in original_names():
            part = part.replace(name, " ")
        part = _DIGESTS.sub(" ", part)  # a seed's hash (64 hex digits) may hold "def", "bad", "fed"
        for word in re.findall(r"(?<![^\W\d_])[A-Za-z]{3,}(?![^\W\d_])", part):
            if word.lower() in vocabulary and word.lower() not in allowed:
                found[word] = " ".join(text.split())[:80]
    return found


def allowed_words(locale: str, *names: str) -> set[str]:
    """Words that may stay as they are on a page in ``locale``: proper names, the computer's
    algorithm names, the language's own words spelled as in English, and ``names`` (players' names
    and the like, split into words)."""
    algorithms = {lv.lower() for game in all_games() for lv in bot_levels(game)}
    extra = {w.lower() for name in names for w in re.findall(r"[A-Za-z]{3,}", name)}
    return PROPER | algorithms | NATIVE.get(locale, set()) | extra


def english_in_text(parts: list[str], locale: str, *names: str) -> dict[str, str]:
    """The English words in ``parts`` (texts a person reads), each with the text it stands in."""
    return _english(parts, english_vocabulary(), allowed_words(locale, *names))


#: the locales a walk checks: every language but English
TRANSLATED = ("cs", "sk", "uk", "ru", "hu")


def walk_pages(client, locale: str, pages: list[tuple[str, bool]], name: str, password: str) -> dict[str, dict]:
    """Read ``pages`` (``(path, logged in?)``) in ``locale`` as a visitor or as a new player
    ``name`` signed up with ``client``; each page must answer 200 in that language. :returns: the
    English words each page shows (``"path (user|visitor)"``: ``{word: text}``), empty when none."""
    allowed = allowed_words(locale, name)
    r = client.post("/api/auth/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    me = client.cookies.get("arena_session")
    problems: dict[str, dict] = {}
    for path, logged_in in pages:
        if logged_in:
            client.cookies.set("arena_session", me)
        else:
            client.cookies.delete("arena_session")
        r = client.get(path, params={"lang": locale})
        assert r.status_code == 200, path
        assert f'<html lang="{locale}"' in r.text, path
        if found := english_words_in(r.text, english_vocabulary(), allowed):
            problems[f"{path} ({'user' if logged_in else 'visitor'})"] = found
    return problems
