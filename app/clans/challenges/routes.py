"""Challenge routes (thin: :mod:`app.clans.challenges.service` decides,
:mod:`app.clans.challenges.reads` reads). Changes need a login (401 ``unauthorized``) and answer
with the challenge page's data (:func:`~app.clans.challenges.reads.challenge_page`) as the actor
now sees it; a change that completes a board starts its match before answering
(:func:`app.clans.challenges.matches.start_boards`).

=================================================  ===============================================
``GET /api/clans/{tag}/challenges``                the clan's current and past challenges and its
                                                   ladder points this month
``POST /api/clans/{tag}/challenges``               challenge another clan (:class:`ChallengeIn`), 201
``GET /api/challenges/{id}``                       the challenge: boards, players, matches, score
``POST /api/challenges/{id}/accept``               accept (the challenged clan's leader or officer)
``POST /api/challenges/{id}/decline``              decline (the same)
``POST /api/challenges/{id}/withdraw``             withdraw (the challenger's leader or officer)
``POST /api/challenges/{id}/boards/{board}/player``  name a side's player (``{"side", "name"}``)
``POST /api/challenges/{id}/boards/{board}/signup``  play the board for your clan
=================================================  ===============================================

Errors: as :mod:`app.clans.challenges.service` lists them; 422 ``validation_error`` for a
malformed body, path or query.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from app.api.openapi import errors
from app.clans.challenges import reads, service
from app.clans.challenges.matches import start_boards
from app.clans.challenges.models import MAX_BOARDS, Side
from app.clans.challenges.schemas import ChallengeIn, PlayerIn
from app.clans.routes import TagPath
from app.matches.schemas import MAX_INT
from app.matches.service import MatchService
from app.users.deps import CurrentUser, OptionalUser, SessionDep

clan_router = APIRouter(prefix="/api/clans", tags=["challenges"])
router = APIRouter(prefix="/api/challenges", tags=["challenges"])

ChallengeId = Annotated[int, Path(ge=1, le=MAX_INT)]
BoardNumber = Annotated[int, Path(ge=1, le=MAX_BOARDS)]


def _matches(request: Request) -> MatchService:
    service: MatchService = request.app.state.matches
    return service


async def _page(request: Request, session: SessionDep, challenge_id: int, user_id: int | None) -> dict[str, Any]:
    return await reads.challenge_page(session, challenge_id, user_id, _matches(request).clock.now())


async def _start(request: Request, challenge_id: int) -> None:
    await start_boards(request.app.state.sessionmaker, _matches(request), challenge_id=challenge_id)


@clan_router.get("/{tag}/challenges", openapi_extra=errors("not_found"))
async def clan_challenges(tag: TagPath, request: Request, session: SessionDep, user: OptionalUser) -> dict[str, Any]:
    """The clan's open and past challenges and its ladder points this month:
    ``{"clan", "month", "ladder_points", "current", "past", "challenge_from"}``."""
    return await reads.clan_challenges(session, tag, user.id if user else None, _matches(request).clock.now())


@clan_router.post(
    "/{tag}/challenges",
    status_code=201,
    openapi_extra=errors("not_found", "forbidden", "conflict", "bad_options", unstated=["bad_options"]),
)
async def propose(
    tag: TagPath, body: ChallengeIn, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Challenge the clan ``opponent`` (the clan ``tag``'s leader or an officer). The game and
    options are checked as a new match's, for two seats; a challenge's boards must be timed
    (``turn_seconds`` not 0): refused with 422 ``bad_options`` otherwise. 409 ``conflict``
    (``same_clan``, ``too_many_challenges`` between the two clans)."""
    matches = _matches(request)
    now = matches.clock.now()
    ch = await service.propose(
        session,
        user.id,
        tag,
        opponent=body.opponent,
        game=body.game,
        options=body.options,
        boards=body.boards,
        deadline=now + timedelta(hours=body.deadline_hours),
        checker=matches,
        open_limit=request.app.state.settings.challenge_open_limit,
        now=now,
    )
    return await _page(request, session, ch.id, user.id)


@router.get("/{challenge_id}", openapi_extra=errors("not_found"))
async def get_challenge(
    challenge_id: ChallengeId, request: Request, session: SessionDep, user: OptionalUser
) -> dict[str, Any]:
    """The challenge: both clans, the game and options, boards with players, matches and
    results, the score, and what you may do."""
    return await _page(request, session, challenge_id, user.id if user else None)


@router.post("/{challenge_id}/accept", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def accept(challenge_id: ChallengeId, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Accept the challenge (the challenged clan's leader or an officer)."""
    await service.answer(session, user.id, challenge_id, accept=True, now=_matches(request).clock.now())
    return await _page(request, session, challenge_id, user.id)


@router.post("/{challenge_id}/decline", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def decline(
    challenge_id: ChallengeId, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Decline the challenge (the challenged clan's leader or an officer)."""
    await service.answer(session, user.id, challenge_id, accept=False, now=_matches(request).clock.now())
    return await _page(request, session, challenge_id, user.id)


@router.post("/{challenge_id}/withdraw", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def withdraw(
    challenge_id: ChallengeId, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Withdraw the challenge before it is answered (the challenger's leader or an officer)."""
    await service.withdraw(session, user.id, challenge_id, now=_matches(request).clock.now())
    return await _page(request, session, challenge_id, user.id)


@router.post("/{challenge_id}/boards/{board}/player", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def name_player(
    challenge_id: ChallengeId,
    board: BoardNumber,
    body: PlayerIn,
    request: Request,
    session: SessionDep,
    user: CurrentUser,
) -> dict[str, Any]:
    """Name a player of your clan for your side on a board (its leader or an officer). When both
    players of the board are named, its match starts."""
    await service.name_player(
        session, user.id, challenge_id, board, side=Side(body.side), player=body.name, now=_matches(request).clock.now()
    )
    await _start(request, challenge_id)
    return await _page(request, session, challenge_id, user.id)


@router.post("/{challenge_id}/boards/{board}/signup", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def sign_up(
    challenge_id: ChallengeId, board: BoardNumber, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Play a board for your clan, whose seat on it is free. When both players of the board are
    named, its match starts."""
    await service.sign_up(session, user.id, challenge_id, board, now=_matches(request).clock.now())
    await _start(request, challenge_id)
    return await _page(request, session, challenge_id, user.id)
