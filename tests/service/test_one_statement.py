"""A join and the write that ends a match are stored the way an action is: on PostgreSQL, when the
process holds the match at the stored version, in one statement without the row lock
(:func:`app.matches.store.store_in_one_statement`), the joiner's name read in the same statement
and the ``match_results`` rows inserted with the end; on SQLite under the database's write lock.
A process whose cached match is stale never stores a join or an end on top of another's write, and
two requests of one player never create a match past their cap together."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text

from app.matches import service as service_module
from app.matches.models import Match, MatchSeat
from app.matches.service import new_match
from app.users.service import lock_user
from tests.conftest import _pg_truncate
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
    pool = env.service.sessionmaker.kw["bind"].pool
    assert pool.checkedout() == 0  # every write gave its connection back


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


async def _waiting_on_a_lock(env) -> int:
    """Backends of the test database waiting for a row lock (PostgreSQL)."""
    async with env.service.sessionmaker() as s:
        return (
            await s.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
            )
        ).scalar_one()


async def test_a_create_waits_for_another_create_of_the_same_player_and_is_counted_after_it(env):
    alice = env.users[0]
    limit = env.service.settings.max_open_matches
    for _ in range(limit - 1):
        await env.service.create_match(alice, "battle_runes", {})
    _, options = env.service.check_options("battle_runes", {})
    other = env.other_service()  # another process: nothing in this process's memory is shared
    async with env.service.sessionmaker() as session, session.begin():
        # another request of alice's, part way through: her row locked, its match not committed
        await lock_user(session, alice)
        session.add(new_match("battle_runes", options, 2, {0: alice}, created_by=alice, now=env.clock.now()))
        await session.flush()
        create = asyncio.create_task(other.create_match(alice, "battle_runes", {}))
        if env.url.startswith("postgresql"):  # it waits for the lock (SQLite: for the database)
            async with asyncio.timeout(30):
                while not create.done() and await _waiting_on_a_lock(env) == 0:
                    await asyncio.sleep(0.02)
        assert not create.done()  # it neither counted nor inserted past the uncommitted match
    with pytest.raises(service_module.DomainError) as refused:
        await create
    assert refused.value.code == "too_many_matches"
    async with env.service.sessionmaker() as session:
        waiting = (
            await session.execute(select(Match).where(Match.created_by == alice, Match.status == "waiting"))
        ).scalars()
        assert len(waiting.all()) == limit


async def test_a_created_match_is_stored_and_cached_as_built(env):
    alice, bob = env.users[:2]
    created = (await env.service.create_match(alice, "battle_runes", {"turn_seconds": 45}))["id"]
    m = await _match(env, created)
    assert (m.status, m.created_by, m.version, m.origin, m.options["turn_seconds"]) == (
        "waiting",
        alice,
        0,
        "casual",
        45,
    )
    async with env.service.sessionmaker() as session:
        seats = (
            await session.execute(select(MatchSeat).where(MatchSeat.match_id == created).order_by(MatchSeat.seat))
        ).scalars()
        assert [(s.user_id, s.joined_at is None, s.away, s.resigned, s.timeouts_in_row) for s in seats] == [
            (alice, False, False, False, 0),
            (None, True, False, False, 0),
        ]
    assert env.service.live.get(created).version == 0  # cached as created
    # bob's join starts it from the cache: the holders' names come with the statements' answers
    info = await env.service.join(created, bob)
    assert info["status"] == "active" and [s["user"]["name"] for s in info["seats"]] == ["alice", "bob"]


async def test_the_one_statement_create_refuses_an_overlong_value_instead_of_cutting_it(pg_database):
    """The parameters are cast to their columns' types without a length: an explicit cast to
    ``VARCHAR(64)`` would cut a longer ``origin_ref`` silently, where the column refuses it."""
    import asyncpg

    from app.matches.insert import insert_match

    await _pg_truncate(pg_database)
    match = new_match("battle_runes", {}, 2, {}, created_by=None, now=datetime.now(UTC), origin_ref="x" * 65)
    driver = await asyncpg.connect(pg_database.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        with pytest.raises(asyncpg.exceptions.StringDataRightTruncationError):
            await insert_match(driver, match, capped_by=None, cap=1)
        assert await driver.fetchval("SELECT count(*) FROM matches") == 0
        match.origin_ref = "x" * 64
        match_id, _open, _holders = await insert_match(driver, match, capped_by=None, cap=1)
        assert await driver.fetchval("SELECT origin_ref FROM matches WHERE id = $1", match_id) == "x" * 64
    finally:
        await driver.close()


async def test_a_refused_capped_create_leaves_no_transaction_and_no_lock(pg_database):
    """A capped create begins and locks the creator's row in one round trip, then inserts: when
    the insert is refused, the transaction is rolled back, so the connection goes back to the
    pool outside a transaction and the creator's row is free (another connection can lock it)."""
    import asyncpg

    from app.matches.insert import insert_match

    await _pg_truncate(pg_database)
    dsn = pg_database.replace("postgresql+asyncpg://", "postgresql://")
    driver, other = await asyncpg.connect(dsn), await asyncpg.connect(dsn)
    try:
        creator = await driver.fetchval(
            "INSERT INTO users (name, name_key, password_hash, created_at) VALUES ('capper', 'capper', 'x', now())"
            " RETURNING id"
        )
        match = new_match("battle_runes", {}, 2, {0: creator}, created_by=creator, now=datetime.now(UTC))
        match.origin_ref = "x" * 65  # refused by the column
        with pytest.raises(asyncpg.exceptions.StringDataRightTruncationError):
            await insert_match(driver, match, capped_by=creator, cap=3)
        assert not driver.is_in_transaction()
        async with other.transaction():  # not held: NOWAIT would raise LockNotAvailableError
            await other.execute("SELECT 1 FROM users WHERE id = $1 FOR UPDATE NOWAIT", creator)
        match.origin_ref = None
        match_id, open_before, holders = await insert_match(driver, match, capped_by=creator, cap=3)
        assert match_id is not None and open_before == 0 and set(holders) == {creator}
        assert not driver.is_in_transaction()
        assert await other.fetchval("SELECT count(*) FROM matches WHERE created_by = $1", creator) == 1
    finally:
        await driver.close()
        await other.close()
