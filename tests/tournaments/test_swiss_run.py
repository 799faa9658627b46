"""An 8-player Swiss of Battle Runes run to the end on a fake clock (issue 14, "Done when"): every
seat is left to its clock, so the computer plays it (timeouts, then away); the scripted loser of
each board resigns once the computer has played both seats, so the results are known and the
standings can be checked against values worked by hand. The server restarts after round 1 (a new
match service and runner on new connections), and two runners race for every step after it.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from app.db.session import make_engine, make_sessionmaker
from app.errors import DomainError
from app.matches.clock import FakeClock
from app.matches.hub import LocalHub
from app.matches.models import ACTIVE, TOURNAMENT, Match, MatchSeat
from app.matches.results import claim
from app.matches.service import MatchService
from app.points.ledger import balance_of
from app.points.models import RankChange
from app.ratings.models import Rating
from app.tournaments import results
from app.tournaments.models import FORMATS, Tournament, TournamentBoard, TournamentPlayer, TournamentRound
from app.tournaments.runner import TournamentRunner
from app.tournaments.service import NewTournament, TournamentService
from app.tournaments.table import Field, standings
from app.users.models import User
from tests.conftest import make_settings

TURN = 30
#: scores far apart, so a match ends only by the scripted resignation
LONG = {"start_score": 500, "win_score": 1000}
RUNES_OPTIONS = ["max_turns", "r2p5_bonus_kind", "start_score", "win_score", "zero_blocks_swap_all"]


class Server:
    """One server process: its own connections, match service and tournament runner."""

    def __init__(self, url: str, settings, clock: FakeClock) -> None:
        self.engine = make_engine(url)
        self.sessionmaker = make_sessionmaker(self.engine)
        self.matches = MatchService(self.sessionmaker, LocalHub(), settings=settings, clock=clock)
        self.runner = TournamentRunner(self.sessionmaker, self.matches)
        self.tournaments = TournamentService(self.sessionmaker, self.matches, clock, self.runner.wake)

    async def tick(self) -> None:
        """What the background tasks do in a moment: play due seats, apply results, take steps."""
        await self.matches.process_due()
        await claim(self.sessionmaker, results.CONSUMER, results.handler(self.matches.clock))
        await self.runner.process_due()

    async def stop(self) -> None:
        await self.matches.stop_workers()
        await self.engine.dispose()


@pytest.fixture
async def world(db_url):
    settings = make_settings(db_url)
    clock = FakeClock()
    server = Server(db_url, settings, clock)
    async with server.sessionmaker() as s, s.begin():
        users = [User(name=f"p{i}", name_key=f"p{i}", password_hash="x") for i in range(1, 10)]
        s.add_all(users)
        await s.flush()
        ids = [u.id for u in users]
        await s.execute(update(User).where(User.id == ids[8]).values(rank="master"))  # the organiser
        # ratings decide the starting numbers: p1 is the strongest ... p8 the weakest
        s.add_all(Rating(user_id=ids[i], pool="battle_runes", rating=1900 - 10 * i) for i in range(8))
    yield db_url, settings, clock, server, ids
    await server.stop()


async def _current_matches(server: Server, tid: int, round_no: int) -> list[tuple[int, int, int]]:
    """(match id, first user, second user) of the round's boards."""
    async with server.sessionmaker() as s:
        rows = await s.execute(
            select(TournamentBoard.match_id, TournamentBoard.first_user_id, TournamentBoard.second_user_id).where(
                TournamentBoard.tournament_id == tid, TournamentBoard.round == round_no
            )
        )
        return [tuple(r) for r in rows.all()]


async def _play_round(server: Server, tid: int, round_no: int, number_of: dict[int, int], clock: FakeClock) -> None:
    """Leave every seat to its clock until the computer plays both (two timeouts each: away), then
    the player with the higher starting number resigns."""
    boards = await _current_matches(server, tid, round_no)
    assert len(boards) == 4
    for _ in range(2):
        clock.advance(TURN + 1)
        await server.matches.process_due()
    async with server.sessionmaker() as s:
        for match_id, _a, _b in boards:
            seats = (await s.execute(select(MatchSeat).where(MatchSeat.match_id == match_id))).scalars().all()
            assert all(ms.away for ms in seats), "the computer plays absent players' seats"
    for match_id, a, b in boards:
        loser = a if number_of[a] > number_of[b] else b
        await server.matches.resign(match_id, loser)


async def test_an_eight_player_swiss_runs_to_the_end_with_a_restart(world):
    url, settings, clock, server, ids = world
    organiser = ids[8]
    tid = await server.tournaments.create(
        organiser,
        NewTournament(
            name="Winter Swiss",
            game="battle_runes",
            format="swiss",
            starts_at=clock.now() + timedelta(minutes=10),
            max_players=8,
            turn_seconds=TURN,
            options=LONG,
            rounds=3,
        ),
    )
    for u in reversed(ids[:8]):  # registered weakest first: the ratings, not the order, seed them
        await server.tournaments.register(tid, u)
        await server.tournaments.check_in(tid, u)
    await server.runner.process_due()
    async with server.sessionmaker() as s:
        assert (await s.get(Tournament, tid)).status == "registering"  # not before its time
    clock.advance(10 * 60)
    await server.runner.process_due()

    async with server.sessionmaker() as s:
        players = (await s.execute(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tid))).scalars()
        number_of = {p.user_id: p.number for p in players}
    assert number_of == {ids[i]: i + 1 for i in range(8)}
    user_of = {n: u for u, n in number_of.items()}
    # round 1: FIDE Dutch, top half against bottom half
    pairs = [(number_of[a], number_of[b]) for _m, a, b in await _current_matches(server, tid, 1)]
    assert sorted(pairs) == sorted([(1, 5), (6, 2), (3, 7), (8, 4)])
    async with server.sessionmaker() as s:
        ms = (await s.execute(select(Match).where(Match.origin == TOURNAMENT))).scalars().all()
        assert len(ms) == 4 and all(m.status == ACTIVE and m.origin_ref == str(tid) for m in ms)
    await _play_round(server, tid, 1, number_of, clock)

    # a restart: this process goes away; two new ones share the database from now on
    await server.stop()
    a, b = Server(url, settings, clock), Server(url, settings, clock)
    try:
        for round_no in (2, 3):
            await asyncio.gather(a.tick(), b.tick())
            await asyncio.gather(a.tick(), b.tick())
            async with a.sessionmaker() as s:
                assert (await s.get(Tournament, tid)).current_round == round_no
            await _play_round(a if round_no == 2 else b, tid, round_no, number_of, clock)
        await asyncio.gather(a.tick(), b.tick())
        await asyncio.gather(a.tick(), b.tick())

        async with a.sessionmaker() as s:
            t = await s.get(Tournament, tid)
            assert t.status == "finished" and t.current_round == 3
            # each round paired once, its four matches created and started once
            assert await s.scalar(select(func.count()).select_from(TournamentRound)) == 3
            assert await s.scalar(select(func.count()).select_from(TournamentBoard)) == 12
            assert await s.scalar(select(func.count()).select_from(Match).where(Match.origin == TOURNAMENT)) == 12
            rows = (await s.execute(select(TournamentBoard).order_by(TournamentBoard.round))).scalars().all()
            got = {
                r.round: sorted(
                    (number_of[x.first_user_id], number_of[x.second_user_id]) for x in rows if x.round == r.round
                )
                for r in rows
            }
            assert got == {
                1: sorted([(1, 5), (6, 2), (3, 7), (8, 4)]),
                2: sorted([(4, 1), (2, 3), (5, 8), (7, 6)]),
                3: sorted([(1, 2), (3, 5), (6, 4), (8, 7)]),
            }
            players = (await s.execute(select(TournamentPlayer))).scalars().all()
            table = standings(t, Field.of(players), rows)
            # worked by hand from the boards above (the lower starting number won every game):
            #   points 1:3  2:2  3:2  4:2  5:1  6:1  7:1  8:0
            #   Buchholz (opponents' points) 1:1+2+2  2:1+2+3  3:1+2+1  4:0+3+1  5:3+0+2  6:2+1+2  7:2+1+0  8:2+1+1
            #   Sonneborn-Berger (beaten opponents' points) 1:1+2+2  2:1+2  3:1+1  4:0+1  5:0  6:1  7:0  8:0
            # 3 and 4 tie on points and Buchholz (4): Sonneborn-Berger puts 3 first; 5 and 6 tie on
            # points and Buchholz (5): Sonneborn-Berger puts 6 first
            assert [(r.number, r.points, r.buchholz, r.sonneborn_berger) for r in table] == [
                (1, 3, 5, 5),
                (2, 2, 6, 3),
                (3, 2, 4, 2),
                (4, 2, 4, 1),
                (6, 1, 5, 1),
                (5, 1, 5, 0),
                (7, 1, 3, 0),
                (8, 0, 4, 0),
            ]
            places = {number_of[p.user_id]: p.place for p in players}
            assert places == {1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 5: 6, 7: 7, 8: 8}
            # points by place, once; the winner is a Master now
            assert [(await balance_of(s, user_of[n]))[0] for n in (1, 2, 3, 4)] == [100, 60, 40, 0]
            assert (await s.get(User, user_of[1])).rank == "master"
            changes = (await s.execute(select(RankChange).where(RankChange.user_id == user_of[1]))).scalars().all()
            assert [(c.new, c.reason, c.ref) for c in changes] == [("master", "tournament_win", str(tid))]
        # nothing more happens however often the runners look
        for _ in range(2):
            await asyncio.gather(a.tick(), b.tick())
        async with a.sessionmaker() as s:
            assert [(await balance_of(s, user_of[n]))[0] for n in (1, 2, 3)] == [100, 60, 40]
            assert await s.scalar(select(func.count()).select_from(TournamentRound)) == 3
    finally:
        await a.stop()
        await b.stop()


async def test_refused_tournaments_say_why_and_store_nothing(world):
    """The service's own checks, behind the route's schema (which refuses most of these first, as
    ``validation_error``): each ``bad_options`` says why in ``params.reason``."""
    _url, _settings, clock, server, ids = world
    good = {
        "name": "Cup",
        "game": "battle_runes",
        "format": "swiss",
        "starts_at": clock.now() + timedelta(minutes=10),
        "turn_seconds": TURN,
    }
    for changes, params in (
        ({"format": "ladder"}, {"reason": "option_choice", "option": "format", "choices": list(FORMATS)}),
        ({"game": "chess"}, {"reason": "unknown_game", "game": "chess"}),
        ({"max_players": 65}, {"reason": "option_range", "option": "max_players", "low": 2, "high": 64}),
        ({"turn_seconds": 0}, {"reason": "untimed"}),
        ({"max_players": 4, "rounds": 4}, {"reason": "option_range", "option": "rounds", "low": 1, "high": 3}),
        ({"starts_at": clock.now()}, {"reason": "starts_at"}),
        ({"options": {"variant": "x"}}, {"reason": "unknown_option", "option": "variant", "options": RUNES_OPTIONS}),
    ):
        with pytest.raises(DomainError) as refused:
            await server.tournaments.create(ids[8], NewTournament(**{**good, **changes}))
        assert (refused.value.code, refused.value.params) == ("bad_options", params), changes
    async with server.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(Tournament)) == 0
