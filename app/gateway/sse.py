"""``GET /api/matches/{id}/stream``: the websocket's snapshots as server-sent events, for clients
that cannot hold a websocket (a bot behind a proxy that buffers upgrades, a shell script with
``curl -N``). Read only: such a client acts over HTTP (``POST /api/matches/{id}/act``).

The stream is the websocket's fan-out without its frames (:mod:`app.gateway.ws`): the viewer is
the same (bearer token or session cookie; a spectator where the match allows spectators), each
event is the same ``snapshot`` frame made for that viewer's seat
(:meth:`~app.matches.reads.MatchReads.snapshot_text`), and the same budgets hold (the stream counts
as one of the viewer's sockets, :mod:`app.gateway.budget`)::

    event: snapshot
    id: <version>
    data: {"type": "snapshot", "version": ..., "seat": ..., "legal": [...], ...}

The first event carries the events after ``since`` (or after ``Last-Event-ID``, which browsers'
``EventSource`` sends when it reconnects); each later one the events after the previous one.
A comment line (``: keep-alive``) every :data:`KEEPALIVE_SECONDS` keeps proxies from closing an
idle stream. The stream ends after the snapshot of a finished (or aborted) match, and when the
credential it was opened with is revoked or logged out (``event: error`` with the ``unauthorized``
error frame first).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Annotated

from fastapi import APIRouter, Header, Request
from fastapi.responses import StreamingResponse

from app.api.openapi import errors
from app.errors import DomainError, ErrorCode
from app.gateway.frames import encode, error_frame
from app.gateway.ws import socket_budget
from app.matches.schemas import MatchId, VersionQuery
from app.users.deps import OptionalUser, client_address, connection_token
from app.users.security import token_digest

router = APIRouter(prefix="/api/matches", tags=["matches"])

#: seconds between keep-alive comments on an idle stream
KEEPALIVE_SECONDS = 15.0
#: statuses after which nothing changes any more
OVER = ("finished", "aborted")
#: a queued value that means "the credential ended"
_ENDED = -1


def sse_event(kind: str, data: str, event_id: int | None = None) -> str:
    """One server-sent event: ``event``, optional ``id`` and one ``data`` line (``data`` is JSON
    text, which holds no newline)."""
    head = f"event: {kind}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    return f"{head}data: {data}\n\n"


@router.get(
    "/{match_id}/stream",
    openapi_extra=errors("not_found", "forbidden", "too_many_connections"),
    response_class=StreamingResponse,
    responses={200: {"description": "server-sent events: `snapshot` frames", "content": {"text/event-stream": {}}}},
)
async def stream(
    match_id: MatchId,
    request: Request,
    user: OptionalUser,
    since: VersionQuery = 0,
    last_event_id: Annotated[str, Header(max_length=12, pattern=r"^[0-9]*$")] = "",
) -> StreamingResponse:
    """The snapshots of match ``match_id`` for your seat (or a spectator's), as server-sent
    events (``event: snapshot``, ``id``: the version, ``data``: the websocket's snapshot frame),
    until the match is over. ``since`` (or ``Last-Event-ID``): the last version you have.
    Errors before the stream starts: 404 ``not_found``, 403 ``forbidden`` (no spectators), 429
    ``too_many_connections``."""
    app = request.app
    service = app.state.matches
    seat, spectators = await service.viewer_seat(match_id, user.id if user else None)
    if seat is None and not spectators:
        raise DomainError(ErrorCode.FORBIDDEN, "this match has no spectators")
    if last_event_id:
        since = max(since, min(int(last_event_id), 2**31 - 1))
    release = socket_budget(app).admit(user.id if user else None, client_address(request), match_id)
    changes: asyncio.Queue[int] = asyncio.Queue()
    unsubscribe = app.state.hub.subscribe(match_id, lambda _m, v: changes.put_nowait(v))
    token = connection_token(request)
    revocations = getattr(app.state, "revocations", None)
    unsubscribe_credential: Callable[[], None] | None = None
    if user is not None and token is not None and revocations is not None:
        unsubscribe_credential = revocations.subscribe(token_digest(token), lambda _d: changes.put_nowait(_ENDED))

    roster = app.state.roster

    async def events() -> AsyncIterator[str]:
        if seat is not None:  # a player's stream counts as their seat's connection (app/matches/table_roster.py)
            roster.join(match_id, seat)
        try:
            sent = since
            first = True
            while True:
                try:
                    version, text = await service.snapshot_text(match_id, seat, sent)
                except DomainError as exc:  # busy: the next change (or keep-alive) tries again
                    yield sse_event("error", encode(error_frame(exc)))
                else:
                    if version > sent or first:
                        yield sse_event("snapshot", text, version)
                        sent, first = version, False
                    if json.loads(text)["status"] in OVER:
                        return
                newest = await _next_change(changes)
                while newest is None:  # idle: a comment, then wait again
                    yield ": keep-alive\n\n"
                    newest = await _next_change(changes)
                if newest == _ENDED:
                    ended = DomainError(
                        ErrorCode.UNAUTHORIZED, "the credential was revoked", params={"reason": "revoked"}
                    )
                    yield sse_event("error", encode(error_frame(ended)))
                    return
        finally:
            if seat is not None:
                roster.leave(match_id, seat)
            unsubscribe()
            if unsubscribe_credential is not None:
                unsubscribe_credential()
            release()

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}  # nginx: pass each event on at once
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)


async def _next_change(changes: asyncio.Queue[int]) -> int | None:
    """The newest version noticed (a burst coalesced; :data:`_ENDED` wins), or None after
    :data:`KEEPALIVE_SECONDS` without one."""
    try:
        newest = await asyncio.wait_for(changes.get(), KEEPALIVE_SECONDS)
    except TimeoutError:
        return None
    while not changes.empty():
        value = changes.get_nowait()
        newest = _ENDED if _ENDED in (newest, value) else max(newest, value)
    return newest
