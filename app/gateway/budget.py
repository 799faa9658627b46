"""Connection budgets of the websocket gateway: how many sockets, and how many frames across them.

Sockets are counted per user, per client address, and for anonymous spectators per match and per
address (``settings.ws_max_sockets_per_user``, ``ws_max_sockets_per_address``,
``ws_max_anonymous_per_match``, ``ws_max_anonymous_per_address``). The counts are kept by each
server process (a socket lives in one), so with N processes behind the proxy a user may hold up
to N times the cap; so are the frame budgets (token buckets, :class:`FrameBuckets`).

Frames are counted per connection (``ws_rate_limit``), per user across all their sockets
(``ws_user_rate_limit``) and per address across all its sockets (``ws_address_rate_limit``);
every frame counts, ``hello`` and ``ping`` included.

    budget = SocketBudget.from_settings(settings)
    release = budget.admit(user_id, address, match_id)   # DomainError too_many_connections
    try: ...
    finally: release()
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from limits import parse_many

from app.errors import DomainError, ErrorCode

if TYPE_CHECKING:
    from app.settings import Settings


class SocketBudget:
    """Open-socket counts and frame limiters of one server process.

    :param max_per_user: sockets one user may hold.
    :param max_per_address: sockets one client address may hold (users and anonymous together).
    :param max_anonymous_per_match: anonymous sockets on one match.
    :param max_anonymous_per_address: anonymous sockets from one address.
    :param connection_rate, user_rate, address_rate: ``limits`` rate strings for frames.
    """

    def __init__(
        self,
        *,
        max_per_user: int,
        max_per_address: int,
        max_anonymous_per_match: int,
        max_anonymous_per_address: int,
        connection_rate: str,
        user_rate: str,
        address_rate: str,
    ) -> None:
        self.max_per_user, self.max_per_address = max_per_user, max_per_address
        self.max_anonymous_per_match, self.max_anonymous_per_address = (
            max_anonymous_per_match,
            max_anonymous_per_address,
        )
        #: open sockets per ``(kind, key)``: ``("user", id)``, ``("address", host)``, ``("match", id)``
        #: and ``("anonymous_address", host)`` (the last two for anonymous sockets only)
        self.open: Counter[tuple[str, int | str]] = Counter()
        self.connection_frames = FrameBuckets(connection_rate)
        self.user_frames = FrameBuckets(user_rate)
        self.address_frames = FrameBuckets(address_rate)

    @classmethod
    def from_settings(cls, settings: Settings) -> SocketBudget:
        """The budget the settings describe."""
        return cls(
            max_per_user=settings.ws_max_sockets_per_user,
            max_per_address=settings.ws_max_sockets_per_address,
            max_anonymous_per_match=settings.ws_max_anonymous_per_match,
            max_anonymous_per_address=settings.ws_max_anonymous_per_address,
            connection_rate=settings.ws_rate_limit,
            user_rate=settings.ws_user_rate_limit,
            address_rate=settings.ws_address_rate_limit,
        )

    def admit(self, user_id: int | None, address: str, match_id: int) -> Callable[[], None]:
        """Count one more open socket, or refuse it.

        :param user_id: the logged-in user, or None for an anonymous spectator.
        :returns: the function to call (once) when the socket closes.
        :raises DomainError: ``too_many_connections`` with ``params`` ``{"limit", "per"}`` (``per``:
            ``user``, ``address``, ``match`` or ``anonymous_address``); nothing is counted then.
        """
        keys: list[tuple[str, int | str]] = [("address", address)]
        limits = {
            "user": self.max_per_user,
            "address": self.max_per_address,
            "match": self.max_anonymous_per_match,
            "anonymous_address": self.max_anonymous_per_address,
        }
        if user_id is not None:
            keys.insert(0, ("user", user_id))
        else:
            keys += [("match", match_id), ("anonymous_address", address)]
        for key in keys:
            if self.open[key] >= limits[key[0]]:
                raise _too_many(limits[key[0]], key[0])
        self.open.update(keys)
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self.open.subtract(keys)
            for key in keys:
                if self.open[key] <= 0:
                    del self.open[key]

        return release

    async def allow_frame(self, connection_key: str, user_id: int | None, address: str) -> DomainError | None:
        """Count one frame against the connection, the user and the address.

        :returns: None when the frame may be handled, else the ``rate_limited`` error to send
            (``params``: ``{"retry_after": seconds}``, and ``per``: ``user`` or ``address`` when
            it is a budget across sockets that ran out).
        """
        checks: list[tuple[FrameBuckets, str | int, str | None]] = [(self.connection_frames, connection_key, None)]
        if user_id is not None:
            checks.append((self.user_frames, user_id, "user"))
        checks.append((self.address_frames, address, "address"))
        for buckets, key, per in checks:
            wait = buckets.hit(key)
            if wait:
                params: dict[str, int | str] = {"retry_after": wait}
                if per is not None:
                    params["per"] = per
                return DomainError(ErrorCode.RATE_LIMITED, "too many messages; slow down", params=params)
        return None


class FrameBuckets:
    """Token buckets per key for one rate, in this process: the frame budgets of the gateway.

    :param rate: a ``limits`` rate string (``"100/10second"``, several joined with ``;``), parsed
        by that library: each limit is a bucket of ``amount`` frames refilled evenly over its
        period, so a burst of ``amount`` passes and then ``amount`` per period.
    :raises ValueError: a malformed rate string.

    Not the ``limits`` library's counters, as login and sign-up use (:mod:`app.ratelimit`): its
    in-memory storage restarts an expiry timer thread every 10 ms of traffic (and waits for it to
    start, on the event loop), which cost 8 % of the loop under load for a check made on every
    frame; on Redis every frame would cost round trips. A bucket is two floats per limit and key.
    The counts are per process, like the socket counts: behind N processes a user's sockets on
    different processes each have the budget.
    """

    #: keys kept before idle full buckets are dropped
    SWEEP_AT = 4096

    def __init__(self, rate: str) -> None:
        items = parse_many(rate)
        if not items:
            raise ValueError(f"no rate limit in {rate!r}")
        #: (frames, seconds) per limit
        self.limits: list[tuple[int, float]] = [(item.amount, float(item.get_expiry())) for item in items]
        #: key -> [tokens of each limit..., monotonic time of the last refill]
        self._buckets: dict[str | int, list[float]] = {}

    def hit(self, key: str | int) -> int:
        """Count one frame of ``key``.

        :returns: 0 when it is within every limit (it is counted), else the whole seconds until
            it would be (at least 1; nothing is counted).
        """
        now = time.monotonic()
        bucket = self._buckets.get(key)
        limits = self.limits
        if bucket is None:
            if len(self._buckets) >= self.SWEEP_AT:
                self._sweep(now)
            bucket = self._buckets[key] = [float(amount) for amount, _ in limits] + [now]
        elapsed = now - bucket[-1]
        bucket[-1] = now
        wait = 0.0
        for i, (amount, period) in enumerate(limits):
            tokens = min(float(amount), bucket[i] + elapsed * amount / period)
            bucket[i] = tokens
            if tokens < 1.0:
                wait = max(wait, (1.0 - tokens) * period / amount)
        if wait:
            return max(1, math.ceil(wait))
        for i in range(len(limits)):
            bucket[i] -= 1.0
        return 0

    def _sweep(self, now: float) -> None:
        """Drop the buckets that have refilled completely (forgetting them changes nothing)."""
        full = [
            key
            for key, bucket in self._buckets.items()
            if all(bucket[i] + (now - bucket[-1]) * a / p >= a for i, (a, p) in enumerate(self.limits))
        ]
        for key in full:
            del self._buckets[key]


def _too_many(limit: int, per: str) -> DomainError:
    return DomainError(
        ErrorCode.TOO_MANY_CONNECTIONS,
        f"too many open connections ({limit} per {per.replace('_', ' ')})",
        params={"limit": limit, "per": per},
    )
