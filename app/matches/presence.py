"""Who is at the table: which seats of a match have an open connection, across server processes
(issue 16, "What players expect at the table").

A seat is *connected* while its player holds at least one open websocket (or server-sent event
stream) to the match, on any process. Each process counts its own connections per match and seat
(:meth:`Presence.join`, :meth:`Presence.leave`) and announces the set of seats it has connected
whenever that set changes, as a table notice on the hub (:meth:`app.matches.hub.LocalHub.publish_table`)::

    {"presence": {"p": "<process>", "seats": [0, 2]}}

Every process that has viewers of the match keeps the latest set announced by each other process
and shows the union (:meth:`Presence.connected`). So that a process which has just got its first
viewer of a match learns what the others know, it asks (``{"presence_query": "<process>"}``) and
every process with connected seats of that match answers with its set. A process that dies
without saying goodbye stops refreshing its sets: each process re-announces its non-empty sets
every :data:`REFRESH_SECONDS`, and a set not heard of for :data:`TTL_SECONDS` is dropped. A
process that stops cleanly announces empty sets at once.

Presence is a fact about sockets only. The page shows a person's seat as ``away`` when the
snapshot's ``clock.away`` lists it (the computer plays for it: the match's takeover state, in the
database), else ``connected`` when this set holds it, else ``gone``; see
:func:`app.gateway.frames.presence_frame` for the frame. Nothing here is hidden information:
which seats are at the table is public.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from app.logging import get_logger
from app.matches.hub import LocalHub

log = get_logger(__name__)

#: seconds between two announcements of a process's non-empty sets
REFRESH_SECONDS = 10.0
#: seconds after which a set another process announced is dropped unless announced again
TTL_SECONDS = 30.0

PresenceListener = Callable[[frozenset[int]], None]  # the connected seats, after a change


class Presence:
    """The connected seats of each match (see the module docstring).

    :param hub: where the table notices go between processes (a :class:`~app.matches.hub.LocalHub`
        within one process, a :class:`~app.matches.hub.RedisHub` across several).
    :param refresh_seconds: seconds between two announcements of this process's sets.
    :param ttl_seconds: seconds another process's set is believed without being announced again.
    :param monotonic: the time source for those expiries (seconds; :func:`time.monotonic`).
    """

    def __init__(
        self,
        hub: LocalHub,
        *,
        refresh_seconds: float = REFRESH_SECONDS,
        ttl_seconds: float = TTL_SECONDS,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.hub = hub
        self.refresh_seconds, self.ttl_seconds, self.monotonic = refresh_seconds, ttl_seconds, monotonic
        #: this process's name in the notices
        self.process = secrets.token_hex(8)
        #: match -> seat -> open connections in this process
        self._local: dict[int, Counter[int]] = {}
        #: match -> process -> (its connected seats, when they expire); kept for watched matches
        self._remote: dict[int, dict[str, tuple[frozenset[int], float]]] = {}
        #: match -> the listeners of this process's viewers (connections that want the frames)
        self._watchers: dict[int, set[PresenceListener]] = {}
        self._unsubscribe: dict[int, Callable[[], None]] = {}
        #: match -> the set last handed to its watchers
        self._shown: dict[int, frozenset[int]] = {}
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ reading

    def local_seats(self, match_id: int) -> frozenset[int]:
        """The seats of ``match_id`` with an open connection in this process."""
        return frozenset(seat for seat, n in self._local.get(match_id, Counter()).items() if n > 0)

    def connected(self, match_id: int) -> frozenset[int]:
        """The seats of ``match_id`` with an open connection in any process (as far as this one
        knows: exact for watched matches, this process's own otherwise)."""
        seats = set(self.local_seats(match_id))
        now = self.monotonic()
        for remote, expires in self._remote.get(match_id, {}).values():
            if expires > now:
                seats |= remote
        return frozenset(seats)

    # ------------------------------------------------------------------ this process's connections

    def join(self, match_id: int, seat: int) -> None:
        """A connection of the player of ``seat`` opened. When it is the seat's first in this
        process, this process's watchers hear it now and the other processes soon (the notice is
        published in a task: this never waits, so it is safe in a ``finally``)."""
        counts = self._local.setdefault(match_id, Counter())
        self._listen(match_id)  # to answer the queries of processes that start watching it
        counts[seat] += 1
        if counts[seat] == 1:
            self._spawn(self._announce(match_id))
            self._changed(match_id)

    def leave(self, match_id: int, seat: int) -> None:
        """A connection of the player of ``seat`` closed (heard as :meth:`join` says, when it was
        the seat's last in this process)."""
        counts = self._local.get(match_id)
        if counts is None or counts[seat] <= 0:
            return
        counts[seat] -= 1
        if counts[seat] == 0:
            del counts[seat]
            if not counts:
                del self._local[match_id]
                self._stop_listening(match_id)
            self._spawn(self._announce(match_id))
            self._changed(match_id)

    async def watch(self, match_id: int, listener: PresenceListener) -> Callable[[], None]:
        """Call ``listener(seats)`` whenever the connected seats of ``match_id`` change (the first
        watcher of a match in this process asks the other processes for theirs).

        :returns: a function that stops the calls.
        """
        first = match_id not in self._watchers
        self._watchers.setdefault(match_id, set()).add(listener)
        if first:
            self._listen(match_id)
            self._shown[match_id] = self.connected(match_id)
            await self._publish(match_id, {"presence_query": self.process})

        def unwatch() -> None:
            listeners = self._watchers.get(match_id)
            if listeners is None:
                return
            listeners.discard(listener)
            if not listeners:
                del self._watchers[match_id]
                self._remote.pop(match_id, None)
                self._shown.pop(match_id, None)
                self._stop_listening(match_id)

        return unwatch

    def _listen(self, match_id: int) -> None:
        """Hear the table notices of ``match_id`` (while it has watchers or connected seats here)."""
        if match_id not in self._unsubscribe:
            self._unsubscribe[match_id] = self.hub.subscribe_table(match_id, self._on_notice)

    def _stop_listening(self, match_id: int) -> None:
        if match_id not in self._watchers and match_id not in self._local and match_id in self._unsubscribe:
            self._unsubscribe.pop(match_id)()

    # ------------------------------------------------------------------ notices

    async def _announce(self, match_id: int) -> None:
        seats = sorted(self.local_seats(match_id))
        await self._publish(match_id, {"presence": {"p": self.process, "seats": seats}})

    async def _publish(self, match_id: int, notice: dict[str, Any]) -> None:
        try:
            await self.hub.publish_table(match_id, notice)
        except Exception:  # Redis down: the next refresh says it again
            log.warning("presence notice not published", match_id=match_id)

    def _on_notice(self, match_id: int, notice: dict[str, Any]) -> None:
        """A table notice of a watched match (from any process; this one's own are skipped)."""
        if "presence" in notice:
            body = notice["presence"]
            process = body.get("p") if isinstance(body, dict) else None
            if not isinstance(process, str) or process == self.process:
                return
            if match_id not in self._watchers:
                return  # nobody here shows this match: nothing to keep
            seats = frozenset(s for s in body.get("seats", ()) if isinstance(s, int) and not isinstance(s, bool))
            remote = self._remote.setdefault(match_id, {})
            if seats:
                remote[process] = (seats, self.monotonic() + self.ttl_seconds)
            else:
                remote.pop(process, None)
            self._changed(match_id)
        elif "presence_query" in notice and notice["presence_query"] != self.process and self.local_seats(match_id):
            self._spawn(self._announce(match_id))

    def _changed(self, match_id: int) -> None:
        """Hand the connected seats to the watchers of ``match_id`` if they changed."""
        if match_id not in self._watchers:
            return
        seats = self.connected(match_id)
        if self._shown.get(match_id) == seats:
            return
        self._shown[match_id] = seats
        for listener in list(self._watchers.get(match_id, ())):
            try:
                listener(seats)
            except Exception:
                log.exception("presence listener failed", match_id=match_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ refresh

    async def refresh(self) -> None:
        """Announce this process's non-empty sets again, and drop the other processes' sets not
        heard of for :attr:`ttl_seconds` (telling the watchers)."""
        for match_id in list(self._local):
            await self._announce(match_id)
        now = self.monotonic()
        for match_id, remote in list(self._remote.items()):
            for process, (_seats, expires) in list(remote.items()):
                if expires <= now:
                    del remote[process]
            self._changed(match_id)

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_seconds)
            try:
                await self.refresh()
            except Exception:
                log.exception("presence refresh failed")

    async def start(self) -> None:
        """Start refreshing (call after the hub has started)."""
        if self._task is None:
            self._task = asyncio.create_task(self._refresh_forever())

    async def stop(self) -> None:
        """Stop refreshing and tell the other processes this one's seats are gone (call before the
        hub stops)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for match_id in list(self._local):
            self._local.pop(match_id)
            self._stop_listening(match_id)
            await self._announce(match_id)
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
