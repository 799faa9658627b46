"""Fixtures for clan challenges: the clans' world (``tests/clans/conftest.py``: clan ``ALP`` with
leader ``lea``, officers ``off`` and ``tof``, members ``mem`` and ``tgt``; clan ``BET`` with leader
``oth``) plus BET's officer ``bof`` and member ``bme``, a match service on the same database with a
fake clock, and helpers that propose, accept, name players and play boards to the end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from app.clans import service as clans
from app.clans.challenges import results, service
from app.clans.challenges.deadlines import ChallengeDeadlines
from app.clans.challenges.matches import start_boards
from app.clans.challenges.models import Challenge, ChallengeBoard, Side
from app.clans.challenges.series import SeriesPoints
from app.clans.models import ClanHistory, ClanPoints, Role
from app.db.session import make_engine, make_sessionmaker
from app.matches.clock import FakeClock
from app.matches.hub import LocalHub
from app.matches.service import MatchService
from app.points.models import PointsEntry
from app.users.models import User
from tests.clans.conftest import LIMIT, World, build_world
from tests.conftest import make_settings

POINTS = SeriesPoints(win=10, board=5)
OPTIONS = {"turn_seconds": 60, "rated": True}


@dataclass
class Arena:
    """The clans' world with a match service and a fake clock."""

    w: World
    matches: MatchService
    clock: FakeClock

    @property
    def users(self) -> dict[str, int]:
        return self.w.users

    def other_matches(self) -> MatchService:
        """A second match service on its own engine, as a second server process has."""
        engine = make_engine(self.w.url)
        self.w.engines.append(engine)
        return MatchService(make_sessionmaker(engine), LocalHub(), settings=self.matches.settings, clock=self.clock)

    def deadlines(self, matches: MatchService | None = None) -> ChallengeDeadlines:
        """A deadline job on ``matches``'s sessions (default: this arena's)."""
        m = matches or self.matches
        return ChallengeDeadlines(m.sessionmaker, self.clock, POINTS, m)

    async def propose(self, actor: str = "lea", boards: int = 2, hours: float = 24, **kw: Any) -> int:
        ch = await self.w.do(
            service.propose,
            self.users[actor],
            kw.pop("tag", "ALP"),
            opponent=kw.pop("opponent", "BET"),
            game=kw.pop("game", "battle_runes"),
            options=kw.pop("options", OPTIONS),
            boards=boards,
            deadline=self.clock.now() + timedelta(hours=hours),
            checker=self.matches,
            open_limit=kw.pop("open_limit", 3),
            now=self.clock.now(),
        )
        return ch.id

    async def accept(self, challenge_id: int, actor: str = "oth") -> None:
        await self.w.do(service.answer, self.users[actor], challenge_id, accept=True, now=self.clock.now())

    async def name(self, challenge_id: int, board: int, side: Side, player: str, actor: str | None = None) -> None:
        actor = actor or ("lea" if side is Side.CHALLENGER else "oth")
        await self.w.do(
            service.name_player, self.users[actor], challenge_id, board, side=side, player=player, now=self.clock.now()
        )

    async def start(self, challenge_id: int | None = None) -> list[int]:
        return await start_boards(self.w.sessions, self.matches, challenge_id=challenge_id, now=self.clock.now())

    async def ready(
        self, boards: int = 2, pairs: tuple[tuple[str, str], ...] = (("mem", "bme"), ("off", "bof"))
    ) -> int:
        """An accepted challenge of ``boards`` boards, each with its players (``pairs``: ALP's, BET's)
        and its match started. :returns: the challenge id."""
        cid = await self.propose(boards=boards)
        await self.accept(cid)
        for k, (a, b) in zip(range(1, boards + 1), pairs, strict=False):
            await self.name(cid, k, Side.CHALLENGER, a)
            await self.name(cid, k, Side.CHALLENGED, b)
        await self.start(cid)
        return cid

    async def board(self, challenge_id: int, board: int) -> ChallengeBoard:
        async with self.w.sessions() as s:
            row = await s.scalar(
                select(ChallengeBoard).where(ChallengeBoard.challenge_id == challenge_id, ChallengeBoard.board == board)
            )
            assert row is not None
            return row

    async def challenge(self, challenge_id: int) -> Challenge:
        async with self.w.sessions() as s:
            ch = await s.get(Challenge, challenge_id)
            assert ch is not None
            return ch

    async def lose(self, challenge_id: int, board: int, loser: str) -> int:
        """``loser`` resigns board ``board``'s match. :returns: the match id."""
        row = await self.board(challenge_id, board)
        assert row.match_id is not None
        await self.matches.resign(row.match_id, self.users[loser])
        return row.match_id

    async def consume(self) -> int:
        return await results.catch_up(self.w.sessions, POINTS, self.clock)

    async def effects(self) -> dict[str, Any]:
        """Everything a result or a deadline may change: challenges, boards, history rows, clan
        points and player points."""
        async with self.w.sessions() as s:
            chs = [
                (c.id, c.status, c.result, c.challenger_wins, c.challenged_wins, c.deadline_done)
                for c in await s.scalars(select(Challenge).order_by(Challenge.id))
            ]
            boards = [
                (
                    b.challenge_id,
                    b.board,
                    b.challenger_player_id,
                    b.challenged_player_id,
                    b.match_id,
                    b.winner,
                    b.forfeit,
                )
                for b in await s.scalars(select(ChallengeBoard).order_by(ChallengeBoard.id))
            ]
            history = await s.scalar(select(func.count()).select_from(ClanHistory))
            clan_points = [
                (p.clan_id, p.month, p.points, p.reason, p.ref)
                for p in await s.scalars(select(ClanPoints).order_by(ClanPoints.id))
            ]
            player_points = [
                (p.user_id, p.delta, p.reason, p.ref)
                for p in await s.scalars(select(PointsEntry).order_by(PointsEntry.id))
            ]
        return {
            "challenges": chs,
            "boards": boards,
            "history": history,
            "clan_points": clan_points,
            "player_points": player_points,
        }


async def build_arena(url: str) -> Arena:
    w = await build_world(url)
    u = w.users
    async with w.sessions() as s, s.begin():
        extra = [User(name=n, name_key=n, password_hash="x") for n in ("bof", "bme", "bot1")]
        extra[2].is_bot = True
        s.add_all(extra)
        await s.flush()
        u.update({x.name: x.id for x in extra})
    for name in ("bof", "bme"):
        inv = await w.do(clans.invite, u["oth"], "BET", name, limit=LIMIT)
        await w.do(clans.accept, u[name], "BET", inv.id, limit=LIMIT)
    await w.do(clans.set_role, u["oth"], "BET", u["bof"], Role.OFFICER)
    settings = make_settings(url)
    clock = FakeClock()
    matches = MatchService(w.sessions, LocalHub(), settings=settings, clock=clock)
    return Arena(w, matches, clock)


@pytest.fixture
async def arena(db_url) -> AsyncIterator[Arena]:
    """The arena above, on SQLite and PostgreSQL."""
    a = await build_arena(db_url)
    yield a
    await a.matches.stop_workers()
    for engine in a.w.engines:
        await engine.dispose()
