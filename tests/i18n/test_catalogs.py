"""The checks of issue 15 on the catalogs (docs/i18n.md):

- gettext (``translations/<locale>/LC_MESSAGES/messages.po``): every string the code marks
  (``babel.cfg``: app/ and templates/) is in every catalog, translated and not fuzzy; no catalog keeps
  one the code no longer uses; a translation keeps the ``%(name)s`` placeholders of its msgid.
- the browser (``static/i18n/<locale>.json`` against ``WORDS`` of ``static/js/messages.js``): no key
  English lacks; every key of a translated area is there; each has the shape of the English entry
  (a string, a list of as many templates, or a plural object) with the same ``{name}`` placeholders;
  a plural object has exactly the CLDR categories of its language; every key the page scripts name
  literally is in ``WORDS``.

Areas not yet translated are listed in :data:`PENDING` (and in docs/i18n.md); a key in neither list
fails, so a new area is translated or listed on purpose.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from app.i18n import catalogs
from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.settings import ROOT

TRANSLATED = [loc for loc in LOCALES if loc != DEFAULT_LOCALE]
#: the browser's areas (key prefixes) translated into every language
DONE = (
    "error.",
    "form.",
    "log.",
    "reason.",
    "lobby.",
    "sw.",
    "rank.",
    "result.",
    "reward.",
    "fd.",
    "tournament.",
    "tb.",
    "br.",
    "clan.",
    "presence.",
    "notice.",
    "chat.",
    "turn.",
    "replay.",
    "rematch.",
    "spectators.",
    "aborted.",
    "table.",
    "level.",
    "sj.",
    "deck.",
)
#: the areas still English only: the next engineer moves them to DONE as they are translated
PENDING: tuple[str, ...] = ()
#: translations spelled as in English on purpose: each key with the languages where it is
ALL = {"cs", "sk", "uk", "ru", "hu"}
_SAME_AS_ENGLISH = {
    # a loanword the gettext catalogs use too: the rank badge says "Lord" (templates/_rank.html)
    "rank.lord": {"cs", "sk", "hu"},
    # Fantasy súboj's units: "Paladin" (Czech, Hungarian), "Zombie" (Czech; the Slovak original)
    "fd.unit.paladin": {"cs", "hu"},
    "fd.unit.zombie": {"cs", "sk"},
    # Treasure Beasts' treasure count, a symbol and a number ("◆ 6"); its nearest zone, in Czech
    # "Start" as in the game's rulebook ("Старт")
    "tb.treasures": ALL,
    "tb.zone.start": {"cs"},
    # Battle Runes' step line "+{base} {what}, +{bonus} {bonus_what} ({condition})": signs and
    # placeholders only
    "br.step.points": ALL,
    # a chat line is only its two placeholders; Czech and Slovak write the short units as English does
    "chat.line": ALL,
    "lobby.unit.s": {"cs", "sk"},
    "lobby.unit.min": {"cs", "sk"},
    "lobby.unit.h": {"cs", "sk"},
    # the Stratego Junior games' names, which the Czech and Slovak rulebooks print as "Quest" and
    # "Victory" (the Hungarian one names them "Csata" and "Győzelem")
    "sj.variant.quest": {"cs", "sk"},
    "sj.variant.victory": {"cs", "sk"},
}
SAME_AS_ENGLISH = {loc: {k for k, langs in _SAME_AS_ENGLISH.items() if loc in langs} for loc in sorted(ALL)}
PY_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
JS_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def code_msgids() -> set[str | tuple[str, str]]:
    """Every msgid the code marks, extracted as ``make i18n`` does (``babel.cfg``)."""
    with (ROOT / "babel.cfg").open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    out: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords={"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    ):
        out.add(message if isinstance(message, str) else tuple(message))
    return out


@pytest.fixture(scope="module")
def marked() -> set[str | tuple[str, str]]:
    return code_msgids()


def test_the_code_marks_strings(marked):
    assert "Log in" in marked and ("%(num)s player", "%(num)s players") in marked


@pytest.mark.parametrize("locale", TRANSLATED)
def test_gettext_catalog_matches_the_code(locale, marked):
    catalog = catalogs.read_catalog(locale)
    ids = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog if m.id}
    assert not (marked - ids), f"{locale}: strings the code uses are missing (run `make i18n`)"
    assert not (ids - marked), f"{locale}: strings the code no longer uses (run `make i18n`)"
    untranslated = [
        m.id for m in catalog if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))
    ]
    assert not untranslated, f"{locale}: untranslated or fuzzy: {untranslated}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_gettext_placeholders_are_kept(locale):
    for m in catalogs.read_catalog(locale):
        if not m.id:
            continue
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = set(PY_PLACEHOLDER.findall(" ".join(sources)))
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            found = set(PY_PLACEHOLDER.findall(text))
            # a plural form may leave out %(num)s ("jeden hráč"), never add or rename one
            assert found <= wanted and wanted - found <= {"num"}, f"{locale}: {m.id!r} -> {text!r}"
            assert text.count("<strong>") == sources[0].count("<strong>"), f"{locale}: markup of {m.id!r}"


@pytest.mark.parametrize("locale", TRANSLATED)
def test_gettext_plural_forms_are_the_languages(locale):
    catalog = catalogs.read_catalog(locale)
    plurals = [m for m in catalog if m.id and isinstance(m.id, tuple)]
    assert plurals
    for m in plurals:
        assert len(m.string) == catalog.num_plurals, (locale, m.id)


def test_english_words_are_read():
    words = catalogs.english_words()
    assert words["error.bad_credentials"] == "Wrong name or password."
    assert words["sw.result.lives"] == {"one": "{who} {count} life", "other": "{who} {count} lives"}
    text = (ROOT / "static/js/messages.js").read_text()
    keys = re.findall(r'^  "([\w.]+)":', text.split("export const WORDS = {", 1)[1].split("\n};", 1)[0], re.M)
    assert len(keys) == len(set(keys)) == len(words), "a key of WORDS is written twice"


def test_every_english_area_is_done_or_pending():
    words = catalogs.english_words()
    unlisted = sorted(k for k in words if not k.startswith(DONE + PENDING))
    assert not unlisted, f"add these areas to DONE (translated) or PENDING: {unlisted}"


def _shape(entry):
    if isinstance(entry, dict):
        return "plural"
    return ("list", len(entry)) if isinstance(entry, list) else "string"


def _templates(entry) -> list[str]:
    if isinstance(entry, dict):
        return [t for form in entry.values() for t in _templates(form)]
    return list(entry) if isinstance(entry, list) else [entry]


def _placeholders(entry) -> list[set[str]]:
    """Per template position, the placeholders (a plural object: the union over its forms)."""
    if isinstance(entry, dict):
        return [set().union(*(set(JS_PLACEHOLDER.findall(t)) for t in _templates(entry)))]
    return [set(JS_PLACEHOLDER.findall(t)) for t in _templates(entry)]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_browser_catalog_matches_english(locale):
    english = catalogs.english_words()
    path = catalogs.JS_CATALOG_DIR / f"{locale}.json"
    table = json.loads(path.read_text(encoding="utf-8"))
    assert not (set(table) - set(english)), f"{locale}.json keeps keys English no longer has"
    missing = sorted(k for k in english if k.startswith(DONE) and k not in table)
    assert not missing, f"{locale}.json lacks {missing}"
    categories = set(Locale.parse(locale).plural_form.tags) | {"other"}
    for key, entry in table.items():
        source = english[key]
        assert _shape(entry) == _shape(source), f"{locale}: {key} has another shape than English"
        assert _placeholders(entry) == _placeholders(source), f"{locale}: {key} changes a placeholder"
        if isinstance(entry, dict):
            assert set(entry) == categories, f"{locale}: {key} needs the plural forms {sorted(categories)}"
        for text in _templates(entry):
            assert text.strip(), f"{locale}: {key} is empty"
            assert (
                text != _templates(source)[0] or key.startswith("sw.ev.spin_result") or key in SAME_AS_ENGLISH[locale]
            ), f"{locale}: {key} is left in English"


def test_english_plural_entries_have_one_and_other():
    for key, entry in catalogs.english_words().items():
        if isinstance(entry, dict):
            assert set(entry) == {"one", "other"}, key


def test_page_scripts_name_known_keys():
    words = catalogs.english_words()
    literal = re.compile(r'\b(?:say|t|knows)\(\s*"([a-z_]+\.[\w.]+)"')
    unknown = []
    for path in sorted(Path(ROOT / "static/js").rglob("*.js")):
        for key in literal.findall(path.read_text(encoding="utf-8")):
            if key not in words:
                unknown.append(f"{path.name}: {key}")
    assert not unknown, unknown


def test_the_python_marker_reads_its_own_catalog_at_runtime():
    t = catalogs.translations("cs")
    assert t.gettext("Log in") == "Přihlásit se"
    assert [t.ngettext("%(num)s player", "%(num)s players", n) % {"num": n} for n in (1, 3, 5)] == [
        "1 hráč",
        "3 hráči",
        "5 hráčů",
    ]
    ru = catalogs.translations("ru")
    assert [ru.ngettext("%(num)s second", "%(num)s seconds", n) % {"num": n} for n in (1, 2, 5, 21)] == [
        "1 секунда",
        "2 секунды",
        "5 секунд",
        "21 секунда",
    ]


@pytest.mark.parametrize("locale", ["cs", "sk"])
def test_stratego_juniors_games_keep_the_rulebooks_names_on_the_server_as_in_the_browser(locale):
    """Czech and Slovak name the two games "Quest" and "Victory" (docs/i18n.md), as the pages'
    scripts do (``sj.variant.*``); the home page and the lobby's select once said Výprava and
    Vítězství while the match page said Victory."""
    from babel.messages.pofile import read_po

    with (ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    named = [m for m in catalog if m.id and isinstance(m.id, str) and re.search(r"\b(Quest|Victory)\b", m.id)]
    assert len(named) >= 5
    for message in named:
        for name in ("Quest", "Victory"):
            if re.search(rf"\b{name}\b", message.id):
                assert name in message.string, (message.id, message.string)
    words = json.loads((ROOT / "static" / "i18n" / f"{locale}.json").read_text(encoding="utf-8"))
    assert (words["sj.variant.quest"], words["sj.variant.victory"]) == ("Quest", "Victory")
