"""Tournament pages (issue 14, item 3), server-rendered from :mod:`app.tournaments.reads` (the same
data as ``/api/tournaments``); the buttons and the form call that API from
``static/js/tournaments.js`` and show refusals in the words of ``static/js/messages.js``.

==========================  ===============================================================
``/tournaments``            upcoming, running and finished tournaments; the form to create
                            one (Masters and administrators)
``/tournaments/{id}``       one tournament: players, every round's pairings with links to
                            the matches, the standings with tie-breaks (a knockout: places
                            by the bracket); it reloads itself while the tournament runs
==========================  ===============================================================

Formats, statuses and results are codes the template words (``templates/_tournament.html``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from babel.dates import format_datetime
from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse
from jinja2 import pass_context
from jinja2.runtime import Context

from app.errors import DomainError
from app.i18n.jinja import ENGLISH, N_, Language
from app.matches.schemas import MAX_INT
from app.tournaments import reads
from app.tournaments.schemas import GAMES
from app.users.deps import OptionalUser, SessionDep
from app.web.challenges import option_texts
from app.web.games import game_title
from app.web.pages import not_found, render_page, request_language, templates
from app.web.ratings import part_name

router = APIRouter(include_in_schema=False)

templates.env.filters["game_title"] = game_title


def utc_time(iso: str | None, language: Language = ENGLISH) -> str:
    """An ISO 8601 time in ``language``'s short date and time, in UTC: ``12/1/26, 2:30 PM UTC``,
    ``01.12.26 14:30 UTC``; empty for none."""
    if not iso:
        return ""
    when = datetime.fromisoformat(iso)
    return f"{format_datetime(when, format='short', tzinfo=UTC, locale=language.code)} UTC"


@pass_context
def _utc_time_filter(context: Context, iso: str | None) -> str:
    lang = context.get("i18n")
    return utc_time(iso, lang if isinstance(lang, Language) else ENGLISH)


templates.env.filters["utc_time"] = _utc_time_filter


def option_words(game: str, options: dict[str, Any], language: Language) -> list[str]:
    """A tournament's game options as its page lists them, in ``language``: the variant or level
    its pool is named by (:func:`app.web.ratings.part_name`), then the other options that
    differ from the game's defaults as a listed match shows them (the game's ``option_tags``)."""
    part: dict[str, Any] = {k: options[k] for k in ("variant", "level") if k in options}
    named = part_name(part, language)
    rest = {k: v for k, v in options.items() if k not in part}
    return ([named] if named else []) + [language.gettext(text) for text in option_texts(game, rest)]


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request, session: SessionDep, user: OptionalUser) -> HTMLResponse:
    """The tournament list, and the form to create one for those who may."""
    listing = await reads.list_tournaments(session)
    may_create = await reads.may_create(session, user.id if user else None)
    games = [{"id": g, "title": game_title(g)} for g in GAMES]
    return render_page(
        request, "tournaments.html", user, title=N_("Tournaments"), listing=listing, may_create=may_create, games=games
    )


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(
    request: Request, session: SessionDep, user: OptionalUser, tournament_id: Annotated[int, Path(ge=1, le=MAX_INT)]
) -> HTMLResponse:
    """One tournament's page."""
    try:
        page = await reads.tournament_page(
            session, tournament_id, user.id if user else None, request.app.state.tournaments.clock.now()
        )
    except DomainError:
        return not_found(request, user, N_("There is no such tournament."))
    words = option_words(page["game"], page["options"], request_language(request, user))
    return render_page(request, "tournament.html", user, title=page["name"], t=page, option_words=words)
