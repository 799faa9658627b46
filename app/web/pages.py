"""Rendering helpers shared by every page module: the Jinja2 environment, its filters, and the
responses a page route returns (a page, the 404 page, the redirect to the login form).

``app/web/routes.py`` and the per-game modules under ``app/web/games/`` both import this module;
it imports neither of them, so there is no import cycle.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from app.games.core.levels import difficulty_of_levels
from app.i18n import jinja as i18n_jinja
from app.i18n.catalogs import browser_word
from app.i18n.jinja import ENGLISH, N_, Language
from app.i18n.locales import COOKIE, negotiate
from app.settings import ROOT

templates = Jinja2Templates(directory=str(ROOT / "templates"))
i18n_jinja.install(templates.env)

#: "duration" (seconds in words, in the page's language) is app/i18n/jinja.py's filter
duration = i18n_jinja.duration

#: the computer's difficulties as players read them (app/games/core/levels.py's DIFFICULTIES)
DIFFICULTY_NAMES = {"easy": N_("Easy"), "medium": N_("Medium"), "hard": N_("Hard")}


def level_title(level: str, language: Language = ENGLISH) -> str:
    """The tooltip of a computer level: what its algorithm does, in plain words, with the
    algorithm's name ("picks any allowed move at random (algorithm: random)"). The words are the
    browser's ``level.algo.<name>`` and ``level.algorithm`` (``static/i18n/<locale>.json``), which
    the lobby's tooltips read too (``levelTitle`` of static/js/api.js); a level with no
    description (a test's toy game) is named alone."""
    description = browser_word(language.code, f"level.algo.{level}")
    if not description:
        return level
    return browser_word(language.code, "level.algorithm", description=description, name=level)


def level_names(levels: list[str], language: Language = ENGLISH) -> Markup:
    """A game's computer levels as players read them, ``Easy, Medium, Hard`` (in ``language``),
    each the HTML ``<span class="level-name" title="picks any allowed move at random (algorithm:
    random)">Easy</span>``: the algorithm only in the tooltip (issue 16; see
    app/games/core/levels.py and :func:`level_title`). A level of no difficulty keeps its own
    name."""
    difficulty = difficulty_of_levels()
    parts = [
        Markup('<span class="level-name" title="{}">{}</span>').format(
            level_title(lv, language),
            language.gettext(DIFFICULTY_NAMES[difficulty[lv]]) if difficulty.get(lv) in DIFFICULTY_NAMES else lv,
        )
        for lv in levels
    ]
    return Markup(", ").join(parts)


@pass_context
def _level_names_filter(context: Context, levels: list[str]) -> Markup:
    lang = context.get("i18n")
    return level_names(levels, lang if isinstance(lang, Language) else ENGLISH)


templates.env.filters["level_names"] = _level_names_filter
#: the computer levels' difficulties, embedded in every page (templates/base.html)
templates.env.globals["computer_levels"] = difficulty_of_levels


def user_json(user: Any) -> dict[str, Any] | None:
    """``{"id", "name", "is_bot", "rank", "is_admin"}`` of a logged-in user, or ``None`` for a
    visitor."""
    if user is None:
        return None
    return {
        "id": user.id,
        "name": user.name,
        "is_bot": bool(user.is_bot),
        "rank": getattr(user, "rank", None),
        "is_admin": bool(getattr(user, "is_admin", False)),
    }


def request_language(request: Request, user: Any) -> Language:
    """The language of this request's page (app/i18n/locales.py: ``?lang=``, the user's stored
    choice, the ``arena_lang`` cookie, ``Accept-Language``, English)."""
    code = negotiate(
        query=request.query_params.get("lang"),
        user_language=getattr(user, "language", None),
        cookie=request.cookies.get(COOKIE),
        accept_language=request.headers.get("accept-language"),
    )
    return Language.of(code)


def render_page(request: Request, name: str, user: Any, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render template ``name`` with ``user`` (``{"id", "name"}`` or ``None``) and ``context``, in
    the request's language (``i18n``, a :class:`~app.i18n.jinja.Language`: the templates' ``_()``,
    ``<html lang>``, the browser catalog inlined for static/js/messages.js).

    ``title`` (the page's ``<title>``) is translated here when it is a marked msgid (``N_()``) and
    shown as it is otherwise (a clan's or tournament's name, a title already translated): never
    formatted, so a "%" in a name stays itself."""
    language = request_language(request, user)
    if context.get("title"):
        context["title"] = language.gettext(context["title"])
    ctx = {"user": user_json(user), "i18n": language, **context}
    response = templates.TemplateResponse(request, name, ctx, status_code=status_code)
    response.headers["Content-Language"] = ctx["i18n"].code
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def not_found(request: Request, user: Any, message: str, **params: Any) -> HTMLResponse:
    """The 404 page saying ``message`` (an English msgid marked ``N_()``, with ``%(name)s``
    placeholders filled from ``params``) in the request's language."""
    text = request_language(request, user).gettext(message)
    text = text % params if params else text
    return render_page(request, "not_found.html", user, status_code=404, title=N_("Not found"), message=text)


def login_redirect(request: Request) -> RedirectResponse:
    """303 to ``/login?next=<this path and query>``."""
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='/')}", status_code=303)
