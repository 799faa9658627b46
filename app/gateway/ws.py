"""The websocket gateway ``/ws/matches/{id}``: one connection per viewer of a match.

Thin, like lila-ws: it authenticates, parses frames (:mod:`app.gateway.messages`), asks the match
service, and sends each viewer the ``snapshot`` of that viewer after every change it hears of from
the hub (built once per viewer and version and shared by that viewer's connections:
:meth:`~app.matches.reads.MatchReads.snapshot_text`). It never decides a rule. Every frame it sends is built by
:mod:`app.gateway.frames` (``snapshot``, ``error``, ``pong``); errors are the service's
:class:`app.errors.DomainError`, turned into ``error`` frames there.

A bad frame gets an ``error`` and the connection stays open; nothing in the match changes.
Besides the codes of DESIGN.md section 4, ``not_started`` (the match waits for players) can appear.

The table (issue 16): every socket registers once in the match's roster
(:mod:`app.matches.table_roster`, across processes) for as long as it is open: a player's seat
counts as connected, a spectator's socket counts among the spectators. The extra frames a
``hello`` names in ``notices`` (:data:`app.gateway.messages.NOTICES`) come from one subscription
to the match's table notices on the hub and one watch of its roster: ``presence`` (after every
such ``hello`` and on every change), ``spectators`` (once, then on every change), ``chat`` (the
lines after the ``hello``'s ``chat_since``, then each line as it is said) and ``rematch`` (once
the match is over, then on every change of the offer). A player's ``chat`` frame goes to
:meth:`app.matches.chat.TableChat.say`. The presence, spectator and chat frames go through the
connection's outbox, in order, apart from the snapshots; none carries hidden information.

Held under abuse:

- budgets (:mod:`app.gateway.budget`): too many open sockets (per user, per address, anonymous
  per match and per address) gets an ``error`` frame ``too_many_connections`` and a close with
  :data:`TRY_AGAIN_LATER`; too many frames (per connection, per user, per address; ``hello``
  included) gets ``rate_limited`` and the socket stays open;
- credentials: each socket is subscribed to the credential it was opened with
  (:mod:`app.users.revocations`); when that token is revoked or its session logged out, on any
  process, the socket gets ``unauthorized`` (``params.reason``: ``revoked``) and is closed with
  :data:`POLICY_VIOLATION`, and no frame of it is handled any more;
- a closed socket is sent nothing more: the first send that finds it closed ends the connection's
  fan-out, quietly.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError

from app.errors import DomainError, ErrorCode, busy
from app.gateway.budget import SocketBudget
from app.gateway.frames import (
    ServerFrame,
    chat_frame,
    encode,
    error_frame,
    pong_frame,
    presence_frame,
    rematch_frame,
    snapshot_text,
    spectators_frame,
)
from app.gateway.messages import MAX_INT, Act, Back, BadFrame, Chat, Hello, Ping, Resign, parse_frame
from app.logging import get_logger
from app.matches.rematch import NOTICE as REMATCH_NOTICE
from app.matches.table_roster import Table
from app.users.deps import client_address, connection_token, user_from_connection
from app.users.revocations import Revocations
from app.users.security import token_digest

router = APIRouter()
#: the extra frames that come from the match's table notices on the hub, and from its roster
NOTICE_FRAMES, ROSTER_FRAMES = frozenset({"chat", "rematch"}), frozenset({"presence", "spectators"})
log = get_logger(__name__)

#: close code: the credential ended, or the handshake was refused
POLICY_VIOLATION = 1008
#: close code: too many sockets open; try again later
TRY_AGAIN_LATER = 1013
#: what sending on a socket the client has closed raises (Starlette, uvicorn, the OS)
SEND_FAILURES = (WebSocketDisconnect, RuntimeError, OSError)


class Connection:
    """One viewer's socket: sends snapshots as the match changes and handles the viewer's frames.

    :param seat: the seat the user holds, or ``None`` for a spectator.
    """

    def __init__(
        self, ws: WebSocket, match_id: int, user_id: int | None, seat: int | None, address: str = "unknown"
    ) -> None:
        self.ws, self.match_id, self.user_id, self.seat, self.address = ws, match_id, user_id, seat, address
        self.service = ws.app.state.matches
        settings = ws.app.state.settings
        self.max_bytes = settings.ws_max_frame_bytes
        self.budget: SocketBudget = socket_budget(ws.app)
        self.sent_version: int | None = None  # None until the client said hello
        #: frames are rate-limited per connection (a flood in one tab does not silence another),
        #: and per user and per address across connections
        self.limit_key = f"ws:{secrets.token_hex(8)}"
        self.changes: asyncio.Queue[int] = asyncio.Queue()
        self.send_lock = asyncio.Lock()
        #: held while a snapshot is computed and sent, and around an act and its ack snapshot, so
        #: the pump never sends a version this connection is about to get (or already got)
        self.snapshot_lock = asyncio.Lock()
        #: set once the socket is closed (by either side) or found closed: nothing is sent after
        self.closed = asyncio.Event()
        #: set when the credential the socket was opened with has ended
        self.revoked = False
        self._tasks: set[asyncio.Task[None]] = set()
        #: registered in the match's roster (:meth:`arrive`) until it closes (:meth:`leave`)
        self.at_table = False
        #: the seat it is registered under in the roster (``None``: a spectator)
        self.table_seat: int | None = None
        #: the extra frames the client asked for in ``hello`` (:data:`app.gateway.messages.NOTICES`)
        self.notices: set[str] = set()
        #: stops the table notices and the roster watch (each set up by the first ``hello`` that
        #: asked for one of its frames: :data:`NOTICE_FRAMES`, :data:`ROSTER_FRAMES`)
        self._stop_notices: list[Callable[[], None]] = []
        #: who was at the table in the last presence / spectators frames queued
        self._table_sent = Table(frozenset(), -1)
        #: chat lines heard while a ``hello``'s recent lines are read (``None``: not reading)
        self._chat_held: list[dict[str, Any]] | None = None
        #: encoded table frames (presence, spectators, chat) waiting to be sent, in order, by :meth:`forward`
        self.outbox: asyncio.Queue[str] = asyncio.Queue()

    def spawn(self, coro: Any) -> None:
        """Run ``coro`` in a task of this connection (awaited when the connection ends)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def listen_notices(self, hello: Hello) -> None:
        """Start sending the extra frames ``hello.notices`` names (those not sent yet), each first
        with its state now: the presence (again on every ``hello`` that names it), the spectator
        count, the chat lines after ``hello.chat_since`` (on every ``hello`` that names ``chat``),
        and the rematch offer once the match is over.

        :raises DomainError: ``busy`` (reading the chat or the match).
        """
        wanted = hello.notices
        if not wanted:
            return
        new = wanted - self.notices
        state = self.ws.app.state
        roster = state.roster
        # listen before reading, so nothing said or changed meanwhile is missed (the client keeps
        # one chat line per id; a rematch frame is the offer as it is when sent)
        if new & NOTICE_FRAMES and not self.notices & NOTICE_FRAMES:
            self._stop_notices.append(state.hub.subscribe_table(self.match_id, self._on_notice))
        if new & ROSTER_FRAMES and not self.notices & ROSTER_FRAMES:
            self._stop_notices.append(await roster.watch(self.match_id, self._on_table))
        self.notices |= new
        table = roster.table(self.match_id)
        if "presence" in wanted:
            self._queue_table(table, presence=True, spectators=False)
        if "spectators" in new:
            self._queue_table(table, presence=False, spectators=True)
        if "chat" in wanted:
            await self._queue_recent_chat(hello.chat_since)
        if "rematch" in new:
            live = await self.service.live_match(self.match_id)
            if live.status == "finished":
                await self.send_rematch()

    async def _queue_recent_chat(self, since: int) -> None:
        """Queue the chat lines after line ``since`` in one frame (none when there are none).
        Lines said meanwhile are held and queued after them, without the ones the read found
        already, so each line comes once.

        :raises DomainError: ``busy`` (the lines held are queued anyway).
        """
        self._chat_held = []
        lines: list[dict[str, Any]] = []
        try:
            lines = await self.ws.app.state.chat.recent(self.match_id, after=since)
        finally:
            held, self._chat_held = self._chat_held, None
            newest = max((line["id"] for line in lines), default=since)
            lines += [line for line in held if line["id"] > newest]
            if lines:
                self.outbox.put_nowait(encode(chat_frame(self.match_id, lines)))

    def _on_notice(self, _match_id: int, notice: dict[str, Any]) -> None:
        """A table notice of this match (hub listener): chat lines and rematch changes, for a
        connection that asked for them."""
        if "chat" in notice and "chat" in self.notices:
            if self._chat_held is not None:  # a hello's recent lines are being read
                self._chat_held.append(notice["chat"])
            else:
                self.outbox.put_nowait(encode(chat_frame(self.match_id, [notice["chat"]])))
        elif REMATCH_NOTICE in notice and "rematch" in self.notices:
            self.spawn(self.send_rematch())

    def _on_table(self, table: Table) -> None:
        """Who is at the table changed (roster listener): queue the frames asked for whose figure
        changed."""
        self._queue_table(
            table,
            presence="presence" in self.notices and table.seats != self._table_sent.seats,
            spectators="spectators" in self.notices and table.spectators != self._table_sent.spectators,
        )

    def _queue_table(self, table: Table, *, presence: bool, spectators: bool) -> None:
        if presence:
            self.outbox.put_nowait(encode(presence_frame(self.match_id, table.seats)))
            self._table_sent = self._table_sent._replace(seats=table.seats)
        if spectators:
            self.outbox.put_nowait(encode(spectators_frame(self.match_id, table.spectators)))
            self._table_sent = self._table_sent._replace(spectators=table.spectators)

    async def send_rematch(self) -> None:
        """Send the ``rematch`` frame of the match's offer as it is now."""
        if self.closed.is_set():
            return
        try:
            view = await self.ws.app.state.rematches.get(self.match_id)
        except DomainError as exc:  # busy: the next change (or hello) brings it
            await self.error(exc)
            return
        await self.send(rematch_frame(view))

    async def send(self, frame: ServerFrame) -> bool:
        """Send one frame (one sender at a time). A socket found closed is marked closed and sent
        nothing more.

        :returns: True when the frame was handed to the server, False when the socket is closed.
        """
        return await self.send_text(encode(frame))

    async def send_text(self, text: str) -> bool:
        """Send one encoded frame (see :meth:`send`)."""
        async with self.send_lock:
            if self.closed.is_set():
                return False
            try:
                await self.ws.send_text(text)
            except SEND_FAILURES:
                self.closed.set()
                return False
            return True

    async def close(self, code: int, error: DomainError | None = None) -> None:
        """Send ``error`` (when given) and close the socket with ``code``; nothing is sent after."""
        if error is not None:
            await self.send(error_frame(error))
        async with self.send_lock:
            if self.closed.is_set():
                return
            self.closed.set()
            with contextlib.suppress(*SEND_FAILURES):
                await self.ws.close(code)

    def credential_ended(self, _digest: str) -> None:
        """Revocation listener: refuse every later frame and close the socket (soon, on the loop)."""
        self.revoked = True
        error = DomainError(
            ErrorCode.UNAUTHORIZED,
            "the credential of this connection has ended; log in again",
            params={"reason": "revoked"},
        )
        task = asyncio.get_running_loop().create_task(self.close(POLICY_VIOLATION, error))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def error(self, error: DomainError, ack: str | None = None) -> None:
        """Send the ``error`` frame for ``error``, answering the frame whose ``ack`` was ``ack``."""
        await self.send(error_frame(error, ack))

    async def send_snapshot(self, since: int, ack: str | None = None) -> None:
        """Send the snapshot with every event after ``since`` that this viewer may see (nothing,
        and no database work, once the socket is closed)."""
        if self.closed.is_set():
            return
        if self.seat is None and self.user_id is not None:  # joined since connecting?
            self.seat, _ = await self.service.viewer_seat(self.match_id, self.user_id)
            if self.seat is not None and self.at_table and self.table_seat is None:
                self.table_seat = self.seat  # a player now, no longer a spectator
                self.ws.app.state.roster.seated(self.match_id, self.seat)
        version, text = await self.service.snapshot_text(self.match_id, self.seat, since)
        self.sent_version = version
        await self.send_text(snapshot_text(text, ack))

    async def pump(self) -> None:
        """Forward hub notices as snapshots (only what this connection has not seen), until the
        socket closes."""
        while not self.closed.is_set():
            version = await self.changes.get()
            while not self.changes.empty():  # coalesce a burst into one snapshot
                version = max(version, self.changes.get_nowait())
            async with self.snapshot_lock:
                if self.sent_version is not None and version > self.sent_version:
                    try:
                        await self.send_snapshot(self.sent_version)
                    except DomainError as exc:  # busy: the next notice (or hello) brings it
                        await self.error(exc)

    async def forward(self) -> None:
        """Send the table frames queued in :attr:`outbox`, in order, until the socket closes."""
        while not self.closed.is_set():
            text = await self.outbox.get()
            await self.send_text(text)

    def arrive(self) -> None:
        """Register this socket in the match's roster: under its seat, or as a spectator (once;
        never waits)."""
        if not self.at_table:
            self.at_table, self.table_seat = True, self.seat
            self.ws.app.state.roster.join(self.match_id, self.seat)

    def leave(self) -> None:
        """The socket is closed: stop its extra frames and take it out of the roster."""
        for stop in self._stop_notices:
            stop()
        self._stop_notices.clear()
        if self.at_table:
            self.at_table = False
            self.ws.app.state.roster.leave(self.match_id, self.table_seat)

    async def handle(self, text: str | None) -> None:
        """Handle one frame from the client (nothing, once the socket is closed or its credential
        has ended)."""
        if self.revoked or self.closed.is_set():
            return
        try:
            msg = parse_frame(text, self.max_bytes)
        except BadFrame as exc:
            await self.error(exc, exc.ack)
            return
        ack = msg.ack if isinstance(msg, Act | Chat) else None
        refused = await self.budget.allow_frame(self.limit_key, self.user_id, self.address)
        if refused is not None:
            await self.error(refused, ack)
            return
        if isinstance(msg, Ping):
            await self.send(pong_frame())
        elif isinstance(msg, Hello):
            async with self.snapshot_lock:
                try:
                    await self.send_snapshot(msg.since)
                    await self.listen_notices(msg)
                except DomainError as exc:
                    await self.error(exc)
        elif isinstance(msg, Chat):
            if self.user_id is None:
                await self.error(DomainError(ErrorCode.UNAUTHORIZED, "log in to chat"), msg.ack)
                return
            try:
                await self.ws.app.state.chat.say(self.match_id, self.user_id, msg.phrase)
            except DomainError as exc:
                await self.error(exc, msg.ack)
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
                        with contextlib.suppress(DomainError):  # busy: the pump brings it later
                            await self.send_snapshot(self.sent_version or 0)
                    return
                try:
                    await self.send_snapshot(self.sent_version or 0, ack=ack)
                except DomainError as exc:  # the act is stored; its snapshot comes with the next one
                    await self.error(exc)


def socket_budget(app: Any) -> SocketBudget:
    """The app's :class:`SocketBudget` (``app.state.ws_budget``), made from its settings on first use."""
    budget = getattr(app.state, "ws_budget", None)
    if budget is None:
        budget = app.state.ws_budget = SocketBudget.from_settings(app.state.settings)
    return budget


async def _refuse(ws: WebSocket, error: DomainError, code: int) -> None:
    """Send ``error`` and close with ``code`` (the socket may be gone already)."""
    with contextlib.suppress(*SEND_FAILURES):
        await ws.send_text(encode(error_frame(error)))
        await ws.close(code)


@router.websocket("/ws/matches/{match_id}")
async def match_socket(ws: WebSocket, match_id: int) -> None:
    """Serve one viewer of match ``match_id`` (session cookie or ``Authorization: Bearer``)."""
    await ws.accept()
    revocations: Revocations | None = getattr(ws.app.state, "revocations", None)
    token = connection_token(ws)
    # listen for the credential's end before looking it up, so a revocation in between is heard
    ended: list[str] = []
    unsubscribe_credential = revocations.subscribe(token_digest(token), ended.append) if revocations and token else None
    try:
        await _serve(ws, match_id, revocations, token, ended)
    finally:
        if unsubscribe_credential is not None:
            unsubscribe_credential()


async def _viewer_id(ws: WebSocket) -> int | None:
    """The id of the user behind ``ws`` (:func:`~app.users.deps.user_from_connection`), or None.

    Only the id leaves: the session and the user row stay in this frame, which ends here, and
    are not held for the socket's lifetime (a frame's locals outlive their ``with`` block; with
    1,000 sockets open they were 2,000 sessions and 1,000 user rows in the heap that every full
    collection walks).

    :raises DomainError: ``busy`` when no database connection came in time.
    """
    try:
        async with ws.app.state.lookup_sessionmaker() as session:  # autocommit: one round trip
            user = await user_from_connection(ws, session)
    except SQLAlchemyTimeoutError:
        raise busy("every database connection is in use") from None
    return user.id if user is not None else None


async def _serve(
    ws: WebSocket, match_id: int, revocations: Revocations | None, token: str | None, ended: list[str]
) -> None:
    """The connection after the handshake: check the viewer, admit it to the budget, then pump
    snapshots and handle frames until either side closes."""
    address = client_address(ws)
    try:
        user_id = await _viewer_id(ws)
        if not 1 <= match_id <= MAX_INT:
            raise DomainError(ErrorCode.NOT_FOUND, f"no match {match_id}", params={"match_id": match_id})
        seat, spectators = await ws.app.state.matches.viewer_seat(match_id, user_id)
        if seat is None and not spectators:
            raise DomainError(ErrorCode.UNAUTHORIZED, "this match has no spectators")
    except DomainError as exc:  # busy: try again later; anything else: this viewer may not come in
        await _refuse(ws, exc, TRY_AGAIN_LATER if exc.code == ErrorCode.BUSY else POLICY_VIOLATION)
        return
    try:
        release = socket_budget(ws.app).admit(user_id, address, match_id)
    except DomainError as exc:
        await _refuse(ws, exc, TRY_AGAIN_LATER)
        return
    conn = Connection(ws, match_id, user_id, seat, address)
    unsubscribe_credential = None
    if user_id is not None and revocations is not None and token is not None:
        unsubscribe_credential = revocations.subscribe(token_digest(token), conn.credential_ended)
        if ended:  # it ended while the user was looked up
            conn.credential_ended(ended[0])
    unsubscribe = ws.app.state.hub.subscribe(match_id, lambda _m, v: conn.changes.put_nowait(v))
    pump = asyncio.create_task(conn.pump())
    forward = asyncio.create_task(conn.forward())
    try:
        conn.arrive()
        while not conn.closed.is_set():
            try:
                message = await ws.receive()
            except SEND_FAILURES:  # the server has already reported the disconnect
                break
            if message["type"] == "websocket.disconnect":
                break
            await conn.handle(message.get("text"))
    finally:
        conn.closed.set()
        unsubscribe()
        if unsubscribe_credential is not None:
            unsubscribe_credential()
        release()
        conn.leave()  # the roster must not outlive the socket
        for task in (pump, forward):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for task in list(conn._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
