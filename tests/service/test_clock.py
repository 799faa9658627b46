"""Turn clocks with a fake clock: takeover, away and back, races with the deadline, stale timers,
resignation, expiry and abandonment."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from app.api.errors import http_status
from app.errors import DomainError
from app.matches.models import Match, MatchEvent, MatchSeat
from app.matches.service import BotSeat
from tests.service.test_match_service import _events, _match, _two_player_match


async def _seat(env, match_id, seat):
    async with env.service.sessionmaker() as s:
        return await s.get(MatchSeat, (match_id, seat))


async def _kinds(env, match_id, seat=None):
    return [e.kind for e in await _events(env, match_id) if seat is None or e.seat == seat]


async def test_two_timeouts_make_a_seat_away_and_the_player_takes_it_back(env):
    match_id = await _two_player_match(env, turn_seconds=20)
    alice = env.users[0]
    # turn 1: bob acts, alice's clock runs out
    for turn in range(2):
        snap = await env.service.snapshot(match_id, 1)
        await env.service.act(match_id, env.users[1], snap["legal"][0], snap["version"])
        env.clock.advance(21)
        assert await env.service.process_due() == 1
        assert (await _seat(env, match_id, 0)).timeouts_in_row == turn + 1
    seat0 = await _seat(env, match_id, 0)
    assert seat0.away and seat0.away_since == env.clock.now()
    assert (await _kinds(env, match_id, seat=0)).count("timeout") == 2
    # everybody sees who is away
    for viewer in (0, 1, None):
        snap = await env.service.snapshot(match_id, viewer)
        assert snap["clock"]["away"] == [0] and snap["seats"][0]["away"] is True
    # now the computer plays seat 0 at once (no waiting for the 20 s clock)
    # (bot delay 0): each turn the away seat is played with no clock advance
    for _ in range(2):
        await env.service.process_due()
        snap = await env.service.snapshot(match_id, 1)
        assert snap["chosen"] == [0]
        await env.service.act(match_id, env.users[1], snap["legal"][0], snap["version"])
        assert (await env.service.snapshot(match_id, 1))["view"]["turn"] == snap["view"]["turn"] + 1
    # "I'm back": the seat is the player's again and its clock restarts
    await env.service.set_back(match_id, alice)
    seat0 = await _seat(env, match_id, 0)
    assert not seat0.away and seat0.timeouts_in_row == 0
    assert (await _kinds(env, match_id, seat=0))[-1] == "back"
    await env.service.process_due()
    snap = await env.service.snapshot(match_id, 1)
    await env.service.act(match_id, env.users[1], snap["legal"][0], snap["version"])
    seat0 = await _seat(env, match_id, 0)
    assert (seat0.deadline_at - env.clock.now()).total_seconds() == 20  # a person's clock again
    assert await env.service.process_due() == 0
    assert (await env.service.snapshot(match_id, 0))["legal"]


async def test_acting_clears_away(env):
    match_id = await _two_player_match(env, turn_seconds=20)
    for _ in range(2):
        env.clock.advance(21)
        await env.service.process_due()
    assert (await _seat(env, match_id, 0)).away and (await _seat(env, match_id, 1)).away
    # both away: the computer plays on; a human act takes the seat back
    snap = await env.service.snapshot(match_id, 0)
    await env.service.act(match_id, env.users[0], snap["legal"][0], snap["version"])
    assert not (await _seat(env, match_id, 0)).away


async def test_move_racing_its_deadline_applies_exactly_once(env):
    """The player's act and the sweeper reach the match at the same moment: one of them applies."""
    other = env.other_service()  # the timer fires in another server process
    for _ in range(4):
        match_id = await _two_player_match(env, turn_seconds=20)
        snap = await env.service.snapshot(match_id, 0)
        env.clock.advance(21)
        results = await asyncio.gather(
            env.service.act(match_id, env.users[0], snap["legal"][0], snap["version"]),
            other.process_match(match_id),
            return_exceptions=True,
        )
        seat0 = [e for e in await _events(env, match_id) if e.seat == 0 and e.kind in ("action", "timeout")]
        assert len(seat0) == 1, (results, [e.kind for e in seat0])
        if seat0[0].kind == "timeout":
            assert isinstance(results[0], DomainError) and results[0].code in ("not_your_turn", "stale_version")
        else:
            assert isinstance(results[0], int)


async def test_a_stale_timer_does_nothing(env):
    match_id = await _two_player_match(env, turn_seconds=20)
    env.clock.advance(19)
    # both seats act just before the deadline; the new turn gets fresh deadlines
    for seat in (0, 1):
        snap = await env.service.snapshot(match_id, seat)
        await env.service.act(match_id, env.users[seat], snap["legal"][0], snap["version"])
    env.clock.advance(2)  # past the old deadline, not the new one
    before = (await _match(env, match_id)).version
    assert await env.service.process_due() == 0
    assert await env.service.process_match(match_id) == 0
    assert (await _match(env, match_id)).version == before


async def test_untimed_match_never_times_out(env):
    match_id = await _two_player_match(env, turn_seconds=0)
    env.clock.advance(10 * 24 * 3600)
    assert await env.service.process_due() == 0
    m = await _match(env, match_id)
    assert m.deadline_at is None and m.status == "active"


async def test_resign_ends_the_match(env):
    match_id = await _two_player_match(env)
    await env.service.resign(match_id, env.users[1])
    m = await _match(env, match_id)
    assert m.status == "finished" and m.result["results"] == ["win", "loss"]
    assert m.result["reason"] == "resigned"
    assert (await _kinds(env, match_id))[-2:] == ["resign", "end"]
    with pytest.raises(DomainError) as e:
        await env.service.resign(match_id, env.users[0])
    assert e.value.code == "game_over"


async def test_waiting_match_expires(env):
    info = await env.service.create_match(env.users[0], "battle_runes", {})
    env.clock.advance(env.service.settings.waiting_expiry_seconds - 1)
    assert await env.service.expire_waiting() == 0
    env.clock.advance(2)
    assert await env.service.process_due() == 1
    m = await _match(env, info["id"])
    assert m.status == "aborted" and m.result["reason"] == "expired"
    with pytest.raises(DomainError) as e:
        await env.service.join(info["id"], env.users[1])
    assert e.value.code == "not_waiting"


async def test_match_where_every_human_is_away_is_abandoned(env):
    info = await env.service.create_match(
        env.users[0],
        "battle_runes",
        {"turn_seconds": 20, "start_score": 1000, "win_score": 5000},
        bots=[BotSeat(1, "random")],
    )
    match_id = info["id"]
    limit = env.service.settings.abandon_after_seconds
    waited = 0.0
    while waited <= limit + 60:
        env.clock.advance(21)
        waited += 21
        await env.service.process_due()
        m = await _match(env, match_id)
        if m.status != "active":
            break
    seat0 = await _seat(env, match_id, 0)
    assert m.status == "finished" and m.result["reason"] == "abandoned"
    assert (env.clock.now() - seat0.away_since).total_seconds() >= limit
    assert "abandoned" in await _kinds(env, match_id)


async def test_restart_resumes_clocks_from_the_database(env):
    """A new service (a restarted process) handles a deadline that passed while it was down."""
    match_id = await _two_player_match(env, turn_seconds=20)
    await env.service.stop_workers()
    env.clock.advance(25)
    restarted = env.other_service()
    assert await restarted.process_due() == 1
    async with restarted.sessionmaker() as s:
        kinds = (await s.execute(select(MatchEvent.kind).where(MatchEvent.match_id == match_id))).scalars().all()
    assert kinds.count("timeout") == 2
    m = await _match(env, match_id)
    assert isinstance(m, Match) and (m.deadline_at - env.clock.now()).total_seconds() == 20


async def test_cancel_and_open_match_limit(env):
    alice, bob = env.users[:2]
    limit = env.service.settings.max_open_matches
    ids = [(await env.service.create_match(alice, "battle_runes", {}))["id"] for _ in range(limit)]
    with pytest.raises(DomainError) as e:
        await env.service.create_match(alice, "battle_runes", {})
    assert e.value.code == "too_many_matches" and http_status(e.value.code) == 429
    # a match against the computer starts at once, so it does not count
    assert (await env.service.create_match(alice, "battle_runes", {}, bots=[BotSeat(1)]))["status"] == "active"
    with pytest.raises(DomainError) as e:
        await env.service.cancel(ids[0], bob)
    assert e.value.code == "forbidden"
    info = await env.service.cancel(ids[0], alice)
    assert info["status"] == "aborted" and info["result"]["reason"] == "cancelled"
    with pytest.raises(DomainError) as e:
        await env.service.cancel(ids[0], alice)
    assert e.value.code == "not_waiting"
    assert (await env.service.create_match(alice, "battle_runes", {}))["status"] == "waiting"


async def test_an_act_after_the_deadline_is_refused_as_too_late_and_the_timeout_applies(env):
    """Decided in the write path, not by the sweeper's tick: within the allowance (2 s) an act
    counts; after it, the act is refused with ``too_late``, nothing is stored, and the computer
    plays the seat's timeout."""
    match_id = await _two_player_match(env, turn_seconds=20)
    alice, bob = env.users[:2]
    snap = await env.service.snapshot(match_id, 0)
    env.clock.advance(21.5)  # past the deadline, within the allowance for network lag
    await env.service.act(match_id, alice, snap["legal"][0], snap["version"])
    snap = await env.service.snapshot(match_id, 1)
    env.clock.advance(23)  # bob's deadline (restarted by nothing: a hidden choice) passed 2 s ago
    with pytest.raises(DomainError) as refused:
        await env.service.act(match_id, bob, snap["legal"][0], snap["version"])
    assert refused.value.code == "too_late" and refused.value.params["late_ms"] > 0
    assert http_status("too_late") == 409
    assert (await _kinds(env, match_id, seat=1)).count("action") == 0  # nothing stored
    assert await env.service.process_due() == 1
    assert (await _kinds(env, match_id, seat=1))[-1] == "timeout"


async def test_deadlines_move_by_the_downtime_after_a_restart(env):
    """No process ran for ten minutes: at the next start every running match's deadlines move
    later by the gap, so the sweeper plays no timeout for the time the server was down; a second
    start right after moves nothing."""
    from app.matches import heartbeat

    postgres = not env.service.settings.is_sqlite
    await heartbeat.beat(env.service.background, env.clock.now(), postgres=postgres)
    match_id = await _two_player_match(env, turn_seconds=20)
    before = (await _seat(env, match_id, 0)).deadline_at
    env.clock.advance(600)  # the server is down
    shift = await heartbeat.recover(env.service.background, env.clock.now(), postgres=postgres)
    assert shift.total_seconds() == 600
    seat0 = await _seat(env, match_id, 0)
    assert seat0.deadline_at == before + shift
    async with env.service.sessionmaker() as s:
        assert (await s.get(Match, match_id)).deadline_at == before + shift
    env.service.live.forget(match_id)  # a new process has no cached matches
    assert await env.service.process_due() == 0  # no turn lost to the downtime
    env.clock.advance(5)
    assert (await heartbeat.recover(env.service.background, env.clock.now(), postgres=postgres)).total_seconds() == 0
    env.clock.advance(16)  # the moved deadline passes: now the timeout applies
    assert await env.service.process_due() == 1
