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

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse

from app.errors import DomainError
from app.i18n.jinja import N_
from app.matches.schemas import MAX_INT
from app.tournaments import reads
from app.tournaments.schemas import GAMES
from app.users.deps import OptionalUser, SessionDep
from app.web.games import game_title
from app.web.pages import not_found, render_page, templates

router = APIRouter(include_in_schema=False)

templates.env.filters["game_title"] = game_title


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request, session: SessionDep, user: OptionalUser) -> HTMLResponse:
    """The tournament list, and the form to create one for those who may."""
    listing = await reads.list_tournaments(session)
    may_create = await reads.may_create(session, user.id if user else None)
    games = [{"id": g, "title": game_title(g)} for g in GAMES]
    return render_page(
        request, "tournaments.html", user, title="Tournaments", listing=listing, may_create=may_create, games=games
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
    return render_page(request, "tournament.html", user, title=page["name"], t=page)
