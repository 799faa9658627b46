"""Computer moves are chosen in the bot worker pool, off the match lock and the event loop: a slow
bot never delays another match; a move chosen for a state that has since changed is chosen again;
a hidden choice of another seat does not make it stale."""

from __future__ import annotations

import asyncio
import time

from app.matches.bots import BotJob, BotRunner, choose_action
from app.matches.service import BotSeat, MatchService
from tests.service.test_match_service import _events, _match

NAME = "tally_test"


class WatchedRunner(BotRunner):
    """The service's real runner (the worker pool), recording each job; with ``gate``, the first
    job waits for the test to open it before its answer is used."""

    def __init__(self, base: BotRunner, gate: asyncio.Event | None = None) -> None:
        super().__init__(
            base.kind, base.workers, timeout_seconds=base.timeout_seconds, imports=base.imports, nice=base.nice
        )
        self.jobs: list[BotJob] = []
        self.started = asyncio.Event()
        self.gate = gate

    async def choose(self, job: BotJob):
        self.jobs.append(job)
        self.started.set()
        action = await super().choose(job)
        if self.gate is not None and len(self.jobs) == 1:
            await self.gate.wait()
        return action


def _watched(env, gate=None) -> MatchService:
    runner = WatchedRunner(env.service.bots, gate)
    service = MatchService(
        env.service.sessionmaker, env.service.hub, settings=env.service.settings, clock=env.clock, bots=runner
    )
    return service


async def test_the_default_runner_is_a_process_pool(env):
    assert env.service.bots.kind == "process"


async def test_a_slow_bot_does_not_delay_another_match(env, toy):
    """The computer thinks two seconds of CPU for one match; a person's actions in another match
    are answered in under 100 ms meanwhile (the median of five: one can lose the CPU to another
    process on a busy machine; none waits for the bot)."""
    service = _watched(env)
    alice, bob, carol = env.users
    slow = (await service.create_match(alice, NAME, {"turn_seconds": 30, "target": 50}, bots=[BotSeat(1, "slow")]))[
        "id"
    ]
    snap = await service.snapshot(slow, 0)
    await service.act(slow, alice, {"add": 1}, snap["version"])  # now the slow computer seat is due
    other = (await service.create_match(bob, NAME, {"turn_seconds": 30, "target": 50}))["id"]
    await service.join(other, carol)
    await _add_timed(service, other, 0, bob)  # warm up the connections
    sweep = asyncio.create_task(service.process_due())
    await asyncio.wait_for(service.bots.started.wait(), 10)
    started = time.monotonic()
    timings = []
    for seat, user in ((1, carol), (0, bob), (1, carol), (0, bob), (1, carol)):
        timings.append(await _add_timed(service, other, seat, user))
    assert not sweep.done(), "the slow bot answered before the other match's actions were made"
    assert sorted(timings)[2] < 0.1 and max(timings) < 1.0, timings
    assert await sweep == 1
    assert time.monotonic() - started >= 1.0  # the slow bot really thought meanwhile
    bot_moves = [e for e in await _events(env, slow) if e.kind == "bot"]
    assert len(bot_moves) == 1 and bot_moves[0].payload["action"] == {"add": 2}


async def _add_timed(service, match_id, seat, user) -> float:
    snap = await service.snapshot(match_id, seat)
    t0 = time.perf_counter()
    await service.act(match_id, user, {"add": 1}, snap["version"])
    return time.perf_counter() - t0


async def test_a_move_chosen_for_an_old_state_is_chosen_again(env, toy):
    """The computer starts thinking for a person whose clock ran out; the person moves at the last
    moment; the computer's answer is for a state that is gone: it is dropped, and the computer
    chooses again for the seat now due (its own computer seat), from the new state."""
    gate = asyncio.Event()
    service = _watched(env, gate)
    alice = env.users[0]
    match_id = (
        await service.create_match(alice, NAME, {"turn_seconds": 10, "target": 50}, bots=[BotSeat(1, "random")])
    )["id"]
    env.clock.advance(11)
    sweep = asyncio.create_task(service.process_match(match_id))
    await asyncio.wait_for(service.bots.started.wait(), 10)
    first = service.bots.jobs[0]
    assert (first.seat, first.level) == (0, None)
    snap = await service.snapshot(match_id, 0)
    await service.act(match_id, alice, {"add": 2}, snap["version"])  # made while the computer thinks
    gate.set()
    assert await sweep == 1
    jobs = service.bots.jobs
    assert [(j.seat, j.level) for j in jobs] == [(0, None), (1, "random")]
    assert jobs[1].observation["points"] == [2, 0]  # chosen again, from the new state
    inputs = [(e.seat, e.kind) for e in await _events(env, match_id) if e.seat in (0, 1)]
    assert inputs == [(0, "action"), (1, "bot")]
    m = await _match(env, match_id)
    assert m.seats[0].timeouts_in_row == 0 and m.state["points"][0] == 2


async def test_a_hidden_choice_meanwhile_does_not_make_the_computer_choose_again(env):
    gate = asyncio.Event()
    service = _watched(env, gate)
    alice = env.users[0]
    match_id = (
        await service.create_match(
            alice,
            "battle_runes",
            {"turn_seconds": 30, "start_score": 500, "win_score": 1000},
            bots=[BotSeat(1, "random")],
        )
    )["id"]
    sweep = asyncio.create_task(service.process_match(match_id))
    await asyncio.wait_for(service.bots.started.wait(), 10)
    snap = await service.snapshot(match_id, 0)
    await service.act(match_id, alice, snap["legal"][0], snap["version"])  # a hidden choice
    gate.set()
    assert await sweep == 1
    assert len(service.bots.jobs) == 1
    events = await _events(env, match_id)
    assert [e.kind for e in events if e.seat in (0, 1)] == ["action", "bot"]
    resolved = [ev for e in events for ev in e.payload["events"] if ev["kind"] == "turn_resolved"]
    assert len(resolved) == 1


async def test_computer_moves_are_reproducible_from_the_seed(env, toy):
    """The worker's choice depends only on the job: the same job gives the same move in the pool
    and inline."""
    service = _watched(env)
    match_id = (
        await service.create_match(env.users[0], NAME, {"turn_seconds": 10, "target": 50}, bots=[BotSeat(1, "random")])
    )["id"]
    snap = await service.snapshot(match_id, 0)
    await service.act(match_id, env.users[0], {"add": 1}, snap["version"])
    await service.process_match(match_id)
    job = service.bots.jobs[0]
    stored = next(e for e in await _events(env, match_id) if e.kind == "bot").payload["action"]
    assert choose_action(job) == stored
    assert all([await service.bots.choose(job) == stored for _ in range(3)])


async def test_two_sweepers_think_about_an_overdue_seat_once_and_play_it_once(env, toy):
    """Two server processes sweep at the same moment: the first to claim the match leases it, so
    the other neither thinks about the seat nor plays it."""
    first, second = _watched(env), _watched(env)
    second.sessionmaker = env.other_service().sessionmaker  # another process's connections
    for _ in range(3):
        match_id = (await first.create_match(env.users[0], NAME, {"turn_seconds": 10, "target": 50}))["id"]
        await first.join(match_id, env.users[1])
        env.clock.advance(11)  # seat 0 is overdue; seat 1's clock starts after the timeout move
        jobs_before = len(first.bots.jobs) + len(second.bots.jobs)
        played = await asyncio.gather(
            first.process_match(match_id, skip_locked=True), second.process_match(match_id, skip_locked=True)
        )
        assert sorted(played) == [0, 1], played
        assert len(first.bots.jobs) + len(second.bots.jobs) == jobs_before + 1
        inputs = [(e.seat, e.kind) for e in await _events(env, match_id) if e.seat in (0, 1)]
        assert inputs == [(0, "timeout")]
