"""A process whose cached match is stale (another process wrote since, and no notice reached it)
never stores on top of the other's write: its one-statement store fails whole on the unique
``(match_id, version)`` of the events, and the write runs again under the row lock on the stored
match (PostgreSQL and SQLite; on SQLite the lock is always taken first)."""

from __future__ import annotations

from app.errors import DomainError
from tests.service.test_match_service import _events, _match, _two_player_match


async def test_a_stale_cache_in_another_process_never_overwrites(env):
    match_id = await _two_player_match(env)
    alice, bob = env.users[:2]
    other = env.other_service()  # a second process, with its own cache and no hub between them
    snaps = [await env.service.snapshot(match_id, 0), await other.snapshot(match_id, 1)]
    assert snaps[0]["version"] == snaps[1]["version"]
    # alice chooses through the first process; the second still caches the version before it
    await env.service.act(match_id, alice, snaps[0]["legal"][0], snaps[0]["version"])
    assert other.live.get(match_id).version == snaps[1]["version"]
    # bob chooses through the second: its cached write would reuse alice's event version
    await other.act(match_id, bob, snaps[1]["legal"][0], snaps[1]["version"])
    events = await _events(env, match_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert [e.seat for e in events if e.kind == "action"] == [0, 1]  # both choices, once each
    m = await _match(env, match_id)
    assert m.version == events[-1].version
    state, pending = await env.service.rebuild(match_id)
    rules = other.live.get(match_id).rules
    assert rules.encode_state(state) == m.state and pending == {}
    assert state.turn == 1  # the turn resolved with both choices
    # the first process's cache is stale now: a refusal it would make is checked under the lock
    try:
        await env.service.act(match_id, alice, snaps[0]["legal"][0], snaps[0]["version"])
    except DomainError as exc:
        assert exc.code == "stale_version"
    else:
        raise AssertionError("an act at an old version was stored")
