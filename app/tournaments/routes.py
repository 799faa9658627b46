"""Tournament routes under ``/api/tournaments`` (thin: :mod:`app.tournaments.service` decides,
:mod:`app.tournaments.reads` reads). Changes need a login (401 ``unauthorized``) and answer with
the tournament page's data as the actor now sees it.

=============================================  ==============================================
``GET /api/tournaments``                       upcoming, running and finished tournaments
``POST /api/tournaments``                      create one (a Master or an administrator), 201
``GET /api/tournaments/{id}``                  players, rounds with pairings and match links,
                                               standings, what you may do
``POST /api/tournaments/{id}/register``        sign up (before the start)
``POST /api/tournaments/{id}/check-in``        confirm (from an hour before the start)
``POST /api/tournaments/{id}/withdraw``        leave (while running: forfeit the rest)
``POST /api/tournaments/{id}/start``           start now (the organiser or an administrator)
=============================================  ==============================================

Errors: as :mod:`app.tournaments.service` lists them; 422 ``validation_error`` for a malformed body
or path.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from app.api.openapi import errors
from app.matches.schemas import MAX_INT
from app.tournaments import reads
from app.tournaments.schemas import TournamentIn
from app.tournaments.service import NewTournament, TournamentService
from app.users.deps import CurrentUser, OptionalUser, SessionDep

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

IdPath = Annotated[int, Path(ge=1, le=MAX_INT)]


def _service(request: Request) -> TournamentService:
    service: TournamentService = request.app.state.tournaments
    return service


async def _page(request: Request, session: Any, tournament_id: int, viewer_id: int | None) -> dict[str, Any]:
    return await reads.tournament_page(session, tournament_id, viewer_id, _service(request).clock.now())


@router.get("", openapi_extra=errors())
async def list_tournaments(session: SessionDep) -> dict[str, Any]:
    """``{"upcoming": [...], "running": [...], "finished": [...]}`` (see :mod:`app.tournaments.reads`)."""
    return await reads.list_tournaments(session)


@router.post(
    "",
    status_code=201,
    openapi_extra=errors("forbidden", "bad_options", "conflict", unstated=("forbidden", "bad_options", "conflict")),
)
async def create_tournament(
    body: TournamentIn, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Create a tournament (a Master or higher, or an administrator: else 403 ``forbidden``).
    422 ``bad_options`` for options the game refuses, a start in the past, or rounds the field
    cannot play; 409 ``conflict`` ``not_in_clan`` for a clan-only tournament outside a clan."""
    tid = await _service(request).create(
        user.id,
        NewTournament(
            name=body.name,
            game=body.game,
            format=body.format,
            starts_at=body.starts_at,
            max_players=body.max_players,
            turn_seconds=body.turn_seconds,
            options=body.options,
            rounds=body.rounds,
            clan_only=body.clan_only,
            rated=body.rated,
        ),
    )
    return await _page(request, session, tid, user.id)


@router.get("/{tournament_id}", openapi_extra=errors("not_found"))
async def get_tournament(
    tournament_id: IdPath, request: Request, session: SessionDep, user: OptionalUser
) -> dict[str, Any]:
    """The tournament: players, rounds with pairings and match ids, standings, what you may do."""
    return await _page(request, session, tournament_id, user.id if user else None)


@router.post("/{tournament_id}/register", openapi_extra=errors("not_found", "conflict"))
async def register(tournament_id: IdPath, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Sign up. 409 ``conflict``: ``not_registering``, ``full``, ``already_registered``, ``not_in_clan``."""
    await _service(request).register(tournament_id, user.id)
    return await _page(request, session, tournament_id, user.id)


@router.post("/{tournament_id}/check-in", openapi_extra=errors("not_found", "conflict"))
async def check_in(tournament_id: IdPath, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Confirm you will play. 404 when not registered; 409 ``conflict``: ``not_registering``,
    ``checkin_not_open`` (``opens_at``)."""
    await _service(request).check_in(tournament_id, user.id)
    return await _page(request, session, tournament_id, user.id)


@router.post("/{tournament_id}/withdraw", openapi_extra=errors("not_found", "conflict"))
async def withdraw(tournament_id: IdPath, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Leave; while it runs you forfeit the rest. 404 when not registered; 409 ``conflict``:
    ``not_running``, ``already_withdrawn``."""
    await _service(request).withdraw(tournament_id, user.id)
    return await _page(request, session, tournament_id, user.id)


@router.post("/{tournament_id}/start", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def start(tournament_id: IdPath, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Start now with the players checked in (the organiser or an administrator). 409
    ``conflict`` ``not_registering`` once started."""
    await _service(request).start_now(tournament_id, user.id)
    return await _page(request, session, tournament_id, user.id)
