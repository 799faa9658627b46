"""One Redis pub/sub channel between server processes (used by the match hub and by credential
revocations): publish a text message, and hand every message any process published on the channel,
this one included, to a callback."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any


class RedisChannel:
    """A Redis pub/sub channel.

    :param url: ``redis://host:port/db``.
    :param channel: the channel name, e.g. ``"arena:matches"``.
    :param on_message: called with each message's data (``bytes``) in this process's event loop.
    """

    def __init__(self, url: str, channel: str, on_message: Callable[[bytes], None]) -> None:
        self.url, self.channel, self.on_message = url, channel, on_message
        self._redis: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Connect and subscribe (subscribed before this returns, so nothing published after it is
        missed), then listen in a task."""
        import redis.asyncio as redis

        self._redis = redis.from_url(self.url)
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.channel)
        self._task = asyncio.create_task(self._listen(pubsub))

    async def _listen(self, pubsub: Any) -> None:
        async for message in pubsub.listen():
            if message.get("type") == "message":
                self.on_message(message["data"])

    async def publish(self, data: str) -> None:
        """Publish ``data`` to every process.

        :raises AssertionError: :meth:`start` was not awaited.
        :raises redis.RedisError: Redis cannot be reached.
        """
        assert self._redis is not None, f"{self.channel}: start() was not awaited"
        await self._redis.publish(self.channel, data)

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._redis is not None:
            await self._redis.aclose()
