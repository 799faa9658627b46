"""The per-process cache of live matches: bounded, ended matches bounded apart, stale on notice."""

from __future__ import annotations

from types import SimpleNamespace

from app.matches.live import LiveMatches


def _live(match_id: int, version: int = 1, status: str = "active"):
    return SimpleNamespace(match_id=match_id, version=version, status=status)


def test_least_recently_used_goes_first_and_ended_matches_are_bounded_apart():
    cache = LiveMatches(capacity=4, ended_capacity=2)
    for i in (1, 2, 3):
        cache.put(_live(i))
    assert cache.get(1) is not None  # 1 is now the most recently used
    cache.put(_live(4))
    cache.put(_live(5))
    assert cache.get(2) is None and all(cache.get(i) is not None for i in (1, 3, 4, 5))
    for i in (1, 3, 4):  # three matches end: only the last two ended stay
        cache.put(_live(i, 2, "finished"))
    assert cache.get(1) is None and cache.get(3) is not None and cache.get(4) is not None
    cache.put(_live(3, 3, "finished"))  # seen again: now the most recently ended
    cache.put(_live(6, 1, "aborted"))
    assert cache.get(4) is None and cache.get(3) is not None and cache.get(6) is not None
    assert len(cache) == 3


def test_a_notice_of_a_newer_version_makes_the_cached_one_stale_until_it_is_put():
    cache = LiveMatches()
    cache.put(_live(7, 3))
    cache.heard(7, 3)
    assert cache.get(7).version == 3
    cache.heard(7, 5)
    assert cache.get(7) is None
    cache.put(_live(7, 4))  # still older than what was announced
    assert cache.get(7) is None
    cache.put(_live(7, 5))
    assert cache.get(7).version == 5
    cache.put(_live(7, 4))  # an older version never replaces a newer one
    assert cache.get(7).version == 5


def test_a_copied_record_equals_its_original_and_shares_no_seat():
    from datetime import UTC, datetime

    from app.matches.store import MatchRecord, SeatRecord, UserRef, copy_record

    now = datetime(2026, 12, 1, tzinfo=UTC)
    seats = [
        SeatRecord(7, i, 40 + i, None, now, None, i, False, None, False, None, None, 1000 * i, UserRef(40 + i, f"p{i}"))
        for i in range(2)
    ]
    record = MatchRecord(
        7,
        "battle_runes",
        {"turn_seconds": 30},
        2,
        "active",
        "seed",
        "hash",
        12,
        4,
        {"turn": 3},
        {},
        None,
        now,
        40,
        now,
        now,
        None,
        "casual",
        None,
        seats,
    )
    copy = copy_record(record)
    assert copy == record and copy is not record
    assert all(a is not b for a, b in zip(copy.seats, record.seats, strict=True))
    copy.seats[1].user_id = None
    copy.version = 13
    assert record.seats[1].user_id == 41 and record.version == 12


async def test_a_live_match_keeps_the_decoded_state_only_and_the_row_stays_right(env):
    """The record a live match keeps holds no JSON of the state (``STATE_NOT_KEPT``): each write
    encodes the column from the decoded state, and a write with no event leaves the column as it
    is, on both write paths."""
    from datetime import timedelta

    from app.matches.store import STATE_NOT_KEPT
    from tests.service.test_match_service import _match, _two_player_match

    match_id = await _two_player_match(env)
    alice, bob = env.users[:2]
    snap = await env.service.snapshot(match_id, 0)
    await env.service.act(match_id, alice, snap["legal"][0], snap["version"])
    live = env.service.live.get(match_id)
    assert live.record.state is STATE_NOT_KEPT
    row = await _match(env, match_id)
    assert row.state == live.rules.encode_state(live.state) and row.version == live.version

    async def no_event(m, ctx):  # a match column and a seat column change; no event, no state
        m.deadline_at = ctx.now + timedelta(hours=2)
        m.seats[1].timeouts_in_row = 2

    assert await env.service._write(match_id, no_event) == live.version
    after = await _match(env, match_id)
    assert after.state == row.state and after.version == row.version
    assert after.deadline_at is not None and after.deadline_at != row.deadline_at
    seats = {s.seat: s for s in after.seats}
    assert seats[1].timeouts_in_row == 2
    # and play goes on from there, the column encoded afresh
    snap = await env.service.snapshot(match_id, 1)
    await env.service.act(match_id, bob, snap["legal"][0], snap["version"])
    live = env.service.live.get(match_id)
    final = await _match(env, match_id)
    assert final.state == live.rules.encode_state(live.state) and final.version == live.version
    assert live.record.state is STATE_NOT_KEPT
