"""How many spectators watch a match now, across every server process.

Each process knows its own spectator sockets (the gateway counts them as they open and close:
:meth:`SpectatorCounts.opened`, :meth:`SpectatorCounts.closed`). It tells the others its count of
a match whenever that changes, as a ``spectators`` match notice (:mod:`app.matches.notices`, over
Redis with several processes): ``{"n": <this process's count>}``. Every process keeps the last
count it heard from each other process, so the total is its own count plus theirs.

Why notices and not a shared counter: a counter in Redis or a row in the database outlives a
process that dies with sockets open. Here each process's figure is alive only while the process
is: it repeats its non-zero counts every :data:`REPEAT_SECONDS`, and a figure not repeated for
:data:`FORGET_AFTER_SECONDS` is dropped (so a dead process's spectators disappear within that
time). A process that starts watching a match asks the others for their counts of it (``{"ask":
true}``) instead of waiting for the next repeat.

A spectator is a socket without a seat (anonymous or a logged-in non-player): two tabs count twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from app.logging import get_logger
from app.matches.notices import LocalNotices

log = get_logger(__name__)

KIND = "spectators"
#: how often a process repeats its non-zero counts
REPEAT_SECONDS = 10.0
#: a process's count not heard of for this long is forgotten (the process is gone)
FORGET_AFTER_SECONDS = 3 * REPEAT_SECONDS

#: ``listener(total)``: the match's spectator count changed
CountListener = Callable[[int], None]


class SpectatorCounts:
    """Spectators per match, this process's and the others' (see the module's notes).

    :param notices: where counts are told and heard (shared by every process).
    :param clock: seconds, monotonic (tests pass a fake).
    """

    def __init__(self, notices: LocalNotices, clock: Callable[[], float] = time.monotonic) -> None:
        self.notices = notices
        self.clock = clock
        self.local: Counter[int] = Counter()
        #: match -> process -> (count, when heard)
        self.remote: dict[int, dict[str, tuple[int, float]]] = defaultdict(dict)
        self._watchers: dict[int, set[CountListener]] = defaultdict(set)
        self._unsubscribe = notices.subscribe(KIND, self._heard)
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def count(self, match_id: int) -> int:
        """Spectators of ``match_id`` now, in every process (figures older than
        :data:`FORGET_AFTER_SECONDS` left out)."""
        now = self.clock()
        others = sum(n for n, at in self.remote.get(match_id, {}).values() if now - at <= FORGET_AFTER_SECONDS)
        return self.local[match_id] + others

    async def opened(self, match_id: int) -> None:
        """A spectator socket of ``match_id`` opened in this process."""
        self.local[match_id] += 1
        await self._tell(match_id)

    async def closed(self, match_id: int) -> None:
        """A spectator socket of ``match_id`` closed in this process."""
        self.local[match_id] = max(0, self.local[match_id] - 1)
        if not self.local[match_id]:
            del self.local[match_id]
        await self._tell(match_id)

    async def watch(self, match_id: int, listener: CountListener) -> Callable[[], None]:
        """Call ``listener(total)`` whenever the count of ``match_id`` changes; the first watcher
        of a match in this process asks the other processes for their counts.

        :returns: a function that stops the calls.
        """
        first = not self._watchers.get(match_id)
        self._watchers[match_id].add(listener)
        if first:
            await self._publish(match_id, {"ask": True})

        def unwatch() -> None:
            listeners = self._watchers.get(match_id)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._watchers[match_id]

        return unwatch

    async def _tell(self, match_id: int) -> None:
        await self._publish(match_id, {"n": self.local[match_id]})
        self._changed(match_id)

    async def _publish(self, match_id: int, data: dict[str, Any]) -> None:
        try:
            await self.notices.publish(KIND, match_id, data)
        except Exception:  # Redis away: this process's own figure stays right
            log.warning("spectator count not published", match_id=match_id)

    def _heard(self, match_id: int, data: dict[str, Any], process: str) -> None:
        if process == self.notices.process:
            return
        if data.get("ask"):
            if self.local[match_id]:
                self._spawn(self._publish(match_id, {"n": self.local[match_id]}))
            return
        n = data.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            return
        if n:
            self.remote[match_id][process] = (n, self.clock())
        else:
            self.remote[match_id].pop(process, None)
            if not self.remote[match_id]:
                del self.remote[match_id]
        self._changed(match_id)

    def _changed(self, match_id: int) -> None:
        total = self.count(match_id)
        for listener in list(self._watchers.get(match_id, ())):
            try:
                listener(total)
            except Exception:
                log.exception("spectator count listener failed", match_id=match_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def repeat(self) -> None:
        """Once: repeat this process's non-zero counts, and forget the others' stale ones
        (telling this process's watchers of the matches whose total changed)."""
        for match_id in list(self.local):
            await self._publish(match_id, {"n": self.local[match_id]})
        now = self.clock()
        for match_id in list(self.remote):
            stale = [p for p, (_, at) in self.remote[match_id].items() if now - at > FORGET_AFTER_SECONDS]
            for p in stale:
                del self.remote[match_id][p]
            if not self.remote[match_id]:
                del self.remote[match_id]
            if stale:
                self._changed(match_id)

    async def start(self) -> None:
        """Repeat and forget every :data:`REPEAT_SECONDS`, in a task, until :meth:`stop`."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(REPEAT_SECONDS)
                try:
                    await self.repeat()
                except Exception:
                    log.exception("spectator counts: repeat failed")

        self._task = asyncio.create_task(loop())

    async def stop(self) -> None:
        """Stop repeating and listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._unsubscribe()
