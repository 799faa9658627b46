"""The websocket gateway ``/ws/matches/{id}``: one connection per viewer of a match.

Thin, like lila-ws: it authenticates, parses frames (:mod:`app.gateway.messages`), asks the match
service, and sends each viewer a fresh ``snapshot`` built for that viewer after every change it
hears of from the hub. It never decides a rule. Every frame it sends is built by
:mod:`app.gateway.frames` (``snapshot``, ``error``, ``pong``); errors are the service's
:class:`app.errors.DomainError`, turned into ``error`` frames there.

A bad frame gets an ``error`` and the connection stays open; nothing in the match changes.
Besides the codes of DESIGN.md section 4, ``not_started`` (the match waits for players) can appear.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.errors import DomainError, ErrorCode
from app.gateway.frames import ServerFrame, encode, error_frame, pong_frame, snapshot_frame
from app.gateway.messages import MAX_INT, Act, Back, BadFrame, Hello, Ping, Resign, parse_frame
from app.logging import get_logger
from app.ratelimit import RateLimiter
from app.users.deps import user_from_connection

router = APIRouter()
log = get_logger(__name__)

POLICY_VIOLATION = 1008


class Connection:
    """One viewer's socket: sends snapshots as the match changes and handles the viewer's frames.

    :param seat: the seat the user holds, or ``None`` for a spectator.
    """

    def __init__(self, ws: WebSocket, match_id: int, user_id: int | None, seat: int | None) -> None:
        self.ws, self.match_id, self.user_id, self.seat = ws, match_id, user_id, seat
        self.service = ws.app.state.matches
        settings = ws.app.state.settings
        self.max_bytes = settings.ws_max_frame_bytes
        self.limiter: RateLimiter = _limiter(ws.app, settings.ws_rate_limit)
        self.sent_version: int | None = None  # None until the client said hello
        #: frames are rate-limited per connection (a flood in one tab does not silence another)
        self.limit_key = f"ws:{secrets.token_hex(8)}"
        self.changes: asyncio.Queue[int] = asyncio.Queue()
        self.send_lock = asyncio.Lock()
        #: held while a snapshot is computed and sent, and around an act and its ack snapshot, so
        #: the pump never sends a version this connection is about to get (or already got)
        self.snapshot_lock = asyncio.Lock()

    async def send(self, frame: ServerFrame) -> None:
        """Send one frame (one sender at a time)."""
        async with self.send_lock:
            await self.ws.send_text(encode(frame))

    async def error(self, error: DomainError, ack: str | None = None) -> None:
        """Send the ``error`` frame for ``error``, answering the frame whose ``ack`` was ``ack``."""
        await self.send(error_frame(error, ack))

    async def send_snapshot(self, since: int, ack: str | None = None) -> None:
        """Send the snapshot with every event after ``since`` that this viewer may see."""
        if self.seat is None and self.user_id is not None:  # joined since connecting?
            self.seat, _ = await self.service.viewer_seat(self.match_id, self.user_id)
        frame = snapshot_frame(await self.service.snapshot(self.match_id, self.seat, since), ack)
        self.sent_version = frame["version"]
        await self.send(frame)

    async def pump(self) -> None:
        """Forward hub notices as snapshots (only what this connection has not seen)."""
        while True:
            version = await self.changes.get()
            while not self.changes.empty():  # coalesce a burst into one snapshot
                version = max(version, self.changes.get_nowait())
            async with self.snapshot_lock:
                if self.sent_version is not None and version > self.sent_version:
                    await self.send_snapshot(self.sent_version)

    async def handle(self, text: str | None) -> None:
        """Handle one frame from the client."""
        try:
            msg = parse_frame(text, self.max_bytes)
        except BadFrame as exc:
            await self.error(exc, exc.ack)
            return
        ack = msg.ack if isinstance(msg, Act) else None
        if not await self.limiter.ahit(self.limit_key):
            wait = await self.limiter.aretry_after(self.limit_key)
            await self.error(
                DomainError(ErrorCode.RATE_LIMITED, "too many messages; slow down", params={"retry_after": wait}), ack
            )
            return
        if isinstance(msg, Ping):
            await self.send(pong_frame())
        elif isinstance(msg, Hello):
            async with self.snapshot_lock:
                await self.send_snapshot(msg.since)
        elif isinstance(msg, Act | Back | Resign):
            if self.user_id is None:
                await self.error(DomainError(ErrorCode.UNAUTHORIZED, "log in to play"), ack)
                return
            if self.seat is None:
                await self.error(DomainError(ErrorCode.NOT_YOUR_TURN, "spectators cannot act"), ack)
                return
            async with self.snapshot_lock:
                try:
                    if isinstance(msg, Act):
                        await self.service.act(self.match_id, self.user_id, msg.action, msg.version)
                    elif isinstance(msg, Resign):
                        await self.service.resign(self.match_id, self.user_id)
                    else:
                        await self.service.set_back(self.match_id, self.user_id)
                except DomainError as exc:
                    await self.error(exc, ack)
                    if exc.code == ErrorCode.STALE_VERSION:
                        await self.send_snapshot(self.sent_version or 0)
                    return
                await self.send_snapshot(self.sent_version or 0, ack=ack)


def _limiter(app: Any, rate: str) -> RateLimiter:
    limiter = getattr(app.state, "ws_limiter", None)
    if limiter is None:
        limiter = app.state.ws_limiter = RateLimiter(rate, app.state.settings.redis_url)
    return limiter


@router.websocket("/ws/matches/{match_id}")
async def match_socket(ws: WebSocket, match_id: int) -> None:
    """Serve one viewer of match ``match_id`` (session cookie or ``Authorization: Bearer``)."""
    await ws.accept()
    async with ws.app.state.sessionmaker() as session:
        user = await user_from_connection(ws, session)
    user_id = user.id if user is not None else None
    try:
        if not 1 <= match_id <= MAX_INT:
            raise DomainError(ErrorCode.NOT_FOUND, f"no match {match_id}", params={"match_id": match_id})
        seat, spectators = await ws.app.state.matches.viewer_seat(match_id, user_id)
        if seat is None and not spectators:
            raise DomainError(ErrorCode.UNAUTHORIZED, "this match has no spectators")
    except DomainError as exc:
        await ws.send_text(encode(error_frame(exc)))
        await ws.close(POLICY_VIOLATION)
        return
    conn = Connection(ws, match_id, user_id, seat)
    unsubscribe = ws.app.state.hub.subscribe(match_id, lambda _m, v: conn.changes.put_nowait(v))
    pump = asyncio.create_task(conn.pump())
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await conn.handle(message.get("text"))
    except WebSocketDisconnect:
        pass
    finally:
        unsubscribe()
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump
