"""The month close (issue 13, item 4), on SQLite and PostgreSQL with a fake clock: at the turn of
the month every region's best three clans win gold, silver and bronze, with bonus clan points in
the new month and player points for their players, exactly once: run twice, raced from two
engines (as two processes), after a crash between regions and after one inside a region (the
rerun of a "restarted" process, on a new engine, finishes the rest once); and the server's loop
wakes at the turn of the month."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from app.clans import month_close
from app.clans.ladder_models import ClanTrophy, LadderMonth
from app.clans.models import Clan
from app.db.session import make_engine, make_sessionmaker
from app.matches.clock import FakeClock
from tests.clans.conftest import World
from tests.clans.ladder_world import (
    NOV,
    add_clan,
    clan_points,
    ladder_points,
    snapshot,
    trophies,
)
from tests.conftest import make_settings

MID_NOV = datetime(2026, 11, 15, 12, tzinfo=UTC)
DEC_1 = datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC)
DEC = "2026-12"
#: CZ-64: ALP 165 (founded first), GAM 165, EPS 40, ZET 10; SK-BL: BET 50; every other region: none
EXPECTED = [
    ("CZ-64", NOV, 1, "ALP", 165),
    ("CZ-64", NOV, 2, "GAM", 165),
    ("CZ-64", NOV, 3, "EPS", 40),
    ("SK-BL", NOV, 1, "BET", 50),
]


@pytest.fixture
def settings(world: World):
    return make_settings(world.url, clan_trophy_bonus=(300, 200, 100), clan_trophy_member_points=(50, 30, 20))


async def _november(world: World) -> None:
    for i, (leader, tag) in enumerate((("gam", "GAM"), ("eps", "EPS"), ("zet", "ZET"))):
        await add_clan(world, leader, tag, "CZ-64", i)
    await clan_points(world, "ALP", 120, NOV, "c1")
    await ladder_points(world, "lea", 45, NOV)
    await clan_points(world, "GAM", 165, NOV, "c2")
    await ladder_points(world, "eps", 40, NOV)
    await ladder_points(world, "zet", 10, NOV)
    await ladder_points(world, "oth", 50, NOV)


def _engine(world: World):
    engine = make_engine(world.url)
    world.engines.append(engine)
    return make_sessionmaker(engine)


async def _check_awarded_once(world: World) -> dict:
    assert await trophies(world) == EXPECTED
    state = await snapshot(world)
    # bonus clan points in December, once per trophy
    async with world.sessions() as s:
        ids = {c.tag: c.id for c in await s.scalars(select(Clan))}
    december = sorted((p[0], p[2], p[4]) for p in state["points"] if p[1] == DEC)
    assert december == sorted(
        [
            (ids["ALP"], 300, "CZ-64:2026-11:1"),
            (ids["GAM"], 200, "CZ-64:2026-11:2"),
            (ids["EPS"], 100, "CZ-64:2026-11:3"),
            (ids["BET"], 300, "SK-BL:2026-11:1"),
        ]
    )
    assert all(p[3] == "month_trophy" for p in state["points"] if p[1] == DEC)
    # player points: ALP's five players 50 each, GAM's, EPS's, BET's leaders 30, 20, 50
    u = world.users
    ledger = sorted((e[0], e[1], e[3]) for e in state["ledger"])
    assert ledger == sorted(
        [(u[n], 50, "CZ-64:2026-11:1") for n in ("lea", "off", "tof", "mem", "tgt")]
        + [(u["gam"], 30, "CZ-64:2026-11:2"), (u["eps"], 20, "CZ-64:2026-11:3"), (u["oth"], 50, "SK-BL:2026-11:1")]
    )
    assert {b[0]: b[1] for b in state["balances"]}[u["lea"]] == 50
    assert state["history"] == 4
    assert len(state["closes"]) == 23 and sum(c[2] for c in state["closes"]) == 4  # every region closed
    assert state["months"] == [(NOV, True), (DEC, False)]
    return state


async def test_the_month_close_awards_each_region_once_at_the_turn(world: World, settings) -> None:
    await _november(world)
    clock = FakeClock(MID_NOV)
    assert await month_close.close_due(world.sessions, settings, clock.now()) == []
    assert await trophies(world) == []
    assert (await snapshot(world))["months"] == [(NOV, False)]  # November started, not closed
    clock._now = DEC_1
    assert await month_close.close_due(world.sessions, settings, clock.now()) == [NOV]
    state = await _check_awarded_once(world)
    # twice, and later in December: nothing more
    assert await month_close.close_due(world.sessions, settings, clock.now()) == []
    clock.advance(86400 * 3)
    await month_close.close_month(world.sessions, settings, NOV, clock.now())  # even asked directly
    assert await snapshot(world) == state


async def test_two_processes_closing_at_once_award_once(world: World, settings, monkeypatch) -> None:
    await _november(world)
    await month_close.open_months(world.sessions, MID_NOV)
    makers = [_engine(world), _engine(world), _engine(world)]
    # all three have found November due before any closes it: "at once" by construction (left to
    # the scheduler, a process slow to start under load found it closed already and due nothing)
    all_found = asyncio.Barrier(len(makers))
    real = month_close.close_month

    async def close_when_all_found(sessions, settings, month, now):
        await all_found.wait()
        return await real(sessions, settings, month, now)

    monkeypatch.setattr(month_close, "close_month", close_when_all_found)
    results = await asyncio.gather(*(month_close.close_due(m, settings, DEC_1) for m in makers))
    assert all(r == [NOV] for r in results)  # each found November due and saw it closed
    await _check_awarded_once(world)


async def test_a_crash_between_regions_is_finished_once_after_a_restart(world: World, settings, monkeypatch) -> None:
    await _november(world)
    await month_close.open_months(world.sessions, MID_NOV)
    real = month_close.close_region

    async def crashing(sessions, settings, month, region, now):
        if region == "SK-BL":
            raise RuntimeError("the process died")
        return await real(sessions, settings, month, region, now)

    monkeypatch.setattr(month_close, "close_region", crashing)
    with pytest.raises(RuntimeError):
        await month_close.close_due(world.sessions, settings, DEC_1)
    assert await trophies(world) == EXPECTED[:3]  # CZ-64 was committed, SK-BL not
    assert (await snapshot(world))["months"][0] == (NOV, False)
    # meanwhile ZET's late points would now beat EPS: the closed region is not awarded again
    await ladder_points(world, "zet", 1000, NOV, pool="stratego_junior:quest")
    monkeypatch.setattr(month_close, "close_region", real)
    restarted = _engine(world)
    assert await month_close.close_due(restarted, settings, DEC_1) == [NOV]
    await _check_awarded_once(world)


async def test_a_crash_inside_a_region_rolls_the_region_back_whole(world: World, settings, monkeypatch) -> None:
    await _november(world)
    await month_close.open_months(world.sessions, MID_NOV)
    real = month_close.credit
    calls = 0

    async def failing_credit(*args, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 3:  # the third of ALP's players
            raise ConnectionError("the database went away")
        return await real(*args, **kwargs)

    monkeypatch.setattr(month_close, "credit", failing_credit)
    with pytest.raises(ConnectionError):
        await month_close.close_due(world.sessions, settings, DEC_1)
    state = await snapshot(world)
    assert state["trophies"] == [] and state["ledger"] == [] and state["history"] == 0
    assert not [p for p in state["points"] if p[1] == DEC]
    assert state["closes"] and all(c[1] < "CZ-64" for c in state["closes"])  # the regions before CZ-64 only
    monkeypatch.setattr(month_close, "credit", real)
    assert await month_close.close_due(_engine(world), settings, DEC_1) == [NOV]
    await _check_awarded_once(world)


async def test_a_month_with_no_points_closes_without_trophies_and_missed_months_close_too(
    world: World, settings
) -> None:
    await month_close.open_months(world.sessions, datetime(2026, 9, 3, tzinfo=UTC))
    await clan_points(world, "BET", 7, "2026-10", "c9")
    # the server was down from September to December: September, October and November close
    assert await month_close.close_due(world.sessions, settings, DEC_1) == ["2026-09", "2026-10", NOV]
    # October's gold brought BET 300 points in November, alone on its ladder: November's gold too
    assert await trophies(world) == [("SK-BL", "2026-10", 1, "BET", 7), ("SK-BL", NOV, 1, "BET", 300)]
    async with world.sessions() as s:
        months = [(m.month, m.closed_at is not None) for m in await s.scalars(select(LadderMonth))]
    assert sorted(months) == [("2026-09", True), ("2026-10", True), (NOV, True), (DEC, False)]


async def test_the_servers_loop_closes_the_month_when_it_turns(world: World, settings) -> None:
    await _november(world)
    fast = settings.model_copy(update={"clan_ladder_tick_seconds": 0.05})
    clock = FakeClock(datetime(2026, 11, 30, 23, 59, 59, tzinfo=UTC))
    task = month_close.start(_engine(world), fast, clock)
    try:
        async with asyncio.timeout(30):
            while (await snapshot(world))["months"] != [(NOV, False)]:
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # several ticks before the turn: nothing awarded
        assert await trophies(world) == []
        clock.advance(2)
        async with asyncio.timeout(60):
            while len(await trophies(world)) < len(EXPECTED):
                await asyncio.sleep(0.05)
            while (await snapshot(world))["months"] != [(NOV, True), (DEC, False)]:
                await asyncio.sleep(0.05)
    finally:
        await month_close.stop(task)
    await _check_awarded_once(world)
    async with world.sessions() as s:
        assert len(list(await s.scalars(select(ClanTrophy)))) == 4
