"""Ladder months (issue 13, item 4): a month is ``"YYYY-MM"``, a calendar month in UTC, the same
string as :func:`app.clans.points.month_of` and the ratings' seasons (:mod:`app.ratings.models`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

#: a month's text form, ``"2026-11"`` (years 1000-9999)
MONTH_PATTERN = r"^[1-9]\d{3}-(0[1-9]|1[0-2])$"
_MONTH_RE = re.compile(MONTH_PATTERN)


def is_month(text: str) -> bool:
    """Whether ``text`` is a month ``"YYYY-MM"`` (years 1000-9999, months 01-12)."""
    return bool(_MONTH_RE.fullmatch(text))


def month_start(month: str) -> datetime:
    """The first moment of ``month`` (UTC). :raises ValueError: ``month`` is not ``"YYYY-MM"``."""
    if not is_month(month):
        raise ValueError(f"not a month: {month!r}")
    return datetime(int(month[:4]), int(month[5:]), 1, tzinfo=UTC)


def next_month(month: str) -> str:
    """The month after ``month``: ``"2026-12"`` -> ``"2027-01"``. :raises ValueError: as :func:`month_start`."""
    start = month_start(month)
    year, mon = (start.year + 1, 1) if start.month == 12 else (start.year, start.month + 1)
    return f"{year:04d}-{mon:02d}"


def previous_month(month: str) -> str:
    """The month before ``month``: ``"2027-01"`` -> ``"2026-12"``. :raises ValueError: as :func:`month_start`."""
    start = month_start(month)
    year, mon = (start.year - 1, 12) if start.month == 1 else (start.year, start.month - 1)
    return f"{year:04d}-{mon:02d}"


def seconds_to_next_month(now: datetime) -> float:
    """Seconds from ``now`` (aware) to the first moment of the next UTC month."""
    this = now.astimezone(UTC).strftime("%Y-%m")
    return (month_start(next_month(this)) - now).total_seconds()
