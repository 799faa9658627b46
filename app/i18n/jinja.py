"""The Jinja2 side: a request's language, the ``i18n`` extension and formatting filters.

A page is rendered with ``i18n`` (a :class:`Language`) in its context (``app/web/pages.py``'s
``render_page`` puts it there). The extension's ``_()``, ``gettext``, ``ngettext`` and
``{% trans %}`` read that context, so two requests rendered at once in two languages never share
state. Templates use the "new style" gettext of Jinja (autoescaping, ``%(name)s`` placeholders
filled from keyword arguments)::

    {{ _("Logged in as %(name)s", name=user.name) }}
    {% trans count=n %}{{ count }} player{% pluralize %}{{ count }} players{% endtrans %}

Filters (the language's CLDR data through Babel): ``number`` (``1234.5`` -> ``1 234,5`` in Czech),
``datetime`` / ``date`` (an aware or naive-UTC :class:`datetime.datetime`), ``duration`` (seconds ->
``2 hodiny``; ``short=True`` -> ``2 h``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal

from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal
from babel.support import NullTranslations
from babel.units import format_unit
from jinja2 import Environment, pass_context
from jinja2.runtime import Context

from app.i18n.catalogs import js_catalog, translations
from app.i18n.locales import DEFAULT_LOCALE, LOCALES, language_names


def N_(message: str) -> str:
    """Mark ``message`` for extraction (``make i18n``) without translating it here: the page that
    shows it translates it with ``_()`` in the request's language."""
    return message


@dataclass(frozen=True)
class Language:
    """One request's language: its ``code`` (one of :data:`~app.i18n.locales.LOCALES`) and catalogs."""

    code: str
    translations: NullTranslations = field(repr=False)

    @classmethod
    def of(cls, code: str) -> Language:
        """The :class:`Language` of ``code``; an unknown code gives English."""
        code = code if code in LOCALES else DEFAULT_LOCALE
        return cls(code, translations(code))

    def gettext(self, message: str) -> str:
        """``message`` (an English msgid) in this language, or itself when not translated."""
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for ``n`` under this language's CLDR plural rule."""
        return self.translations.ngettext(singular, plural, n)

    def js_catalog(self) -> dict[str, Any]:
        """The browser catalog (``static/i18n/<code>.json``) inlined in the page."""
        return js_catalog(self.code)


ENGLISH = Language.of(DEFAULT_LOCALE)


def _language(context: Context) -> Language:
    lang = context.get("i18n")
    return lang if isinstance(lang, Language) else ENGLISH


@pass_context
def _gettext(context: Context, message: str) -> str:
    return _language(context).gettext(message)


@pass_context
def _ngettext(context: Context, singular: str, plural: str, n: int) -> str:
    return _language(context).ngettext(singular, plural, n)


def duration(seconds: int | None, locale: str = DEFAULT_LOCALE, short: bool = False) -> str:
    """A whole number of seconds in the largest unit that divides it, in ``locale``: ``3600`` ->
    ``1 hour`` (``1 hodina``), ``5400`` -> ``90 minutes``, ``45`` -> ``45 seconds``; ``short``:
    ``1 h``, ``90 min``. ``None`` or ``0`` -> ``a while`` (translated). CLDR unit patterns with
    the language's plural forms, through :func:`babel.units.format_unit`."""
    if not seconds:
        return Language.of(locale).gettext(N_("a while"))
    length: Literal["short", "long"] = "short" if short else "long"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute"), (1, "second")):
        if seconds % size == 0:
            return str(format_unit(seconds // size, f"duration-{unit}", length=length, locale=locale))
    raise AssertionError("unreachable: every whole number of seconds divides by 1")


@pass_context
def _duration_filter(context: Context, seconds: int | None, short: bool = False) -> str:
    return duration(seconds, _language(context).code, short=short)


@pass_context
def _number_filter(context: Context, value: float | int, format: str | None = None) -> str:
    """A number with the language's separators (``1 234,5`` in Czech)."""
    return str(format_decimal(value, format=format, locale=_language(context).code))


@pass_context
def _datetime_filter(context: Context, value: datetime | None, format: str = "medium") -> str:
    """A date and time in the language's CLDR ``format`` (``short``, ``medium``, ``long``), in UTC."""
    if value is None:
        return ""
    return str(format_datetime(value, format=format, locale=_language(context).code))


@pass_context
def _date_filter(context: Context, value: date | datetime | None, format: str = "medium") -> str:
    """A date in the language's CLDR ``format``."""
    if value is None:
        return ""
    return str(format_date(value, format=format, locale=_language(context).code))


def install(env: Environment) -> None:
    """Add the ``i18n`` extension and the filters to ``env`` (once, at import of app/web/pages.py)."""
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(gettext=_gettext, ngettext=_ngettext, newstyle=True)  # type: ignore[attr-defined]
    env.filters["duration"] = _duration_filter
    env.filters["number"] = _number_filter
    env.filters["datetime"] = _datetime_filter
    env.filters["date"] = _date_filter
    env.globals["language_names"] = language_names
