"""The time bank clock (``options.clock == "bank"``, :mod:`app.matches.time_control`): its options,
its arithmetic, simultaneous turns, the computer taking over when a bank runs out, per-turn
matches unchanged, and a restart that loses nothing. On a fake clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from app.errors import DomainError
from app.matches import heartbeat
from app.matches.service import BotSeat
from app.matches.time_control import TimeControl, normalize_time_control
from tests.service.test_clock import _kinds, _seat
from tests.service.test_match_service import LONG, _match

T0 = datetime(2026, 1, 1, tzinfo=UTC)


# ------------------------------------------------------------------ options and arithmetic


def test_a_match_without_a_clock_option_is_per_turn():
    tc = TimeControl.of({"turn_seconds": 45, "spectators": True})
    assert (tc.clock, tc.turn_seconds, tc.is_bank) == ("turn", 45, False)
    assert TimeControl.of({}).turn_seconds == 0  # untimed


def test_bank_arithmetic():
    tc = TimeControl.of({"clock": "bank", "bank_seconds": 600, "increment_seconds": 5})
    assert tc.bank_of(None) == 600_000 and tc.bank_of(1234) == 1234
    deadline = tc.deadline(T0, 600_000)
    assert deadline == T0 + timedelta(minutes=10)
    # 4 min 10 s spent: 5 min 50 s left, plus the increment
    assert tc.after_turn(deadline, T0 + timedelta(seconds=250)) == 350_000 + 5_000
    assert tc.running_left(deadline, T0 + timedelta(seconds=250)) == 350_000
    # an act after the bank ran out (within the late allowance) leaves only the increment
    assert tc.after_turn(deadline, deadline + timedelta(seconds=1)) == 5_000
    assert tc.running_left(deadline, deadline + timedelta(seconds=1)) == 0


@pytest.mark.parametrize(
    ("options", "stored"),
    [
        ({}, {"turn_seconds": 60}),
        ({"turn_seconds": 30}, {"turn_seconds": 30}),
        ({"clock": "turn", "turn_seconds": 0}, {"turn_seconds": 0}),
        ({"clock": "bank"}, {"clock": "bank", "bank_seconds": 600, "increment_seconds": 5}),
        (
            {"clock": "bank", "bank_seconds": 120, "increment_seconds": 0},
            {"clock": "bank", "bank_seconds": 120, "increment_seconds": 0},
        ),
    ],
)
def test_time_control_options_are_normalized(options, stored):
    assert normalize_time_control(options, default_turn=60, has_bots=False) == stored


BANK_RANGE = {"reason": "option_range", "option": "bank_seconds", "low": 2, "high": 30 * 24 * 3600}
INCREMENT_RANGE = {"reason": "option_range", "option": "increment_seconds", "low": 0, "high": 24 * 3600}


@pytest.mark.parametrize(
    "options, params",
    [
        ({"clock": "fischer"}, {"reason": "option_choice", "option": "clock", "choices": ["turn", "bank"]}),
        ({"clock": "bank", "bank_seconds": 1}, BANK_RANGE),
        ({"clock": "bank", "bank_seconds": "600"}, BANK_RANGE),
        ({"clock": "bank", "bank_seconds": True}, BANK_RANGE),
        ({"clock": "bank", "bank_seconds": 600.5}, BANK_RANGE),
        ({"clock": "bank", "increment_seconds": -1}, INCREMENT_RANGE),
        ({"clock": "bank", "increment_seconds": 10**9}, INCREMENT_RANGE),
        ({"clock": "bank", "turn_seconds": 60}, {"reason": "needs_turn_clock", "option": "turn_seconds"}),
        ({"bank_seconds": 600}, {"reason": "needs_bank_clock", "options": ["bank_seconds"]}),
        (
            {"clock": "turn", "increment_seconds": 5, "bank_seconds": 60},
            {"reason": "needs_bank_clock", "options": ["bank_seconds", "increment_seconds"]},
        ),
        ({"turn_seconds": 1}, {"reason": "option_range", "option": "turn_seconds", "low": 2, "high": 7 * 24 * 3600}),
        ({"turn_seconds": 0}, {"reason": "computer_untimed"}),
    ],
)
def test_bad_time_control_options_are_refused(options, params):
    with pytest.raises(DomainError) as refused:
        normalize_time_control(options, default_turn=60, has_bots=True)
    assert (refused.value.code, refused.value.params) == ("bad_options", params)


async def test_a_bad_bank_creates_no_match(env):
    with pytest.raises(DomainError) as refused:
        await env.service.create_match(env.users[0], "battle_runes", {"clock": "bank", "bank_seconds": 0})
    assert refused.value.code == "bad_options" and refused.value.params["option"] == "bank_seconds"
    assert (await env.service.list_matches(status=None)) == []


# ------------------------------------------------------------------ the bank in play


async def _bank_match(env, bank=30, increment=5, **extra):
    alice, bob = env.users[:2]
    options = {"clock": "bank", "bank_seconds": bank, "increment_seconds": increment, **LONG, **extra}
    info = await env.service.create_match(alice, "battle_runes", options)
    assert info["options"]["clock"] == "bank" and "turn_seconds" not in info["options"]
    info = await env.service.join(info["id"], bob)
    assert info["status"] == "active"
    return info["id"]


async def _pick(env, match_id, seat):
    snap = await env.service.snapshot(match_id, seat)
    return await env.service.act(match_id, env.users[seat], snap["legal"][0], snap["version"])


async def test_simultaneous_turn_spends_every_due_seat_bank_at_once(env):
    match_id = await _bank_match(env, bank=30, increment=5)
    start = env.clock.now()
    for seat in (0, 1):  # both must pick: both banks run from the start
        assert (await _seat(env, match_id, seat)).deadline_at == start + timedelta(seconds=30)
    clock = (await env.service.snapshot(match_id, None))["clock"]
    assert clock["clock"] == "bank" and clock["bank_ms"] == {"0": 30_000, "1": 30_000}
    assert clock["increment_seconds"] == 5 and clock["bank_seconds"] == 30

    env.clock.advance(10)
    await _pick(env, match_id, 0)  # seat 0 chose after 10 s: its clock stops, + 5 s
    seat0, seat1 = await _seat(env, match_id, 0), await _seat(env, match_id, 1)
    assert seat0.bank_ms == 25_000 and seat0.deadline_at is None
    assert seat1.bank_ms is None and seat1.deadline_at == start + timedelta(seconds=30)  # still running
    clock = (await env.service.snapshot(match_id, 0))["clock"]
    assert clock["bank_ms"] == {"0": 25_000, "1": 20_000} and clock["remaining_ms"] == {"1": 20_000}

    env.clock.advance(6)
    await _pick(env, match_id, 1)  # the turn resolves: seat 1 spent 16 s, + 5 s
    now = env.clock.now()
    seat0, seat1 = await _seat(env, match_id, 0), await _seat(env, match_id, 1)
    assert seat1.bank_ms == 19_000
    # the next turn: both banks run again from what each has
    assert seat0.deadline_at == now + timedelta(seconds=25)
    assert seat1.deadline_at == now + timedelta(seconds=19)
    assert (await _match(env, match_id)).deadline_at == now + timedelta(seconds=19)
    env.clock.advance(4)
    clock = (await env.service.snapshot(match_id, 1))["clock"]
    assert clock["remaining_ms"] == {"0": 21_000, "1": 15_000} == clock["bank_ms"]
    assert await env.service.process_due() == 0  # nobody is out of time


async def test_the_computer_takes_over_when_a_bank_runs_out(env):
    match_id = await _bank_match(env, bank=4, increment=1)
    env.clock.advance(3)
    await _pick(env, match_id, 1)  # seat 1 in time: 1 s left + 1 s
    assert (await _seat(env, match_id, 1)).bank_ms == 2_000
    env.clock.advance(1.5)  # seat 0's 4 s are gone
    assert await env.service.process_due() == 1
    assert (await _kinds(env, match_id, seat=0))[-1] == "timeout"
    seat0 = await _seat(env, match_id, 0)
    assert seat0.bank_ms == 1_000 and seat0.timeouts_in_row == 1 and not seat0.away  # only the increment left
    assert seat0.deadline_at == env.clock.now() + timedelta(seconds=1)
    # the next turn: seat 0 runs out again and is away; the computer plays it at once from now on
    await _pick(env, match_id, 1)
    env.clock.advance(1.5)
    assert await env.service.process_due() == 1
    seat0 = await _seat(env, match_id, 0)
    assert seat0.away and seat0.timeouts_in_row == 2
    assert (await _kinds(env, match_id, seat=0)).count("timeout") == 2
    snap = await env.service.snapshot(match_id, 1)
    assert snap["clock"]["away"] == [0]
    # an away seat spends no bank: it keeps the increment it had for when the player is back
    assert snap["clock"]["bank_ms"]["0"] == 1_000
    await env.service.set_back(match_id, env.users[0])
    await env.service.process_due()
    seat0 = await _seat(env, match_id, 0)
    assert not seat0.away and seat0.deadline_at == env.clock.now() + timedelta(seconds=1)


async def test_with_no_increment_an_empty_bank_leaves_the_seat_to_the_computer(env):
    match_id = await _bank_match(env, bank=2, increment=0)
    await _pick(env, match_id, 1)
    env.clock.advance(3)
    assert await env.service.process_due() == 1  # timeout 1: the bank is 0
    assert (await _seat(env, match_id, 0)).bank_ms == 0
    await _pick(env, match_id, 1)
    assert await env.service.process_due() == 1  # due at once: timeout 2, away
    assert (await _seat(env, match_id, 0)).away


async def test_a_sequential_game_spends_the_bank_of_the_seat_to_move(env, toy):
    alice, bob = env.users[:2]
    info = await env.service.create_match(
        alice, toy.NAME, {"clock": "bank", "bank_seconds": 10, "increment_seconds": 2, "target": 100}
    )
    match_id = (await env.service.join(info["id"], bob))["id"]
    assert (await _seat(env, match_id, 1)).deadline_at is None  # not seat 1's turn: its bank waits
    for seat, spent, bank in ((0, 3, 9_000), (1, 7, 5_000), (0, 1, 10_000)):
        env.clock.advance(spent)
        snap = await env.service.snapshot(match_id, seat)
        await env.service.act(match_id, env.users[seat], snap["legal"][0], snap["version"])
        assert (await _seat(env, match_id, seat)).bank_ms == bank
        assert (await _seat(env, match_id, seat)).deadline_at is None
        other = await _seat(env, match_id, 1 - seat)
        assert other.deadline_at == env.clock.now() + timedelta(milliseconds=other.bank_ms or 10_000)


async def test_a_time_bank_match_against_the_computer(env):
    info = await env.service.create_match(
        env.users[0],
        "battle_runes",
        {"clock": "bank", "bank_seconds": 20, "increment_seconds": 3, **LONG},
        bots=[BotSeat(1)],
    )
    assert info["status"] == "active"
    match_id = info["id"]
    await env.service.process_due()  # the computer picks (bot delay 0): no bank of its own
    assert (await _seat(env, match_id, 1)).bank_ms is None
    clock = (await env.service.snapshot(match_id, 0))["clock"]
    assert clock["bank_ms"] == {"0": 20_000} and clock["remaining_ms"] == {"0": 20_000}


async def test_per_turn_matches_are_unchanged(env):
    alice, bob = env.users[:2]
    info = await env.service.create_match(alice, "battle_runes", {"turn_seconds": 20, **LONG})
    assert "clock" not in info["options"] and info["options"]["turn_seconds"] == 20
    match_id = (await env.service.join(info["id"], bob))["id"]
    env.clock.advance(15)
    await _pick(env, match_id, 0)
    await _pick(env, match_id, 1)
    seat0 = await _seat(env, match_id, 0)
    assert seat0.bank_ms is None and seat0.deadline_at == env.clock.now() + timedelta(seconds=20)
    clock = (await env.service.snapshot(match_id, 0))["clock"]
    assert clock["clock"] == "turn" and "bank_ms" not in clock


async def test_the_bank_survives_a_restart(env):
    """The banks are in the database: a new process (no cached match) after ten minutes of
    downtime shows the same banks, and the downtime costs nobody time."""
    postgres = not env.service.settings.is_sqlite
    match_id = await _bank_match(env, bank=60, increment=5)
    env.clock.advance(20)
    await _pick(env, match_id, 0)  # seat 0 stopped at 45 s; seat 1's runs: 40 s left
    before = (await env.service.snapshot(match_id, None))["clock"]
    assert before["bank_ms"] == {"0": 45_000, "1": 40_000}
    await heartbeat.beat(env.service.background, env.clock.now(), postgres=postgres)  # its last beat

    env.clock.advance(600)  # the server is down
    restarted = env.other_service()
    shift = await heartbeat.recover(restarted.background, env.clock.now(), postgres=postgres)
    assert shift.total_seconds() == 600
    after = (await restarted.snapshot(match_id, None))["clock"]
    assert after["bank_ms"] == before["bank_ms"] and after["remaining_ms"] == {"1": 40_000}
    assert await restarted.process_due() == 0
    env.clock.advance(39)
    assert await restarted.process_due() == 0
    env.clock.advance(2)  # seat 1's 40 s are gone now
    assert await restarted.process_due() == 1
    assert (await _kinds(env, match_id, seat=1))[-1] == "timeout"
    await restarted.stop_workers()
