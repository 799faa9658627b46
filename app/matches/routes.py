"""HTTP routes for matches (thin: the service decides).

Errors are :class:`app.errors.DomainError`, sent as ``{"error": {"code", "message", "params"}}``
with the status :data:`app.api.errors.HTTP_STATUS` gives the code.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from app.api.openapi import errors
from app.errors import DomainError, ErrorCode
from app.matches.rematch import Rematches
from app.matches.schemas import ActBody, CreateMatch, GameQuery, JoinBody, LiveQuery, MatchId, RematchBody, VersionQuery
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


def _rematches(request: Request) -> Rematches:
    rematches: Rematches = request.app.state.rematches
    return rematches


@router.post(
    "",
    status_code=201,
    openapi_extra=errors("bad_options", "too_many_matches", "stale_version", unstated=["bad_options"]),
)
async def create_match(body: CreateMatch, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Create a match; you take a seat, computer seats are filled at once; it starts when full.

    The clock: `turn_seconds` per turn (the default clock), or a time bank (`"clock": "bank"`,
    `bank_seconds` and `increment_seconds`). A time bank takes no `turn_seconds`, the per-turn
    clock no bank options, and a match with computer seats is timed (`bad_options` otherwise).
    `bad_options` says why in `params.reason`, with the values the words need (docs/errors.md)."""
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


@router.get("/live", openapi_extra=errors())
async def live_matches(request: Request, game: GameQuery = None, limit: LiveQuery = 20) -> dict[str, Any]:
    """Matches being played now that anybody may watch (option ``spectators``), newest first:
    ``{"matches": [{"id", "game", "origin", "num_players", "started_at", "seats": [{"seat",
    "user", "bot"}], "turn_seconds", "spectators": <sockets watching now>}]}``. Public info only
    (no state, no seed). The lobby's "Live now" list."""
    roster = request.app.state.roster
    matches = await _service(request).live_matches(game, limit)
    return {"matches": [{**m, "spectators": roster.spectators(m["id"])} for m in matches]}


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


@router.get("/{match_id}/rematch", openapi_extra=errors("not_found"))
async def get_rematch(match_id: MatchId, request: Request) -> dict[str, Any]:
    """The rematch offer of a finished match: ``{"match_id", "status": "none" | "open" |
    "accepted" | "declined", "offered_by", "agreed", "waiting_for", "declined_by" (seats),
    "rated", "rematch_id"}``."""
    return await _rematches(request).get(match_id)


@router.post(
    "/{match_id}/rematch",
    openapi_extra=errors("not_found", "forbidden", "not_finished", unstated=["forbidden", "not_finished"]),
)
async def offer_rematch(
    match_id: MatchId, request: Request, user: CurrentUser, body: RematchBody | None = None
) -> dict[str, Any]:
    """Offer the other players of this finished match a rematch (same game and options, seats
    rotated, computer seats kept); while another player's offer is open, this agrees to it; once
    the rematch has started, this answers with it (``rematch_id``). Only the match's players may
    (403 ``forbidden``), once it is over (409 ``not_finished``). Against the computer alone the
    rematch starts at once. ``rated`` (default: as the match was): the rematch is rated only if
    every player agrees to a rated one."""
    rated = body.rated if body is not None else None
    return await _rematches(request).offer(match_id, user.id, rated)


#: the errors of answering a rematch offer (each also a rule of the offer's state, not its schema)
REMATCH_ANSWER_ERRORS = errors(
    "not_found",
    "forbidden",
    "not_finished",
    "conflict",
    unstated=["not_found", "forbidden", "not_finished", "conflict"],
)


@router.post(
    "/{match_id}/rematch/accept",
    openapi_extra=REMATCH_ANSWER_ERRORS,
)
async def accept_rematch(match_id: MatchId, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Agree to the open rematch offer; when every player has, the rematch starts (``rematch_id``).
    404 ``not_found`` (``reason`` ``rematch_offer``) without an open offer; 409 ``conflict``
    (``own_offer``) when you agreed already; a second accept after the start answers with it."""
    return await _rematches(request).accept(match_id, user.id)


@router.post(
    "/{match_id}/rematch/decline",
    openapi_extra=REMATCH_ANSWER_ERRORS,
)
async def decline_rematch(match_id: MatchId, request: Request, user: CurrentUser) -> dict[str, Any]:
    """Decline the open rematch offer (the offerer withdraws it). 404 ``not_found`` (``reason``
    ``rematch_offer``) without an open offer; 409 ``conflict`` (``rematch_started``) once started."""
    return await _rematches(request).decline(match_id, user.id)


def _check_can_view(seat: int | None, spectators: bool) -> None:
    """:raises DomainError: ``forbidden`` for a spectator of a match without spectators."""
    if seat is None and not spectators:
        raise DomainError(ErrorCode.FORBIDDEN, "this match has no spectators")
