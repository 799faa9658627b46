"""The challenge deadline job (issue 13, item 3) on a fake clock, on SQLite and PostgreSQL: what
the deadline does to each kind of board, and that it does it exactly once: run twice, run by two
processes at once (two engines), and after a crash, by a new job on a new engine (a restart)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from unittest import mock

import pytest
from sqlalchemy import select, update

from app.clans.challenges import deadlines
from app.clans.challenges.matches import LEASE
from app.clans.challenges.models import ChallengeBoard, ChallengeStatus, Side
from app.db.session import make_engine, make_sessionmaker
from app.matches.models import CHALLENGE, Match
from tests.clans.challenges.conftest import POINTS, Arena

DAY = 24 * 3600


async def test_an_unanswered_challenge_expires_at_its_deadline(arena: Arena) -> None:
    cid = await arena.propose(hours=24)
    job = arena.deadlines()
    arena.clock.advance(DAY - 1)
    assert await job.run_once() == 0
    assert (await arena.challenge(cid)).status == ChallengeStatus.PROPOSED
    arena.clock.advance(1)
    assert await job.run_once() == 1
    assert (await arena.challenge(cid)).status == ChallengeStatus.EXPIRED
    assert (await arena.w.history_codes("BET"))[-1] == "challenge_expired"
    once = await arena.effects()
    assert await job.run_once() == 0
    assert await arena.effects() == once


async def _mixed(arena: Arena) -> int:
    """A 3-board challenge at its deadline: board 1 running, board 2 with only ALP's player,
    board 3 with nobody."""
    cid = await arena.propose(boards=3, hours=24)
    await arena.accept(cid)
    await arena.name(cid, 1, Side.CHALLENGER, "mem")
    await arena.name(cid, 1, Side.CHALLENGED, "bme")
    await arena.name(cid, 2, Side.CHALLENGER, "off")
    await arena.start(cid)
    arena.clock.advance(DAY)
    return cid


async def test_at_the_deadline_absent_sides_forfeit_and_a_running_board_finishes(arena: Arena) -> None:
    cid = await _mixed(arena)
    assert await arena.deadlines().run_once() == 1
    boards = {b: await arena.board(cid, b) for b in (1, 2, 3)}
    assert boards[1].winner is None  # running: let it finish
    assert (boards[2].winner, boards[2].forfeit) == ("challenger", "challenged")
    assert (boards[3].winner, boards[3].forfeit) == ("none", "both")
    ch = await arena.challenge(cid)
    assert ch.status == ChallengeStatus.ACCEPTED and ch.deadline_done
    # the running board ends after the deadline: its result decides it, and the series finishes
    await arena.lose(cid, 1, "mem")
    await arena.consume()
    ch = await arena.challenge(cid)
    assert (ch.status, ch.result, ch.challenger_wins, ch.challenged_wins) == ("finished", "draw", 1, 1)


async def test_a_deadline_that_decides_every_board_finishes_the_series(arena: Arena) -> None:
    cid = await arena.propose(boards=2, hours=24)
    await arena.accept(cid)
    await arena.name(cid, 1, Side.CHALLENGER, "mem")
    await arena.name(cid, 2, Side.CHALLENGER, "mem")
    arena.clock.advance(DAY)
    await arena.deadlines().run_once()
    ch = await arena.challenge(cid)
    assert (ch.status, ch.result, ch.challenger_wins) == ("finished", "win", 2)
    effects = await arena.effects()
    assert [(p[2], p[3], p[4]) for p in effects["clan_points"]] == [(POINTS.win, "challenge_win", str(cid))]
    assert sorted(p[3] for p in effects["player_points"]) == [f"{cid}:1", f"{cid}:2"]


async def test_a_match_that_never_started_is_forfeited_by_the_empty_seat(arena: Arena) -> None:
    """A start cut short after the match was created and one player seated (a process died):
    at the deadline the other player did not show."""
    cid = await arena.propose(boards=1, hours=24)
    await arena.accept(cid)
    await arena.name(cid, 1, Side.CHALLENGER, "mem")
    await arena.name(cid, 1, Side.CHALLENGED, "bme")
    info = await arena.matches.create_match(
        None, "battle_runes", {"turn_seconds": 60}, players=2, origin=CHALLENGE, origin_ref=f"{cid}:1"
    )
    await arena.matches.join(info["id"], arena.users["mem"])
    async with arena.w.sessions() as s, s.begin():  # the starter's lease, still running at the deadline
        await s.execute(update(ChallengeBoard).values(starting_until=arena.clock.now() + timedelta(days=2)))
    arena.clock.advance(DAY)
    await arena.deadlines().run_once()
    row = await arena.board(cid, 1)
    assert (row.winner, row.forfeit) == ("challenger", "challenged")


async def test_a_start_cut_short_is_finished_by_a_later_pass_without_a_second_match(arena: Arena) -> None:
    cid = await arena.propose(boards=1, hours=24)
    await arena.accept(cid)
    await arena.name(cid, 1, Side.CHALLENGER, "mem")
    await arena.name(cid, 1, Side.CHALLENGED, "bme")
    # the first starter created the match and took its lease, then died
    info = await arena.matches.create_match(
        None, "battle_runes", {"turn_seconds": 60}, players=2, origin=CHALLENGE, origin_ref=f"{cid}:1"
    )
    async with arena.w.sessions() as s, s.begin():
        await s.execute(update(ChallengeBoard).values(starting_until=arena.clock.now() + LEASE))
    assert await arena.start(cid) == []  # the lease still runs
    arena.clock.advance(120)
    restarted = arena.other_matches()
    await arena.deadlines(restarted).run_once()
    row = await arena.board(cid, 1)
    assert row.match_id == info["id"]
    async with arena.w.sessions() as s:
        ids = list(await s.scalars(select(Match.id).where(Match.origin_ref == f"{cid}:1")))
        m = await s.get(Match, info["id"])
        assert m is not None and [seat.user_id for seat in m.seats] == [arena.users["mem"], arena.users["bme"]]
    assert ids == [info["id"]] and m.status == "active"


async def test_the_deadline_job_run_twice_changes_things_once(arena: Arena) -> None:
    cid = await _mixed(arena)
    job = arena.deadlines()
    assert await job.run_once() == 1
    once = await arena.effects()
    assert await job.run_once() == 0
    assert await arena.deadlines().run_once() == 0  # a new job (a restart) too
    assert await arena.effects() == once
    assert (await arena.w.history_codes("ALP")).count("challenge_finished") == 0
    assert (await arena.challenge(cid)).deadline_done


@pytest.mark.parametrize("rounds", [1, 3])
async def test_two_processes_running_the_job_at_once_apply_each_deadline_once(arena: Arena, rounds: int) -> None:
    """Two jobs on two engines, started at the same moment, over several due challenges."""
    ids = []
    for _ in range(rounds):
        cid = await arena.propose(boards=2, hours=24)
        await arena.accept(cid)
        await arena.name(cid, 1, Side.CHALLENGER, "mem")
        await arena.name(cid, 2, Side.CHALLENGED, "bme")
        ids.append(cid)
    expiring = await arena.propose(hours=24, open_limit=10)
    arena.clock.advance(DAY)
    jobs = [arena.deadlines(), arena.deadlines(arena.other_matches())]
    done = await asyncio.gather(*(job.run_once() for job in jobs))
    assert sum(done) == rounds + 1
    assert await asyncio.gather(*(job.run_once() for job in jobs)) == [0, 0]
    effects = await arena.effects()
    for cid in ids:
        ch = await arena.challenge(cid)
        assert (ch.status, ch.result, ch.challenger_wins, ch.challenged_wins) == ("finished", "draw", 1, 1)
    assert (await arena.challenge(expiring)).status == ChallengeStatus.EXPIRED
    codes = await arena.w.history_codes("ALP")
    assert codes.count("challenge_finished") == rounds and codes.count("challenge_expired") == 1
    assert effects["clan_points"] == []  # drawn series: nothing credited


async def test_a_crash_before_the_commit_is_redone_once_after_a_restart(arena: Arena) -> None:
    cid = await arena.propose(boards=1, hours=24)
    await arena.accept(cid)
    await arena.name(cid, 1, Side.CHALLENGER, "mem")
    arena.clock.advance(DAY)
    before = await arena.effects()
    crash = mock.patch.object(deadlines, "finish_if_decided", side_effect=RuntimeError("the process died"))
    with crash, pytest.raises(RuntimeError):
        await arena.deadlines().run_once()
    assert await arena.effects() == before  # nothing of the pass was kept
    engine = make_engine(arena.w.url)  # the process restarts: a new engine, a new job
    arena.w.engines.append(engine)
    restarted = deadlines.ChallengeDeadlines(make_sessionmaker(engine), arena.clock, POINTS)
    assert await restarted.run_once() == 1
    assert await restarted.run_once() == 0
    ch = await arena.challenge(cid)
    assert (ch.status, ch.result) == ("finished", "win")
    assert len((await arena.effects())["clan_points"]) == 1
