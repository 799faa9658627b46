"""The site's locales and how a request's locale is chosen.

The order (first that names a supported locale wins):

1. ``?lang=<code>`` in the page's address (a link to a page in a given language);
2. the logged-in user's stored choice (``users.language``, set by ``POST /api/users/me/language``);
3. the ``arena_lang`` cookie (a visitor's choice, set by the same route);
4. the browser's ``Accept-Language`` header, matched by Babel's :func:`babel.negotiate_locale`
   (``cs-CZ`` gives ``cs``; a language we do not have is skipped);
5. English.
"""

from __future__ import annotations

from functools import cache

from babel import Locale, negotiate_locale

#: the locales the site is written in, English first (the source language of every catalog)
LOCALES: tuple[str, ...] = ("en", "cs", "sk", "uk", "ru", "hu")
DEFAULT_LOCALE = "en"
#: the cookie holding a visitor's (or a user's) chosen locale
COOKIE = "arena_lang"
#: how long the cookie lasts, in seconds (a year)
COOKIE_MAX_AGE = 365 * 86400


def supported(code: str | None) -> str | None:
    """``code`` if it is one of :data:`LOCALES` (case-insensitive, ``cs-CZ``/``cs_CZ`` -> ``cs``), else ``None``."""
    if not code:
        return None
    base = code.strip().replace("_", "-").split("-", 1)[0].lower()
    return base if base in LOCALES else None


def parse_accept_language(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first (RFC 9110 section
    12.5.4: ``q`` weights, ``q=0`` means "not this one"; ties keep the header's order).

    ``"cs-CZ,cs;q=0.9,en;q=0.8"`` -> ``["cs-CZ", "cs", "en"]``. Malformed parts are skipped.
    """
    weighted: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*" or len(tag) > 35:
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            weighted.append((-q, index, tag))
    return [tag for _, _, tag in sorted(weighted)]


def negotiate(
    query: str | None = None,
    user_language: str | None = None,
    cookie: str | None = None,
    accept_language: str | None = None,
) -> str:
    """The locale for a request: one of :data:`LOCALES` (see the module's order)."""
    for choice in (query, user_language, cookie):
        found = supported(choice)
        if found:
            return found
    preferred = [tag.replace("-", "_") for tag in parse_accept_language(accept_language)]
    # Babel matches "cs_CZ" to "cs" itself (and aliases); the loop catches the rest ("uk-UA" -> "uk")
    found = negotiate_locale(preferred, list(LOCALES), sep="_")
    if found is None:
        found = next((s for s in map(supported, preferred) if s), None)
    return supported(found) or DEFAULT_LOCALE


@cache
def language_names() -> dict[str, str]:
    """Each locale's name in its own language, as CLDR writes it, capitalised for the picker:
    ``{"en": "English", "cs": "Čeština", "sk": "Slovenčina", "uk": "Українська", "ru": "Русский",
    "hu": "Magyar"}``."""
    out = {}
    for code in LOCALES:
        name = Locale.parse(code).get_display_name(code) or code
        out[code] = name[:1].upper() + name[1:]
    return out
