"""Fan-out of "match M is now at version V" notices to the connections watching M.

:class:`LocalHub` works inside one process (the embedded default). :class:`RedisHub` publishes
through Redis pub/sub so that several server processes serve one match (DESIGN.md section 6).
A notice carries no game data: each connection reads what its viewer may see from the database.

Besides version notices there are two more kinds: "match M has finished" (:meth:`LocalHub.publish_finished`),
sent after the commit that wrote the match's ``match_results`` rows, so that result consumers
(:mod:`app.matches.results`) wake up at once (they poll as well, so a lost notice only delays
them); and *table notices* (:meth:`LocalHub.publish_table`): what happens at a match's table
besides moves, as a small JSON object delivered to that match's table subscribers (and to the
subscribers of every match's, :meth:`LocalHub.subscribe_table_any`) in every process. It is the
one way such news travels between processes; each notice has one key saying what it is:

- ``{"roster": {...}}``, ``{"roster_query": ...}``: who is at the table, per process (the seats
  with a socket open, the spectator count: :mod:`app.matches.table_roster`);
- ``{"chat": <line>}``: a quick-chat line (:mod:`app.matches.chat`);
- ``{"rematch": {}}``: the match's rematch offer changed (:mod:`app.matches.rematch`).

A table notice carries no hidden information (a listener reads what it needs).
"""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from app.logging import get_logger
from app.pubsub import RedisChannel

log = get_logger(__name__)

Listener = Callable[[int, int], None]  # (match_id, version)
FinishedListener = Callable[[int], None]  # (match_id)
TableListener = Callable[[int, dict[str, Any]], None]  # (match_id, notice)


class LocalHub:
    """In-process subscribers per match id."""

    def __init__(self) -> None:
        self._listeners: dict[int, set[Listener]] = defaultdict(set)
        self._any: list[Listener] = []
        self._finished: set[FinishedListener] = set()
        self._table: dict[int, set[TableListener]] = defaultdict(set)
        self._table_any: set[TableListener] = set()

    async def start(self) -> None:
        """Nothing to start in-process."""

    async def stop(self) -> None:
        """Drop every subscriber."""
        self._listeners.clear()
        self._finished.clear()
        self._table.clear()
        self._table_any.clear()

    def subscribe(self, match_id: int, listener: Listener) -> Callable[[], None]:
        """Call ``listener(match_id, version)`` on every change of ``match_id``.

        :returns: a function that unsubscribes.
        """
        self._listeners[match_id].add(listener)

        def unsubscribe() -> None:
            listeners = self._listeners.get(match_id)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    self._listeners.pop(match_id, None)

        return unsubscribe

    def subscribe_any(self, listener: Listener) -> None:
        """Call ``listener(match_id, version)`` on every change of every match, before the
        listeners of that match (the match service's cache of live matches hears of a new
        version before any connection asks for it)."""
        self._any.append(listener)

    def _deliver(self, match_id: int, version: int) -> None:
        for listener in self._any:
            try:
                listener(match_id, version)
            except Exception:
                log.exception("hub listener failed", match_id=match_id)
        for listener in list(self._listeners.get(match_id, ())):
            try:
                listener(match_id, version)
            except Exception:  # a broken listener must not stop the others
                log.exception("hub listener failed", match_id=match_id)

    async def publish(self, match_id: int, version: int) -> None:
        """Tell every subscriber in this process that ``match_id`` reached ``version``."""
        self._deliver(match_id, version)

    def subscribe_finished(self, listener: FinishedListener) -> Callable[[], None]:
        """Call ``listener(match_id)`` whenever any match finishes (its results are committed).

        :returns: a function that unsubscribes.
        """
        self._finished.add(listener)
        return lambda: self._finished.discard(listener)

    def _deliver_finished(self, match_id: int) -> None:
        for listener in list(self._finished):
            try:
                listener(match_id)
            except Exception:
                log.exception("hub finished listener failed", match_id=match_id)

    async def publish_finished(self, match_id: int) -> None:
        """Tell the result consumers in this process that ``match_id`` has finished."""
        self._deliver_finished(match_id)

    def subscribe_table(self, match_id: int, listener: TableListener) -> Callable[[], None]:
        """Call ``listener(match_id, notice)`` for every table notice of ``match_id`` published by
        any process (this one included).

        :returns: a function that unsubscribes.
        """
        self._table[match_id].add(listener)

        def unsubscribe() -> None:
            listeners = self._table.get(match_id)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    self._table.pop(match_id, None)

        return unsubscribe

    def subscribe_table_any(self, listener: TableListener) -> Callable[[], None]:
        """Call ``listener(match_id, notice)`` for every table notice of every match published by
        any process (this one included), before the listeners of that match.

        :returns: a function that unsubscribes.
        """
        self._table_any.add(listener)
        return lambda: self._table_any.discard(listener)

    def _deliver_table(self, match_id: int, notice: dict[str, Any]) -> None:
        for listener in [*self._table_any, *self._table.get(match_id, ())]:
            try:
                listener(match_id, notice)
            except Exception:
                log.exception("hub table listener failed", match_id=match_id)

    async def publish_table(self, match_id: int, notice: dict[str, Any]) -> None:
        """Deliver the table notice ``notice`` (a JSON-safe object) of ``match_id`` to its table
        subscribers in this process."""
        self._deliver_table(match_id, notice)


class RedisHub(LocalHub):
    """Publishes notices on the Redis channel ``arena:matches`` (``{"m": id, "v": version, "p":
    process}``, ``{"finished": id}`` or ``{"t": id, "d": notice, "p": process}`` for a table
    notice) and delivers what any process published to the local subscribers. A process delivers
    its own version and table notices at once, without waiting for them to come back from Redis,
    and skips them when they do (``p`` names the process that published).

    :param url: ``redis://host:port/db``.
    """

    CHANNEL = "arena:matches"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._channel = RedisChannel(url, self.CHANNEL, self._on_message)
        self._process = secrets.token_hex(8)

    async def start(self) -> None:
        """Connect and start the subscriber task."""
        await self._channel.start()

    def _on_message(self, data: bytes) -> None:
        try:
            notice = json.loads(data)
            if "finished" in notice:
                self._deliver_finished(int(notice["finished"]))
            elif "t" in notice:
                if notice.get("p") != self._process and isinstance(notice["d"], dict):
                    self._deliver_table(int(notice["t"]), notice["d"])
            elif notice.get("p") != self._process:
                self._deliver(int(notice["m"]), int(notice["v"]))
        except (ValueError, KeyError, TypeError):
            log.warning("bad hub notice", data=data)

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        await self._channel.stop()
        await super().stop()

    async def publish(self, match_id: int, version: int) -> None:
        """Deliver to this process's subscribers now and publish to the other processes."""
        self._deliver(match_id, version)
        await self._channel.publish(json.dumps({"m": match_id, "v": version, "p": self._process}))

    async def publish_finished(self, match_id: int) -> None:
        """Tell the result consumers of every process that ``match_id`` has finished."""
        await self._channel.publish(json.dumps({"finished": match_id}))

    async def publish_table(self, match_id: int, notice: dict[str, Any]) -> None:
        """Deliver the table notice to this process's table subscribers now and publish it to the
        other processes."""
        self._deliver_table(match_id, notice)
        await self._channel.publish(json.dumps({"t": match_id, "d": notice, "p": self._process}))


def make_hub(redis_url: str | None) -> LocalHub:
    """A :class:`RedisHub` when ``redis_url`` is set, else a :class:`LocalHub`."""
    return RedisHub(redis_url) if redis_url else LocalHub()
