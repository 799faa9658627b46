"""The catalogs: gettext for the server and templates, JSON for the browser.

Server: ``translations/<locale>/LC_MESSAGES/messages.po`` (extracted by ``make i18n`` with
``babel.cfg``). Each is read with Babel's :func:`babel.messages.pofile.read_po` and compiled in
memory (:func:`babel.messages.mofile.write_mo`) the first time a page in that language is rendered:
the ``.po`` files are the only thing in the repository, so no build step can be forgotten and no
compiled file can go stale. Fuzzy entries are left out, as ``msgfmt`` does.

Browser: ``static/i18n/<locale>.json``, ``{key: template}`` with the keys of ``WORDS`` in
``static/js/messages.js`` (English, the source). A template is a string, a list of strings (most
specific first) or a plural object ``{"one": ..., "few": ..., "many": ..., "other": ...}`` with the
CLDR categories of the language (the page picks one with ``Intl.PluralRules`` on ``params.count``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from app.i18n.locales import DEFAULT_LOCALE, LOCALES
from app.settings import ROOT

TRANSLATIONS_DIR = ROOT / "translations"
JS_CATALOG_DIR = ROOT / "static" / "i18n"
MESSAGES_JS = ROOT / "static" / "js" / "messages.js"
DOMAIN = "messages"


def po_path(locale: str) -> Path:
    """``translations/<locale>/LC_MESSAGES/messages.po``."""
    return TRANSLATIONS_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(locale: str) -> Catalog:
    """The parsed ``.po`` catalog of ``locale`` (Babel's :class:`~babel.messages.catalog.Catalog`).

    :raises FileNotFoundError: there is no catalog for ``locale``.
    """
    with po_path(locale).open("rb") as fh:
        return read_po(fh, locale=locale, domain=DOMAIN)


@cache
def translations(locale: str) -> NullTranslations:
    """The gettext translations of ``locale``, compiled in memory from its ``.po`` (cached per
    process). English, the source language, and a locale without a catalog get
    :class:`~babel.support.NullTranslations` (the msgids themselves)."""
    if locale == DEFAULT_LOCALE or locale not in LOCALES or not po_path(locale).exists():
        return NullTranslations()
    buf = BytesIO()
    write_mo(buf, read_catalog(locale), use_fuzzy=False)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


@cache
def js_catalog(locale: str) -> dict[str, Any]:
    """The browser catalog of ``locale`` (``static/i18n/<locale>.json``), ``{}`` for English or a
    locale without one; the page falls back to English per key."""
    path = JS_CATALOG_DIR / f"{locale}.json"
    if locale == DEFAULT_LOCALE or not path.exists():
        return {}
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


_WORDS_RE = re.compile(r"^export const WORDS = \{\n(.*?)^\};\n", re.S | re.M)


def english_words(source: str | None = None) -> dict[str, Any]:
    """The English source table, ``WORDS`` of ``static/js/messages.js``, read as JSON: the object
    literal's keys and values are JSON (double-quoted strings, lists, plural objects), one entry
    per line or several lines; whole-line ``//`` comments and trailing commas are dropped.

    :raises ValueError: ``WORDS`` is missing or is not JSON once comments are dropped (keep it so).
    """
    text = MESSAGES_JS.read_text(encoding="utf-8") if source is None else source
    m = _WORDS_RE.search(text)
    if not m:
        raise ValueError("static/js/messages.js has no `export const WORDS = {` ... `};` block")
    lines = [line for line in m.group(1).splitlines() if not line.strip().startswith("//")]
    body = re.sub(r",(\s*[}\]])", r"\1", "\n".join(lines).rstrip().rstrip(","))
    try:
        data: dict[str, Any] = json.loads("{" + body + "}")
    except json.JSONDecodeError as exc:
        raise ValueError(f"WORDS in static/js/messages.js is not JSON-shaped: {exc}") from exc
    return data


@cache
def _english_words() -> dict[str, Any]:
    return english_words()


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def browser_word(locale: str, key: str, default: str = "", **params: Any) -> str:
    """The browser's word ``key`` (``WORDS``, translated in ``static/i18n/<locale>.json``) in
    ``locale``, its ``{name}`` placeholders filled, for words the server pages and the browser
    share (so each is written once): what ``say()`` of ``static/js/messages.js`` gives. A plural
    entry is chosen by ``params["count"]`` with the language's CLDR rule, a list gives its first
    template; a key the language lacks falls back to English, an unknown key gives ``default``."""
    entry = js_catalog(locale).get(key, _english_words().get(key))
    if entry is None:
        return default
    if isinstance(entry, dict):
        entry = entry.get(Locale.parse(locale).plural_form(params.get("count", 0)), entry.get("other", ""))
    if isinstance(entry, list):
        entry = entry[0]
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), m.group(0))), str(entry))
