"""A join and the write that ends a match are stored the way an action is: on PostgreSQL, when the
process holds the match at the stored version, in one statement without the row lock
(:func:`app.matches.store.store_in_one_statement`), the joiner's name read in the same statement
and the ``match_results`` rows inserted with the end; on SQLite under the database's write lock.
A process whose cached match is stale never stores a join or an end on top of another's write."""

from __future__ import annotations

import pytest

from app.matches import service as service_module
from tests.service.test_match_service import _events, _match
from tests.service.test_results import NAME, _add, _rows


@pytest.fixture
def locks(monkeypatch):
    """The match ids :func:`app.matches.store.lock_version` was called for, in order."""
    calls: list[int] = []
    real = service_module.lock_version

    async def counting(statements, match_id, **kwargs):
        calls.append(match_id)
        return await real(statements, match_id, **kwargs)

    monkeypatch.setattr(service_module, "lock_version", counting)
    return calls


def _postgres(env) -> bool:
    return env.url.startswith("postgresql")


async def test_a_join_and_an_end_are_one_statement_on_postgresql(env, toy, locks):
    alice, bob, carol = env.users
    info = await env.service.create_match(alice, NAME, {"turn_seconds": 30, "target": 4}, players=3)
    match_id = info["id"]
    locks.clear()  # the create is not a write of the cached match
    info = await env.service.join(match_id, bob)  # no event: the match waits for a third player
    assert info["status"] == "waiting"
    info = await env.service.join(match_id, carol)  # the last seat: the match starts
    assert info["status"] == "active"
    assert [s["user"]["name"] for s in info["seats"]] == ["alice", "bob", "carol"]
    snap = await env.service.snapshot(match_id, 2)
    assert [s["user"]["name"] for s in snap["seats"]] == ["alice", "bob", "carol"]
    # the join that added no event took the lock; the one that started the match did not
    assert locks == ([match_id] if _postgres(env) else [match_id, match_id])
    locks.clear()
    await _add(env, match_id, 0, 2)
    await _add(env, match_id, 1, 1)
    await _add(env, match_id, 2, 1)
    assert await _rows(env, match_id) == []
    await _add(env, match_id, 0, 2)  # reaches the target: the end
    m = await _match(env, match_id)
    assert m.status == "finished"
    rows = await _rows(env, match_id)
    assert [(r.seat, r.user_id, r.result, r.rank, r.score) for r in rows] == [
        (0, alice, "win", 1, 4.0),
        (1, bob, "loss", 2, 1.0),
        (2, carol, "loss", 2, 1.0),
    ]
    assert {r.reason for r in rows} == {"target"} and not any(r.computer_finished for r in rows)
    assert [s.result for s in m.seats] == ["win", "loss", "loss"]
    assert locks == ([] if _postgres(env) else [match_id] * 4)
    events = await _events(env, match_id)
    assert m.version == events[-1].version == len(events)


async def test_a_stale_cache_never_stores_a_join_or_an_end_over_another_write(env, toy):
    alice, bob = env.users[:2]
    info = await env.service.create_match(alice, NAME, {"turn_seconds": 30, "target": 2})
    match_id = info["id"]
    other = env.other_service()  # a second process, with its own cache and no hub between them
    await other.snapshot(match_id, None)  # it caches the waiting match
    await env.service.join(match_id, bob)  # the first process starts it
    # the second process's join would reuse the start's event versions: refused, nothing stored
    with pytest.raises(service_module.DomainError) as refused:
        await other.join(match_id, env.users[2])
    assert refused.value.code in ("not_waiting", "match_full")
    m = await _match(env, match_id)
    assert [s.user_id for s in m.seats] == [alice, bob]
    # both processes now end the match from the same cached version: one end is stored, once
    snap = await env.service.snapshot(match_id, 0)
    other.live.forget(match_id)  # as a notice from the first process would make it
    await other.snapshot(match_id, 0)
    assert other.live.get(match_id).version == snap["version"]
    await env.service.act(match_id, alice, {"add": 2}, snap["version"])
    with pytest.raises(service_module.DomainError) as late:
        await other.act(match_id, alice, {"add": 2}, snap["version"])
    assert late.value.code in ("stale_version", "game_over")
    rows = await _rows(env, match_id)
    assert [(r.seat, r.result) for r in rows] == [(0, "win"), (1, "loss")]
    events = await _events(env, match_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
