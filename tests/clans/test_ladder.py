"""Clan standings (issue 13, item 4), hand-computed, on SQLite and PostgreSQL: a clan's score in a
month is its clan points of that month plus its players' (now) ladder points of that month in
every pool; ties go to the clan founded first; only clans above 0 are listed; per region and
overall; pages."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from app.clans import ladder, service
from app.clans.models import Clan
from tests.clans.conftest import World
from tests.clans.ladder_world import NOV, add_clan, add_players, clan_points, ladder_points

NOW = datetime(2026, 11, 20, tzinfo=UTC)


async def _points(world: World) -> None:
    """ALP (CZ-64): clan points 100 + 20, lea 30 + 5 (two pools), mem 10 -> 165.
    GAM (CZ-64, founded after ALP): clan points 165 -> 165 (tied with ALP).
    BET (SK-BL): oth 50 -> 50. DEL (CZ-64): nothing -> not listed.
    Not counted: October's points, and a player in no clan."""
    await add_clan(world, "gam", "GAM", "CZ-64", 1)
    await add_clan(world, "del", "DEL", "CZ-64", 2)
    await add_players(world, "loner")
    await clan_points(world, "ALP", 100, NOV, "c1")
    await clan_points(world, "ALP", 20, NOV, "a1", reason="adjust")
    await clan_points(world, "ALP", 500, "2026-10", "c0")
    await ladder_points(world, "lea", 30, NOV)
    await ladder_points(world, "lea", 5, NOV, pool="stratego_junior:quest")
    await ladder_points(world, "lea", 77, "2026-10")
    await ladder_points(world, "mem", 10, NOV)
    await ladder_points(world, "loner", 1000, NOV)
    await clan_points(world, "GAM", 165, NOV, "c2")
    await ladder_points(world, "oth", 50, NOV)


def _rows(page: dict) -> list[tuple[int, str, int, int, int]]:
    return [(r["place"], r["clan"]["tag"], r["score"], r["clan_points"], r["member_points"]) for r in page["rows"]]


async def test_scores_add_clan_points_and_members_ladder_points_of_the_month(world: World) -> None:
    await _points(world)
    async with world.sessions() as s:
        overall = await ladder.standings(s, NOV, now=NOW)
        region = await ladder.standings(s, NOV, "CZ-64", now=NOW)
        slovak = await ladder.standings(s, NOV, "SK-BL", now=NOW)
        october = await ladder.standings(s, "2026-10", now=NOW)
        empty = await ladder.standings(s, NOV, "CZ-10", now=NOW)
    assert _rows(overall) == [(1, "ALP", 165, 120, 45), (2, "GAM", 165, 165, 0), (3, "BET", 50, 0, 50)]
    assert overall["total"] == 3 and overall["pages"] == 1 and overall["month"] == NOV
    assert _rows(region) == [(1, "ALP", 165, 120, 45), (2, "GAM", 165, 165, 0)]
    assert _rows(slovak) == [(1, "BET", 50, 0, 50)]
    assert _rows(october) == [(1, "ALP", 577, 500, 77)]
    assert empty["rows"] == [] and empty["total"] == 0
    assert [m["month"] for m in overall["months"]][:3] == ["2026-11", "2026-10", "2026-09"]
    assert len(overall["months"]) == 12 and overall["current"] == NOV and not overall["closed"]
    assert all(r["trophy"] is None for r in overall["rows"]) and overall["trophies"] == []


async def test_the_clans_own_standing_and_place_in_its_region(world: World) -> None:
    await _points(world)
    async with world.sessions() as s:
        ids = {c.tag: c.id for c in await s.scalars(select(Clan))}
        alp = await ladder.clan_standing(s, ids["ALP"], NOV)
        gam = await ladder.clan_standing(s, ids["GAM"], NOV)
        bet = await ladder.clan_standing(s, ids["BET"], NOV)
        dead = await ladder.clan_standing(s, ids["DEL"], NOV)
    assert alp == {"month": NOV, "region": "CZ-64", "score": 165, "clan_points": 120, "member_points": 45, "place": 1}
    assert (gam["score"], gam["place"]) == (165, 2)
    assert (bet["score"], bet["place"]) == (50, 1)
    assert (dead["score"], dead["place"]) == (0, None)


async def test_players_count_for_the_clan_they_are_in_now(world: World) -> None:
    await _points(world)
    await world.do(service.leave, world.users["mem"], "ALP")  # mem's 10 points leave with him
    async with world.sessions() as s:
        region = await ladder.standings(s, NOV, "CZ-64", now=NOW)
    assert _rows(region) == [(1, "GAM", 165, 165, 0), (2, "ALP", 155, 120, 35)]
    await world.do(service.disband, world.users["gam"], "GAM")  # a disbanded clan is not listed
    async with world.sessions() as s:
        region = await ladder.standings(s, NOV, "CZ-64", now=NOW)
    assert _rows(region) == [(1, "ALP", 155, 120, 35)]


async def test_pages_of_fifty(world: World, monkeypatch) -> None:
    monkeypatch.setattr(ladder, "PAGE_ROWS", 2)
    await _points(world)
    async with world.sessions() as s:
        first = await ladder.standings(s, NOV, page=1, now=NOW)
        second = await ladder.standings(s, NOV, page=2, now=NOW)
        past = await ladder.standings(s, NOV, page=3, now=NOW)
    assert [r["clan"]["tag"] for r in first["rows"]] == ["ALP", "GAM"] and first["pages"] == 2
    assert _rows(second) == [(3, "BET", 50, 0, 50)] and second["total"] == 3
    assert past["rows"] == [] and past["total"] == 3
