"""Connection budgets of the websocket gateway: how many sockets, and how many frames across them.

Sockets are counted per user, per client address, and for anonymous spectators per match and per
address (``settings.ws_max_sockets_per_user``, ``ws_max_sockets_per_address``,
``ws_max_anonymous_per_match``, ``ws_max_anonymous_per_address``). The counts are kept by each
server process (a socket lives in one), so with N processes behind the proxy a user may hold up
to N times the cap; the frame budgets below are shared through Redis when ``REDIS_URL`` is set.

Frames are counted per connection (``ws_rate_limit``), per user across all their sockets
(``ws_user_rate_limit``) and per address across all its sockets (``ws_address_rate_limit``);
every frame counts, ``hello`` and ``ping`` included.

    budget = SocketBudget.from_settings(settings)
    release = budget.admit(user_id, address, match_id)   # DomainError too_many_connections
    try: ...
    finally: release()
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.errors import DomainError, ErrorCode
from app.ratelimit import RateLimiter

if TYPE_CHECKING:
    from app.settings import Settings


class SocketBudget:
    """Open-socket counts and frame limiters of one server process.

    :param max_per_user: sockets one user may hold.
    :param max_per_address: sockets one client address may hold (users and anonymous together).
    :param max_anonymous_per_match: anonymous sockets on one match.
    :param max_anonymous_per_address: anonymous sockets from one address.
    :param connection_rate, user_rate, address_rate: ``limits`` rate strings for frames.
    :param storage_url: where frame counters live (``None``: this process; ``redis://``: shared).
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
        storage_url: str | None = None,
    ) -> None:
        self.max_per_user, self.max_per_address = max_per_user, max_per_address
        self.max_anonymous_per_match, self.max_anonymous_per_address = (
            max_anonymous_per_match,
            max_anonymous_per_address,
        )
        #: open sockets per ``(kind, key)``: ``("user", id)``, ``("address", host)``, ``("match", id)``
        #: and ``("anonymous_address", host)`` (the last two for anonymous sockets only)
        self.open: Counter[tuple[str, int | str]] = Counter()
        # a connection lives in one process: its own count never needs Redis
        self.connection_frames = RateLimiter(connection_rate, None, namespace="ws")
        self.user_frames = RateLimiter(user_rate, storage_url, namespace="ws-user")
        self.address_frames = RateLimiter(address_rate, storage_url, namespace="ws-addr")

    @classmethod
    def from_settings(cls, settings: Settings) -> SocketBudget:
        """The budget the settings describe (frame counters on Redis when ``redis_url`` is set)."""
        return cls(
            max_per_user=settings.ws_max_sockets_per_user,
            max_per_address=settings.ws_max_sockets_per_address,
            max_anonymous_per_match=settings.ws_max_anonymous_per_match,
            max_anonymous_per_address=settings.ws_max_anonymous_per_address,
            connection_rate=settings.ws_rate_limit,
            user_rate=settings.ws_user_rate_limit,
            address_rate=settings.ws_address_rate_limit,
            storage_url=settings.redis_url,
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
        checks: list[tuple[RateLimiter, str, str | None]] = [(self.connection_frames, connection_key, None)]
        if user_id is not None:
            checks.append((self.user_frames, f"user:{user_id}", "user"))
        checks.append((self.address_frames, f"addr:{address}", "address"))
        for limiter, key, per in checks:
            if not await limiter.ahit(key):
                wait = await limiter.aretry_after(key)
                params: dict[str, int | str] = {"retry_after": wait}
                if per is not None:
                    params["per"] = per
                return DomainError(ErrorCode.RATE_LIMITED, "too many messages; slow down", params=params)
        return None


def _too_many(limit: int, per: str) -> DomainError:
    return DomainError(
        ErrorCode.TOO_MANY_CONNECTIONS,
        f"too many open connections ({limit} per {per.replace('_', ' ')})",
        params={"limit": limit, "per": per},
    )
