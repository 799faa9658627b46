"""Notices that a credential (an API token or a browser session token) has ended, on every process.

Revoking a token (``DELETE /api/auth/token``) or logging out deletes the token's row, so no new
request gets in with it; sockets opened with it before are still open, though, perhaps on another
server process. The account routes :meth:`Revocations.publish` the token's digest
(:func:`app.users.security.token_digest`) after the row is gone; the websocket gateway subscribes
each socket to the digest it was opened with and closes it when the notice comes.

:class:`Revocations` delivers inside one process (the embedded default); :class:`RedisRevocations`
publishes on the Redis channel ``arena:revoked`` so every process hears it (``REDIS_URL`` set).
A notice carries only the digest, never the token.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from app.logging import get_logger
from app.pubsub import RedisChannel

log = get_logger(__name__)

#: called with the digest of the credential that ended
RevocationListener = Callable[[str], None]


class Revocations:
    """In-process listeners per credential digest."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[RevocationListener]] = defaultdict(set)

    async def start(self) -> None:
        """Nothing to start in-process."""

    async def stop(self) -> None:
        """Drop every listener."""
        self._listeners.clear()

    def subscribe(self, digest: str, listener: RevocationListener) -> Callable[[], None]:
        """Call ``listener(digest)`` when the credential with this digest ends (on any process).

        :param digest: the SHA-256 hex digest of the token (:func:`app.users.security.token_digest`).
        :returns: a function that unsubscribes.
        """
        self._listeners[digest].add(listener)

        def unsubscribe() -> None:
            listeners = self._listeners.get(digest)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    self._listeners.pop(digest, None)

        return unsubscribe

    def listening(self, digest: str) -> int:
        """How many listeners this process has for ``digest`` (for tests and diagnostics)."""
        return len(self._listeners.get(digest, ()))

    def _deliver(self, digest: str) -> None:
        for listener in list(self._listeners.get(digest, ())):
            try:
                listener(digest)
            except Exception:  # one broken listener must not keep the others open
                log.exception("revocation listener failed")

    async def publish(self, digest: str) -> None:
        """Announce that the credential with ``digest`` has ended (call after its row is deleted)."""
        self._deliver(digest)


class RedisRevocations(Revocations):
    """Publishes digests on the Redis channel ``arena:revoked`` and delivers what any process
    published to this process's listeners.

    :param url: ``redis://host:port/db``.
    """

    CHANNEL = "arena:revoked"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._channel = RedisChannel(url, self.CHANNEL, self._on_message)

    async def start(self) -> None:
        """Connect and start listening (subscribed before this returns)."""
        await self._channel.start()

    def _on_message(self, data: bytes) -> None:
        self._deliver(data.decode("ascii", "replace") if isinstance(data, bytes) else str(data))

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        await self._channel.stop()
        await super().stop()

    async def publish(self, digest: str) -> None:
        """Publish to every process (this one included, through Redis); if Redis cannot be
        reached, this process's listeners still hear it and the failure is logged."""
        try:
            await self._channel.publish(digest)
        except Exception:
            log.exception("could not publish a revocation; sockets on other processes stay open")
            self._deliver(digest)


def make_revocations(redis_url: str | None) -> Revocations:
    """:class:`RedisRevocations` when ``redis_url`` is set, else :class:`Revocations`."""
    return RedisRevocations(redis_url) if redis_url else Revocations()
