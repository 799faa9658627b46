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
