"""Starting the challenges' background work beside the match service (``app/main.py``'s lifespan):
the ``challenges`` result consumer and the deadline job, both on the background pool and the
service's clock."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans.challenges import results
from app.clans.challenges.deadlines import ChallengeDeadlines
from app.clans.challenges.series import SeriesPoints
from app.matches.hub import LocalHub
from app.matches.service import MatchService
from app.settings import Settings


def start(
    sessionmaker: async_sessionmaker[AsyncSession], hub: LocalHub, matches: MatchService, settings: Settings
) -> list[asyncio.Task[None]]:
    """Start the consumer and the deadline job; cancel the returned tasks on shutdown."""
    points = SeriesPoints.from_settings(settings)
    deadlines = ChallengeDeadlines(sessionmaker, matches.clock, points, matches, settings.challenge_tick_seconds)
    return [results.start(sessionmaker, hub, points, matches.clock), deadlines.start()]
