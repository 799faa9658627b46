"""Challenge pages (issue 13, item 3), server-rendered from :mod:`app.clans.challenges.reads` (the
same data as their JSON twins under ``/api/challenges`` and ``/api/clans/{tag}/challenges``); the
buttons and the forms call that API from ``static/js/challenges.js`` and show its errors in the
words of ``static/js/messages.js``.

=========================  ================================================================
``/challenges/{id}``       a challenge: both clans, game and options, deadline, score; each board
                           with its players, its match (a link to watch or play it) and its result;
                           accept, decline, withdraw, sign up and name-a-player for the right people
``/clans/{tag}`` section   the clan's current and past challenges, its ladder points this month
                           and, for a leader or officer of another clan, the form to challenge it
                           (:func:`clan_context`, rendered by ``templates/_clan_challenges.html``)
=========================  ================================================================

Statuses, sides, results and forfeits are codes; ``templates/_challenge.html`` says them in words.
The games' option labels, choices and tags (``app/web/games/<game>.py``, marked there) are shown in
the page's language (:func:`app.web.games.translated_options`, :func:`app.web.games.option_text`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.challenges import reads
from app.clans.challenges.models import MAX_BOARDS
from app.clans.challenges.schemas import MAX_DEADLINE_HOURS
from app.errors import DomainError
from app.games.core import all_games
from app.i18n.jinja import N_
from app.matches.schemas import MAX_INT
from app.users.deps import OptionalUser, SessionDep
from app.web.games import game_title, option_text, translated_options, web_parts
from app.web.pages import not_found, render_page, request_language, templates

router = APIRouter(include_in_schema=False)

templates.env.filters["game_title"] = game_title

#: the turn times and deadlines the challenge form offers (seconds; days)
TURN_CHOICES = (30, 60, 120, 300, 900, 3600, 86400)
DEADLINE_DAYS = tuple(d for d in (1, 2, 3, 7, 14, 30) if d * 24 <= MAX_DEADLINE_HOURS)


def challenge_games(gettext: Callable[[str], str] = str) -> list[dict[str, Any]]:
    """The games the challenge form offers, each with its selectable options as the lobby labels
    them (in the language of ``gettext``): ``[{"id", "title", "turn_seconds", "options": [{"key",
    "label", "choices": [[value, text]], "default"}]}]``."""
    out = []
    for rules in all_games().values():
        if not rules.min_players <= 2 <= rules.max_players:
            continue
        defaults = getattr(rules, "default_options", {})
        offered = translated_options(web_parts(rules.name), gettext)["lobby_options"]
        options = [
            {"key": key, "label": spec.get("label", key), "choices": spec["choices"], "default": defaults.get(key)}
            for key, spec in offered.items()
            if spec.get("type") == "select" and key in defaults
        ]
        out.append(
            {
                "id": rules.name,
                "title": game_title(rules.name),
                "turn_seconds": getattr(rules, "default_turn_seconds", 60),
                "options": options,
            }
        )
    return out


def option_texts(game: str, options: dict[str, Any], gettext: Callable[[str], str] = str) -> list[str]:
    """The game's own options of a challenge as a listed match shows them (the game's web parts'
    ``option_tags``, in the language of ``gettext``): those that differ from the game's defaults,
    or that are always shown."""
    rules = all_games().get(game)
    defaults = getattr(rules, "default_options", {}) if rules is not None else {}
    tags = web_parts(game).option_tags if rules is not None else {}
    out = []
    for key, value in options.items():
        if key not in defaults:
            continue
        spec = tags.get(key)
        always = isinstance(spec, dict) and spec.get("always")
        if not always and defaults[key] == value:
            continue
        out.append(option_text(game, key, value, gettext))
    return out


async def clan_context(request: Request, session: AsyncSession, clan_id: int, user: Any) -> dict[str, Any]:
    """What ``templates/_clan_challenges.html`` needs on a clan page: ``challenges`` (the section's
    data) and, when the viewer may challenge the clan, the form's ``challenge_games``,
    ``turn_choices``, ``deadline_days`` and ``max_boards``."""
    now = request.app.state.matches.clock.now()
    section = await reads.clan_section(session, clan_id, user.id if user else None, now)
    context: dict[str, Any] = {"challenges": section}
    if section["challenge_from"]:
        context.update(
            challenge_games=challenge_games(request_language(request, user).gettext),
            turn_choices=TURN_CHOICES,
            deadline_days=DEADLINE_DAYS,
            max_boards=MAX_BOARDS,
        )
    return context


@router.get("/challenges/{challenge_id}", response_class=HTMLResponse)
async def challenge_page(request: Request, session: SessionDep, user: OptionalUser, challenge_id: int) -> HTMLResponse:
    """One challenge's page."""
    try:
        if not 1 <= challenge_id <= MAX_INT:
            raise DomainError("not_found", "no such challenge")
        data = await reads.challenge_page(
            session, challenge_id, user.id if user else None, request.app.state.matches.clock.now()
        )
    except DomainError:
        return not_found(request, user, N_("There is no challenge %(id)s."), id=challenge_id)
    ch = data["challenge"]
    lang = request_language(request, user)
    title = lang.gettext(N_("[%(challenger)s] v [%(challenged)s]: %(game)s")) % {
        "challenger": ch["challenger"]["tag"],
        "challenged": ch["challenged"]["tag"],
        "game": game_title(ch["game"]),
    }
    return render_page(
        request,
        "challenge.html",
        user,
        title=title,
        page=data,
        option_texts=option_texts(ch["game"], ch["options"], lang.gettext),
    )
