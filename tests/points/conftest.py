"""Fixtures for points: the match service's ``env`` (SQLite and PostgreSQL), shared with ratings."""

from __future__ import annotations

from tests.service.conftest import env  # noqa: F401  (the fixture, shared)
