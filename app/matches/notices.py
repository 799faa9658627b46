"""Small notices about a match between server processes, beside the hub's version notices
(:mod:`app.matches.hub`): "the rematch offer of match M changed", "process P has N spectators on
match M". A notice is ``(kind, match_id, data)``: ``kind`` a short name, ``data`` a small JSON
object; like the hub's, it carries no hidden information (a listener reads what it needs).

:class:`LocalNotices` delivers inside one process (the embedded default); :class:`RedisNotices`
publishes on the Redis channel ``arena:match-notices`` so every process hears every notice. Each
delivery names the process that published it, so a listener can keep per-process figures
(:mod:`app.gateway.spectators`).
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

#: ``listener(match_id, data, process)``
NoticeListener = Callable[[int, dict[str, Any], str], None]


class LocalNotices:
    """In-process delivery of match notices, by kind.

    :param process: this process's name in the notices it publishes (default: random).
    """

    def __init__(self, process: str | None = None) -> None:
        self.process = process or secrets.token_hex(8)
        self._listeners: dict[str, set[NoticeListener]] = defaultdict(set)

    async def start(self) -> None:
        """Nothing to start in-process."""

    async def stop(self) -> None:
        """Drop every listener."""
        self._listeners.clear()

    def subscribe(self, kind: str, listener: NoticeListener) -> Callable[[], None]:
        """Call ``listener(match_id, data, process)`` on every notice of ``kind`` (from any process).

        :returns: a function that unsubscribes.
        """
        self._listeners[kind].add(listener)
        return lambda: self._listeners[kind].discard(listener)

    def _deliver(self, kind: str, match_id: int, data: dict[str, Any], process: str) -> None:
        for listener in list(self._listeners.get(kind, ())):
            try:
                listener(match_id, data, process)
            except Exception:  # a broken listener must not stop the others
                log.exception("notice listener failed", kind=kind, match_id=match_id)

    async def publish(self, kind: str, match_id: int, data: dict[str, Any] | None = None) -> None:
        """Deliver the notice to every listener of ``kind`` (in this process)."""
        self._deliver(kind, match_id, dict(data or {}), self.process)


class RedisNotices(LocalNotices):
    """Match notices through the Redis channel ``arena:match-notices`` (``{"k": kind, "m": id,
    "d": data, "p": process}``). A process delivers its own notices at once and skips them when
    they come back from Redis.

    :param url: ``redis://host:port/db``.
    """

    CHANNEL = "arena:match-notices"

    def __init__(self, url: str, process: str | None = None) -> None:
        super().__init__(process)
        self._channel = RedisChannel(url, self.CHANNEL, self._on_message)

    async def start(self) -> None:
        """Connect and subscribe (nothing published after this returns is missed)."""
        await self._channel.start()

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        await self._channel.stop()
        await super().stop()

    def _on_message(self, raw: bytes) -> None:
        try:
            notice = json.loads(raw)
            if notice["p"] != self.process:
                self._deliver(str(notice["k"]), int(notice["m"]), dict(notice["d"]), str(notice["p"]))
        except (ValueError, KeyError, TypeError):
            log.warning("bad match notice", data=raw)

    async def publish(self, kind: str, match_id: int, data: dict[str, Any] | None = None) -> None:
        """Deliver to this process's listeners now and publish to the other processes."""
        payload = dict(data or {})
        self._deliver(kind, match_id, payload, self.process)
        await self._channel.publish(json.dumps({"k": kind, "m": match_id, "d": payload, "p": self.process}))


def make_notices(redis_url: str | None) -> LocalNotices:
    """:class:`RedisNotices` when ``redis_url`` is set, else :class:`LocalNotices`."""
    return RedisNotices(redis_url) if redis_url else LocalNotices()
