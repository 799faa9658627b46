"""The site in the players' own languages (issue 15): English, Czech, Slovak, Ukrainian, Russian
and Hungarian.

- :mod:`app.i18n.locales`: the six locales, their names, and which one a request gets
  (``?lang=``, the user's stored choice, the ``arena_lang`` cookie, ``Accept-Language``).
- :mod:`app.i18n.catalogs`: the gettext catalogs (``translations/<locale>/LC_MESSAGES/messages.po``,
  compiled in memory with Babel when first used: no build step, no ``.mo`` files in the repository)
  and the browser's JSON catalogs (``static/i18n/<locale>.json``; English is ``WORDS`` in
  ``static/js/messages.js``).
- :mod:`app.i18n.jinja`: the Jinja2 ``i18n`` extension wired to a request's catalog, and filters that
  format numbers, dates and durations for the language (CLDR through Babel).

How to add a string or a language: ``docs/i18n.md``.
"""

from app.i18n.locales import COOKIE, DEFAULT_LOCALE, LOCALES, language_names, negotiate

__all__ = ["COOKIE", "DEFAULT_LOCALE", "LOCALES", "language_names", "negotiate"]
