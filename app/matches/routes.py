"""HTTP routes for matches (thin: the service decides).

Errors are :class:`app.errors.DomainError`, sent as ``{"error": {"code", "message", "params"}}``
with the status :data:`app.api.errors.HTTP_STATUS` gives the code.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from app.api.openapi import errors
from app.errors import DomainError, ErrorCode
from app.matches.schemas import ActBody, CreateMatch, GameQuery, JoinBody, MatchId, VersionQuery
from app.matches.service import BotSeat, MatchService
from app.users.deps import CurrentUser, OptionalUser

router = APIRouter(prefix="/api/matches", tags=["matches"])

#: what an ``act`` (HTTP or websocket) may be refused with, besides ``not_found`` and ``forbidden``
ACT_CODES = (
    "bad_message",
    "illegal_action",
    "not_your_turn",
    "stale_version",
    "game_over",
    "not_started",
    "too_late",
)


def _service(request: Request) -> MatchService:
    service: MatchService = request.app.state.matches
    return service


@router.post(
    "",
    status_code=201,
    openapi_extra=errors("bad_options", "too_many_matches", "stale_version", unstated=["bad_options"]),
)
async def create_match(body: CreateMatch, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Create a match; you take a seat, computer seats are filled at once; it starts when full."""
    return await _service(request).create_match(
        user.id,
        body.game,
        body.options,
        players=body.players,
        bots=[BotSeat(c.seat, c.level) for c in body.computer],
        seat=body.seat,
    )


@router.get("", openapi_extra=errors())
async def list_matches(
    request: Request,
    user: OptionalUser,
    status: Annotated[str | None, Query(pattern="^(waiting|active|finished|aborted)$")] = "waiting",
    game: GameQuery = None,
    mine: bool = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Matches by status (default: open for joining), newest first; ``mine`` keeps your own."""
    user_id = user.id if (mine and user) else (-1 if mine else None)
    return {"matches": await _service(request).list_matches(status, game, user_id, limit)}


@router.get("/{match_id}", openapi_extra=errors("not_found"))
async def get_match(match_id: MatchId, request: Request) -> dict[str, Any]:
    """Public info of a match (seats, status, clock, result; the seed once over)."""
    return await _service(request).get_match(match_id)


@router.post(
    "/{match_id}/join",
    openapi_extra=errors(
        "not_found", "already_joined", "not_waiting", "match_full", "rated_needs_consent", "stale_version"
    ),
)
async def join_match(
    match_id: MatchId, request: Request, user: CurrentUser, body: JoinBody | None = None
) -> dict[str, Any]:
    """Take the first free seat; the match starts when every seat is held. A rated match that
    would seat a bot account against a person needs the joiner's ``{"accept_rated": true}``
    (else 409 ``rated_needs_consent``): the creator agreed by asking for a rated match."""
    accept = body.accept_rated if body is not None else False
    return await _service(request).join(match_id, user.id, is_bot=user.is_bot, accept_rated=accept)


@router.post("/{match_id}/cancel", openapi_extra=errors("not_found", "forbidden", "not_waiting", "stale_version"))
async def cancel_match(match_id: MatchId, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Cancel a waiting match you created."""
    return await _service(request).cancel(match_id, user.id)


@router.get("/{match_id}/snapshot", openapi_extra=errors("not_found", "forbidden"))
async def get_snapshot(
    match_id: MatchId, request: Request, user: OptionalUser, since: VersionQuery = 0
) -> dict[str, Any]:
    """The snapshot your seat (or a spectator) gets over the websocket."""
    service = _service(request)
    seat, spectators = await service.viewer_seat(match_id, user.id if user else None)
    _check_can_view(seat, spectators)
    return await service.snapshot(match_id, seat, since)


@router.get("/{match_id}/events", openapi_extra=errors("not_found", "forbidden"))
async def get_events(
    match_id: MatchId, request: Request, user: OptionalUser, since: VersionQuery = 0
) -> dict[str, Any]:
    """Events after ``since`` as you may see them (hidden choices redacted until the end)."""
    service = _service(request)
    seat, spectators = await service.viewer_seat(match_id, user.id if user else None)
    _check_can_view(seat, spectators)
    return {"events": await service.events(match_id, seat, since)}


@router.post("/{match_id}/act", openapi_extra=errors("not_found", "forbidden", *ACT_CODES, unstated=["bad_message"]))
async def act(match_id: MatchId, body: ActBody, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Apply an action for your seat (the HTTP twin of the websocket ``act``)."""
    return {"version": await _service(request).act(match_id, user.id, body.action, body.version)}


@router.post(
    "/{match_id}/resign", openapi_extra=errors("not_found", "forbidden", "game_over", "not_started", "stale_version")
)
async def resign(match_id: MatchId, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Give up: your seat loses."""
    return {"version": await _service(request).resign(match_id, user.id)}


@router.post(
    "/{match_id}/back", openapi_extra=errors("not_found", "forbidden", "game_over", "not_started", "stale_version")
)
async def back(match_id: MatchId, request: Request, user: CurrentUser) -> dict[str, Any]:
    """ "I'm back": the computer stops playing your seat."""
    return {"version": await _service(request).set_back(match_id, user.id)}


@router.get("/{match_id}/replay", openapi_extra=errors("not_found", "not_started", "forbidden"))
async def replay(match_id: MatchId, request: Request, user: OptionalUser) -> dict[str, Any]:
    """Every step of a match: a finished one with everything revealed; a running one as your
    seat (or a spectator) saw it live, hidden choices and pieces still hidden."""
    return await _service(request).replay(match_id, user.id if user else None)


def _check_can_view(seat: int | None, spectators: bool) -> None:
    """:raises DomainError: ``forbidden`` for a spectator of a match without spectators."""
    if seat is None and not spectators:
        raise DomainError(ErrorCode.FORBIDDEN, "this match has no spectators")
