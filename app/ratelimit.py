"""Rate limiting with the ``limits`` library (moving windows).

:class:`RateLimiter` counts hits per key against a rate string such as ``"10/minute"`` (several
limits may be joined with ``;``: ``"5/second; 100/minute"``). Counters live in memory (one process,
the embedded default) or in Redis when a ``redis://`` URL is given, so several server processes
share them. Used by login and token creation (``settings.login_rate_limit``, per client address
and per account name) and by the websocket gateway (``settings.ws_rate_limit``, per connection).

    limiter = RateLimiter.from_settings(settings, settings.ws_rate_limit, namespace="ws")
    if not limiter.hit(f"conn:{conn_id}"):
        wait = limiter.retry_after(f"conn:{conn_id}")   # whole seconds, >= 1
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from limits import RateLimitItem, parse_many
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindowRateLimiter
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter
from starlette.concurrency import run_in_threadpool

if TYPE_CHECKING:
    from app.settings import Settings


class RateLimiter:
    """A moving-window limiter for one rate, keyed by arbitrary strings.

    :param rate: ``limits`` rate string, e.g. ``"10/minute"`` or ``"40/10second"``.
    :param storage_url: ``None`` or ``"memory://"`` for in-process counters; ``"redis://host:port/db"``
        (or ``rediss://``) for counters shared by every process using the same Redis.
    :param namespace: keeps this limiter's counters apart from other limiters on the same storage.
    :raises ValueError: for a malformed rate string.
    """

    def __init__(self, rate: str, storage_url: str | None = None, *, namespace: str = "default") -> None:
        self.rate = rate
        self.items: list[RateLimitItem] = parse_many(rate)
        if not self.items:
            raise ValueError(f"no rate limit in {rate!r}")
        self.namespace = namespace
        self.storage = storage_from_string(storage_url or "memory://")
        self._limiter = MovingWindowRateLimiter(self.storage)
        #: the same counters through the ``limits.aio`` client, for :meth:`ahit` on Redis (no
        #: thread per call; made on first use, inside the event loop)
        self._storage_url = storage_url
        self._async_limiter: AsyncMovingWindowRateLimiter | None = None

    @classmethod
    def from_settings(cls, settings: Settings, rate: str, *, namespace: str) -> RateLimiter:
        """A limiter for ``rate`` on Redis when ``settings.redis_url`` is set, in memory otherwise."""
        return cls(rate, storage_url=settings.redis_url, namespace=namespace)

    @property
    def is_local(self) -> bool:
        """True for in-process counters (calls never block on the network)."""
        return isinstance(self.storage, MemoryStorage)

    def test(self, key: str) -> bool:
        """True when one more hit on ``key`` would be allowed (nothing is counted)."""
        return all(self._limiter.test(item, self.namespace, key) for item in self.items)

    def hit(self, key: str) -> bool:
        """Count one hit on ``key``; True if it was within the limit, False if it was refused.

        A refused hit is not counted, so a client that keeps trying is let in again as soon as its
        oldest counted hit leaves the window.
        """
        if not self.test(key):
            return False
        return all([self._limiter.hit(item, self.namespace, key) for item in self.items])

    def retry_after(self, key: str) -> int:
        """Whole seconds until ``key`` may hit again: 0 when it may now, otherwise at least 1."""
        now = time.time()
        wait = 0.0
        for item in self.items:
            stats = self._limiter.get_window_stats(item, self.namespace, key)
            if stats.remaining <= 0:
                wait = max(wait, stats.reset_time - now)
        return max(1, math.ceil(wait)) if wait > 0 or not self.test(key) else 0

    def clear(self, key: str) -> None:
        """Forget every hit on ``key``."""
        for item in self.items:
            self._limiter.clear(item, self.namespace, key)

    async def ahit(self, key: str) -> bool:
        """:meth:`hit` for async code: on Redis through the ``limits.aio`` client (a single-limit
        rate costs one round trip: a moving window's hit counts nothing when it refuses)."""
        if self.is_local:
            return self.hit(key)
        limiter = self._async_limiter
        if limiter is None:
            url = str(self._storage_url)
            limiter = self._async_limiter = AsyncMovingWindowRateLimiter(
                storage_from_string(f"async+{url}", implementation="redispy")
            )
        if len(self.items) > 1:
            for item in self.items:
                if not await limiter.test(item, self.namespace, key):
                    return False
        return all([await limiter.hit(item, self.namespace, key) for item in self.items])

    async def atest(self, key: str) -> bool:
        """:meth:`test` for async code (on Redis in a worker thread, as :meth:`aretry_after`)."""
        return self.test(key) if self.is_local else await run_in_threadpool(self.test, key)

    async def aretry_after(self, key: str) -> int:
        """:meth:`retry_after` for async code."""
        return self.retry_after(key) if self.is_local else await run_in_threadpool(self.retry_after, key)

    def __repr__(self) -> str:
        return f"RateLimiter({self.rate!r}, namespace={self.namespace!r}, storage={type(self.storage).__name__})"
