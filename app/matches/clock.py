"""The service's time source, injected so tests run clocks with a fake (after scalachess's
``Clock``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    """Anything with ``now() -> datetime`` (timezone-aware UTC)."""

    def now(self) -> datetime: ...


class SystemClock:
    """The real wall clock."""

    def now(self) -> datetime:
        """Current UTC time."""
        return datetime.now(UTC)


class FakeClock:
    """A clock that moves only when told to, for tests.

    :param start: the initial time (default 2026-01-01 UTC).
    """

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        """The current fake time."""
        return self._now

    def advance(self, seconds: float) -> datetime:
        """Move forward by ``seconds`` and return the new time."""
        self._now += timedelta(seconds=seconds)
        return self._now
