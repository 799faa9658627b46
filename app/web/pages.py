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
from markupsafe import Markup

from app.games.core.levels import difficulty_of_levels
from app.settings import ROOT

templates = Jinja2Templates(directory=str(ROOT / "templates"))


def duration(seconds: int | None) -> str:
    """``3600`` -> ``1 hour``, ``5400`` -> ``90 minutes``, ``45`` -> ``45 seconds`` (as
    static/js/match_client.js's ``formatDuration``); ``None`` or ``0`` -> ``a while``."""
    if not seconds:
        return "a while"
    for size, unit in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds % size == 0:
            n = seconds // size
            return f"{n} {unit}{'' if n == 1 else 's'}"
    return f"{seconds} seconds"


templates.env.filters["duration"] = duration


def level_names(levels: list[str]) -> Markup:
    """A game's computer levels as players read them, ``Easy, Medium, Hard``, each the HTML
    ``<span class="level-name" title="algorithm: random">Easy</span>``: the algorithm's name only
    in the tooltip (issue 16; see app/games/core/levels.py). A level of no difficulty keeps its
    own name."""
    difficulty = difficulty_of_levels()
    parts = [
        Markup('<span class="level-name" title="algorithm: {}">{}</span>').format(
            lv, difficulty[lv].capitalize() if lv in difficulty else lv
        )
        for lv in levels
    ]
    return Markup(", ").join(parts)


templates.env.filters["level_names"] = level_names
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


def render_page(request: Request, name: str, user: Any, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render template ``name`` with ``user`` (``{"id", "name"}`` or ``None``) and ``context``."""
    ctx = {"user": user_json(user), **context}
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def not_found(request: Request, user: Any, message: str) -> HTMLResponse:
    """The 404 page saying ``message``."""
    return render_page(request, "not_found.html", user, status_code=404, title="Not found", message=message)


def login_redirect(request: Request) -> RedirectResponse:
    """303 to ``/login?next=<this path and query>``."""
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/login?next={quote(target, safe='/')}", status_code=303)
