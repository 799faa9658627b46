"""Who is at a match's table, across server processes: which seats have a socket open (issue 16,
"What players expect at the table") and how many spectator sockets watch.

Every socket of a match registers here once, for as long as it is open (:meth:`TableRoster.join`,
:meth:`TableRoster.leave`): a player's under the seat it plays, a spectator's (a socket without
a seat: anonymous, or a logged-in non-player; two tabs count twice) as a spectator; a spectator
whose user takes a seat moves over (:meth:`TableRoster.seated`). A player's server-sent event
stream counts for the seat too.

Each process counts its own sockets per match, and announces what it has of a match whenever
that changes, as a table notice on the hub (:meth:`app.matches.hub.LocalHub.publish_table`, the
one mechanism between processes)::

    {"roster": {"p": "<process>", "seats": [0, 2], "spectators": 3}}

Every process hears every process's announcements (:meth:`~app.matches.hub.LocalHub.subscribe_table_any`:
the lobby's "Live now" list shows the spectator count of matches nobody here watches) and keeps
the latest of each, so what it shows is its own plus theirs (:meth:`TableRoster.table`). So that a
process which has just got its first watcher of a match learns what the others know at once, it
asks (``{"roster_query": "<process>"}``) and every process with sockets of that match answers.

Why notices and not a shared counter: a counter in Redis or a row in the database outlives a
process that dies with sockets open. Here each process's figures live only while the process
does: it re-announces its non-empty figures every :data:`REFRESH_SECONDS`, and a figure not heard
of for :data:`TTL_SECONDS` is dropped (a dead process's seats and spectators disappear within that
time). A process that stops cleanly announces empty figures at once.

Presence is a fact about sockets only. The page shows a person's seat as ``away`` when the
snapshot's ``clock.away`` lists it (the computer plays for it: the match's takeover state, in the
database), else ``connected`` when the roster holds it, else ``gone``; see
:func:`app.gateway.frames.presence_frame` and :func:`~app.gateway.frames.spectators_frame` for the
frames. Nothing here is hidden information: who is at a table is public.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from app.logging import get_logger
from app.matches.hub import LocalHub

log = get_logger(__name__)

#: seconds between two announcements of a process's non-empty figures
REFRESH_SECONDS = 10.0
#: announcements a refresh makes before it lets the event loop run other work (with 2,500
#: matches and no Redis, where an announcement never waits, a refresh was one 2,500-step callback)
REFRESH_BATCH = 100
#: seconds after which another process's figures are dropped unless announced again
TTL_SECONDS = 3 * REFRESH_SECONDS


class Table(NamedTuple):
    """Who is at a match's table now, in every process."""

    #: the seats whose player has a socket (or stream) open
    seats: frozenset[int]
    #: how many spectator sockets are open
    spectators: int


EMPTY = Table(frozenset(), 0)

#: ``listener(table)``: who is at the match's table changed
TableListener = Callable[[Table], None]


class TableRoster:
    """Who is at each match's table (see the module docstring).

    :param hub: where the roster's notices go between processes (a
        :class:`~app.matches.hub.LocalHub` within one process, a :class:`~app.matches.hub.RedisHub`
        across several). Several rosters on one :class:`~app.matches.hub.LocalHub` behave as
        several processes (tests).
    :param refresh_seconds: seconds between two announcements of this process's figures.
    :param ttl_seconds: seconds another process's figures are believed without being announced again.
    :param monotonic: the time source of those expiries (seconds; :func:`time.monotonic`).
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
        #: match -> seat -> open sockets of its player in this process
        self._seats: dict[int, Counter[int]] = {}
        #: match -> open spectator sockets in this process
        self._spectators: Counter[int] = Counter()
        #: match -> process -> (its seats, its spectator count, when they expire)
        self._remote: dict[int, dict[str, tuple[frozenset[int], int, float]]] = {}
        #: match -> the listeners of this process (connections that want the frames)
        self._watchers: dict[int, set[TableListener]] = {}
        #: match -> the table last handed to its watchers
        self._shown: dict[int, Table] = {}
        self._unsubscribe = hub.subscribe_table_any(self._on_notice)
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ reading

    def local(self, match_id: int) -> Table:
        """Who is at the table of ``match_id`` through this process's sockets."""
        seats = frozenset(seat for seat, n in self._seats.get(match_id, Counter()).items() if n > 0)
        return Table(seats, self._spectators[match_id])

    def table(self, match_id: int) -> Table:
        """Who is at the table of ``match_id`` in every process (figures past their time to live
        left out)."""
        mine = self.local(match_id)
        seats, spectators = set(mine.seats), mine.spectators
        now = self.monotonic()
        for remote, count, expires in self._remote.get(match_id, {}).values():
            if expires > now:
                seats |= remote
                spectators += count
        return Table(frozenset(seats), spectators)

    def connected(self, match_id: int) -> frozenset[int]:
        """The seats of ``match_id`` with a socket open in any process."""
        return self.table(match_id).seats

    def spectators(self, match_id: int) -> int:
        """The spectator sockets of ``match_id`` open in every process."""
        return self.table(match_id).spectators

    # ------------------------------------------------------------------ this process's sockets

    def join(self, match_id: int, seat: int | None) -> None:
        """A socket of ``match_id`` opened: a player's of ``seat``, or a spectator's (``None``).

        This process's watchers hear the change now and the other processes soon (the notice is
        published in a task: this never waits, so it is cheap on the connect path and safe in a
        ``finally``). A second socket of a seat changes nothing; every spectator socket counts.
        """
        if seat is None:
            self._spectators[match_id] += 1
        else:
            counts = self._seats.setdefault(match_id, Counter())
            counts[seat] += 1
            if counts[seat] > 1:
                return
        self._local_changed(match_id)

    def leave(self, match_id: int, seat: int | None) -> None:
        """A socket registered by :meth:`join` with the same ``seat`` closed (heard as :meth:`join`
        says; a leave without its join is ignored)."""
        if seat is None:
            if self._spectators[match_id] <= 0:
                self._spectators.pop(match_id, None)
                return
            self._spectators[match_id] -= 1
            if not self._spectators[match_id]:
                del self._spectators[match_id]
        else:
            counts = self._seats.get(match_id)
            if counts is None or counts[seat] <= 0:
                return
            counts[seat] -= 1
            if counts[seat] > 0:
                return
            del counts[seat]
            if not counts:
                del self._seats[match_id]
        self._local_changed(match_id)

    def seated(self, match_id: int, seat: int) -> None:
        """A spectator socket of ``match_id`` now plays ``seat`` (its user joined): one spectator
        fewer, the seat connected, in one announcement."""
        if self._spectators[match_id] > 0:
            self._spectators[match_id] -= 1
            if not self._spectators[match_id]:
                del self._spectators[match_id]
        else:
            self._spectators.pop(match_id, None)
        counts = self._seats.setdefault(match_id, Counter())
        counts[seat] += 1
        self._local_changed(match_id)

    def _local_changed(self, match_id: int) -> None:
        self._spawn(self._announce(match_id))
        self._changed(match_id)

    # ------------------------------------------------------------------ watching

    async def watch(self, match_id: int, listener: TableListener) -> Callable[[], None]:
        """Call ``listener(table)`` whenever who is at the table of ``match_id`` changes (the first
        watcher of a match in this process asks the other processes for their figures).

        :returns: a function that stops the calls.
        """
        first = match_id not in self._watchers
        self._watchers.setdefault(match_id, set()).add(listener)
        if first:
            self._shown[match_id] = self.table(match_id)
            await self._publish(match_id, {"roster_query": self.process})

        def unwatch() -> None:
            listeners = self._watchers.get(match_id)
            if listeners is None:
                return
            listeners.discard(listener)
            if not listeners:
                del self._watchers[match_id]
                self._shown.pop(match_id, None)

        return unwatch

    def _changed(self, match_id: int) -> None:
        """Hand the table of ``match_id`` to its watchers if it changed."""
        if match_id not in self._watchers:
            return
        table = self.table(match_id)
        if self._shown.get(match_id) == table:
            return
        self._shown[match_id] = table
        for listener in list(self._watchers.get(match_id, ())):
            try:
                listener(table)
            except Exception:
                log.exception("table roster listener failed", match_id=match_id)

    # ------------------------------------------------------------------ notices

    async def _announce(self, match_id: int) -> None:
        mine = self.local(match_id)
        body = {"p": self.process, "seats": sorted(mine.seats), "spectators": mine.spectators}
        await self._publish(match_id, {"roster": body})

    async def _publish(self, match_id: int, notice: dict[str, Any]) -> None:
        try:
            await self.hub.publish_table(match_id, notice)
        except Exception:  # Redis away: this process's own figures stay right; the next refresh says them
            log.warning("table roster notice not published", match_id=match_id)

    def _on_notice(self, match_id: int, notice: dict[str, Any]) -> None:
        """A table notice of any match, from any process (this one's own are skipped)."""
        if "roster" in notice:
            body = notice["roster"]
            process = body.get("p") if isinstance(body, dict) else None
            if not isinstance(process, str) or process == self.process:
                return
            seats = frozenset(s for s in body.get("seats", ()) if isinstance(s, int) and not isinstance(s, bool))
            count = body.get("spectators", 0)
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                count = 0
            remote = self._remote.setdefault(match_id, {})
            if seats or count:
                remote[process] = (seats, count, self.monotonic() + self.ttl_seconds)
            else:
                remote.pop(process, None)
                if not remote:
                    del self._remote[match_id]
            self._changed(match_id)
        elif "roster_query" in notice and notice["roster_query"] != self.process and self.local(match_id) != EMPTY:
            self._spawn(self._announce(match_id))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ refresh

    def _matches_here(self) -> list[int]:
        return sorted({*self._seats, *(m for m, n in self._spectators.items() if n > 0)})

    async def refresh(self) -> None:
        """Once: announce this process's non-empty figures again, and drop the other processes'
        figures not heard of for :attr:`ttl_seconds` (telling the watchers of the matches whose
        table changed)."""
        for i, match_id in enumerate(self._matches_here(), start=1):
            await self._announce(match_id)
            if i % REFRESH_BATCH == 0:  # a local hub never waits: let the sockets' frames through
                await asyncio.sleep(0)
        now = self.monotonic()
        for match_id, remote in list(self._remote.items()):
            stale = [p for p, (_s, _n, expires) in remote.items() if expires <= now]
            for process in stale:
                del remote[process]
            if not remote:
                del self._remote[match_id]
            if stale:
                self._changed(match_id)

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(self.refresh_seconds)
            try:
                await self.refresh()
            except Exception:
                log.exception("table roster refresh failed")

    async def start(self) -> None:
        """Refresh every :attr:`refresh_seconds`, in a task, until :meth:`stop` (call after the hub
        has started)."""
        if self._task is None:
            self._task = asyncio.create_task(self._refresh_forever())

    async def stop(self) -> None:
        """Stop refreshing, tell the other processes this one's seats and spectators are gone, and
        stop listening (call before the hub stops)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        here = self._matches_here()
        self._seats.clear()
        self._spectators.clear()
        for match_id in here:
            await self._announce(match_id)
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._unsubscribe()
