"""The ratings consumer on a database made by the code before ratings (the fixture of
``tests/test_old_database.py``, upgraded by today's migrations): every old finished match reaches
the players' records once; none was created rated, so no rating changes."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from app.db.session import make_engine, make_sessionmaker
from app.matches.models import MatchResult
from app.ratings.apply import catch_up
from app.ratings.models import PlayerRecord, RatingChange
from tests.test_old_database import _upgraded_copy


async def test_old_matches_reach_the_records_once(tmp_path):
    url = await asyncio.to_thread(_upgraded_copy, tmp_path)  # alembic runs its own event loop
    engine = make_engine(url)
    try:
        sessionmaker = make_sessionmaker(engine)
        async with sessionmaker() as s:
            rows = await s.scalar(select(func.count()).select_from(MatchResult))
            people = await s.scalar(
                select(func.count()).select_from(MatchResult).where(MatchResult.user_id.is_not(None))
            )
        assert rows and people
        assert await catch_up(sessionmaker, limit=7) == rows
        assert await catch_up(sessionmaker) == 0
        async with sessionmaker() as s:
            counted = await s.scalar(select(func.sum(PlayerRecord.wins + PlayerRecord.losses + PlayerRecord.draws)))
            assert counted == people
            assert await s.scalar(select(func.count()).select_from(RatingChange)) == 0
    finally:
        await engine.dispose()
