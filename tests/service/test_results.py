"""``match_results``: one row per seat, written with the end of a match by every route (the rules,
resignation that ends or does not end the game, timeouts played to the end, abandonment, two
services racing), the "match finished" notice, origins and variants; and the migration's backfill."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from app.errors import DomainError
from app.games.core import Outcome
from app.matches.hub import LocalHub
from app.matches.models import MatchResult
from app.matches.service import BotSeat, MatchService
from tests.service.test_match_service import _events, _match, _two_player_match

NAME = "tally_test"


async def _rows(env, match_id):
    async with env.service.sessionmaker() as s:
        return (
            (await s.execute(select(MatchResult).where(MatchResult.match_id == match_id).order_by(MatchResult.seat)))
            .scalars()
            .all()
        )


async def _tally(env, players=2, bots=(), **options):
    """A tally match between ``players`` seats: people from ``env.users`` and computer ``bots``."""
    info = await env.service.create_match(
        env.users[0], NAME, {"turn_seconds": 30, **options}, players=players, bots=bots
    )
    humans = players - len(bots)
    for user in env.users[1:humans]:
        info = await env.service.join(info["id"], user)
    assert info["status"] == "active"
    return info["id"]


async def _add(env, match_id, seat, n, service=None):
    snap = await env.service.snapshot(match_id, seat)
    assert {"add": n} in snap["legal"], snap
    return await (service or env.service).act(match_id, env.users[seat], {"add": n}, snap["version"])


def _check_rows(rows, m, computer_finished):
    """One row per seat, agreeing with the match's stored result."""
    assert [r.seat for r in rows] == list(range(m.num_players))
    assert [r.result for r in rows] == m.result["results"] == [s.result for s in m.seats]
    assert [r.rank for r in rows] == m.result["ranks"]
    assert [r.team for r in rows] == list(Outcome.from_json(m.result).teams)
    assert {r.reason for r in rows} == {m.result["reason"]}
    assert [r.user_id for r in rows] == [s.user_id for s in m.seats]
    assert [r.computer_finished for r in rows] == computer_finished


async def test_an_end_by_the_rules_writes_one_row_per_seat_and_announces_it(env, toy):
    finished: list[int] = []
    env.service.hub.subscribe_finished(finished.append)
    match_id = await _tally(env, target=4)
    await _add(env, match_id, 0, 2)
    await _add(env, match_id, 1, 1)
    assert await _rows(env, match_id) == [] and finished == []
    await _add(env, match_id, 0, 2)
    m = await _match(env, match_id)
    rows = await _rows(env, match_id)
    assert m.status == "finished" and m.origin == "casual"
    _check_rows(rows, m, [False, False])
    assert [(r.result, r.rank, r.score, r.reason) for r in rows] == [
        ("win", 1, 4.0, "target"),
        ("loss", 2, 1.0, "target"),
    ]
    assert [r.user_id for r in rows] == env.users[:2]
    assert finished == [match_id]
    assert await env.service.results(match_id) == [
        {
            "seat": r.seat,
            "user_id": r.user_id,
            "team": r.team,
            "rank": r.rank,
            "result": r.result,
            "reason": r.reason,
            "score": r.score,
            "computer_finished": r.computer_finished,
        }
        for r in rows
    ]


async def test_a_computer_seat_is_finished_by_the_computer(env, toy):
    match_id = await _tally(env, bots=[BotSeat(1, "random")], target=5)
    for _ in range(20):
        m = await _match(env, match_id)
        if m.status == "finished":
            break
        snap = await env.service.snapshot(match_id, 0)
        if snap["legal"]:
            await env.service.act(match_id, env.users[0], {"add": 2}, snap["version"])
        await env.service.process_due()
    rows = await _rows(env, match_id)
    _check_rows(rows, m, [False, True])
    assert rows[1].user_id is None
    assert "bot" in [e.kind for e in await _events(env, match_id)]


async def test_resignation_that_ends_a_two_player_game(env):
    match_id = await _two_player_match(env)
    await env.service.resign(match_id, env.users[1])
    m = await _match(env, match_id)
    rows = await _rows(env, match_id)
    assert m.result["resigned"] == [1] and m.result["reason"] == "resigned"
    _check_rows(rows, m, [False, False])
    assert [r.result for r in rows] == ["win", "loss"]


async def test_resignation_in_a_three_player_game_lets_the_computer_finish_the_seat(env, toy):
    _alice, bob, _carol = env.users
    match_id = await _tally(env, players=3, target=6)
    await env.service.resign(match_id, bob)
    m = await _match(env, match_id)
    assert m.status == "active" and m.seats[1].resigned and m.result is None
    for refused in (env.service.resign, env.service.set_back):
        with pytest.raises(DomainError) as e:
            await refused(match_id, bob)
        assert e.value.code == "forbidden"
    info = await env.service.get_match(match_id)
    assert info["seats"][1]["resigned"] is True
    await _add(env, match_id, 0, 2)
    # seat 1 must act, but its player gave up: no legal actions for them, the computer plays it
    snap = await env.service.snapshot(match_id, 1)
    assert snap["to_act"] == [1] and snap["legal"] == []
    with pytest.raises(DomainError) as e:
        await env.service.act(match_id, bob, {"add": 1}, snap["version"])
    assert e.value.code == "forbidden"
    for _ in range(10):
        m = await _match(env, match_id)
        if m.status == "finished":
            break
        to_act = (await env.service.snapshot(match_id, None))["to_act"]
        if to_act == [1]:
            assert await env.service.process_due() == 1
        else:
            await _add(env, match_id, to_act[0], 2)
    rows = await _rows(env, match_id)
    _check_rows(rows, m, [False, True, False])
    assert m.result["resigned"] == [1]
    assert [r.result for r in rows] == ["win", "loss", "loss"] and rows[1].user_id == bob
    kinds = [(e.seat, e.kind) for e in await _events(env, match_id)]
    assert (1, "resign") in kinds and kinds.count((1, "bot")) == 2 and (1, "timeout") not in kinds


async def test_timeouts_played_to_the_end(env, toy):
    match_id = await _tally(env, target=4, turn_seconds=10)
    for _ in range(30):
        m = await _match(env, match_id)
        if m.status == "finished":
            break
        env.clock.advance(11)
        await env.service.process_due()
    else:
        pytest.fail("the match did not end")
    rows = await _rows(env, match_id)
    _check_rows(rows, m, [True, True])  # both seats were away at the end
    assert [(r.result, r.score) for r in rows] == [("win", 4.0), ("loss", 3.0)]
    assert {e.kind for e in await _events(env, match_id) if e.seat in (0, 1)} == {"timeout"}


async def test_abandonment_writes_draws(env, toy):
    settings = env.service.settings.model_copy(update={"abandon_after_seconds": 40})
    service = MatchService(env.service.sessionmaker, LocalHub(), settings=settings, clock=env.clock)
    match_id = (
        await service.create_match(
            env.users[0], NAME, {"turn_seconds": 10, "target": 1000}, bots=[BotSeat(1, "random")]
        )
    )["id"]
    for _ in range(40):
        m = await _match(env, match_id)
        if m.status != "active":
            break
        env.clock.advance(11)
        await service.process_due()
    assert m.status == "finished" and m.result["reason"] == "abandoned"
    rows = await _rows(env, match_id)
    _check_rows(rows, m, [True, True])
    assert {r.result for r in rows} == {"draw"}
    assert [e.kind for e in await _events(env, match_id)][-2:] == ["abandoned", "end"]


async def test_two_services_racing_to_finish_a_match_write_one_set_of_rows(env, toy):
    """Two server processes finish the same match at the same moment (the winning move against a
    resignation, the winning move against its own timeout): one wins, one set of rows."""
    other = env.other_service()
    outcomes = set()
    for round_ in range(4):
        match_id = await _tally(env, target=2, turn_seconds=10)
        await _add(env, match_id, 0, 1)
        await _add(env, match_id, 1, 1)
        snap = await env.service.snapshot(match_id, 0)
        if round_ % 2:
            env.clock.advance(11)  # seat 0's clock ran out: the computer may play its move
            rival = other.process_match(match_id)
        else:
            rival = other.resign(match_id, env.users[1])
        results = await asyncio.gather(
            env.service.act(match_id, env.users[0], {"add": 1}, snap["version"]), rival, return_exceptions=True
        )
        m = await _match(env, match_id)
        assert m.status == "finished", results
        rows = await _rows(env, match_id)
        _check_rows(rows, m, [r.computer_finished for r in rows])
        assert len(rows) == 2 and [e.kind for e in await _events(env, match_id)].count("end") == 1
        errors = [r for r in results if isinstance(r, BaseException)]
        assert all(isinstance(r, DomainError) for r in errors), results
        outcomes.add(m.result["reason"])
    assert outcomes <= {"target", "resigned"}


async def test_rated_is_an_origin_the_creator_chooses(env):
    alice = env.users[0]
    rated = await env.service.create_match(alice, "battle_runes", {"rated": True})
    casual = await env.service.create_match(alice, "battle_runes", {})
    assert (rated["origin"], rated["options"]["rated"]) == ("rated", True)
    assert (casual["origin"], casual["options"]["rated"], casual["origin_ref"]) == ("casual", False, None)
    assert (await _match(env, rated["id"])).origin == "rated"
    with pytest.raises(DomainError) as e:
        await env.service.create_match(alice, "battle_runes", {"rated": "yes"})
    assert (e.value.code, e.value.params) == (
        "bad_options",
        {"reason": "option_type", "option": "rated", "type": "boolean"},
    )


async def test_a_variant_plays_by_its_own_rules_everywhere(env, toy):
    match_id = await _tally(env, target=6, variant="double")
    await _add(env, match_id, 0, 2)
    snap = await env.service.snapshot(match_id, 1)
    assert snap["view"]["points"] == [4, 0]  # doubled
    await _add(env, match_id, 1, 1)
    await _add(env, match_id, 0, 1)
    m = await _match(env, match_id)
    assert m.status == "finished" and m.result["scores"] == [6.0, 2.0]
    rules = toy.DoubleTally()
    state, pending = await env.service.rebuild(match_id)
    assert rules.encode_state(state) == m.state and pending == {}
    replay = await env.service.replay(match_id)
    assert replay["steps"][-1]["view"]["points"] == [6, 2]
    with pytest.raises(DomainError) as e:
        await env.service.create_match(env.users[0], NAME, {"variant": "triple"})
    assert e.value.code == "bad_options" and e.value.params["reason"] == "option_choice"
    assert e.value.params["option"] == "variant" and "triple" not in e.value.params["choices"]


def test_the_migration_backfills_results_of_finished_matches(tmp_path):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine, text

    from app.settings import ROOT

    path = tmp_path / "old.db"
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["database_url"] = f"sqlite+aiosqlite:///{path}"
    cfg.attributes["configure_logger"] = False
    command.upgrade(cfg, "b48fe560f964")  # the schema of the old code
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO users (id, name, name_key, password_hash, created_at) "
                "VALUES (1, 'alice', 'alice', 'x', '2026-01-01 00:00:00')"
            )
        )
        for match_id, status, result in (
            (1, "finished", '{"results": ["loss", "win"], "scores": [3, 50], "reason": "score_50", "ranks": [2, 1]}'),
            (2, "active", None),
        ):
            conn.execute(
                text(
                    "INSERT INTO matches (id, game, options, num_players, status, seed, seed_hash, version, "
                    "state_version, pending, result, created_at, finished_at) VALUES (:id, 'battle_runes', '{}', 2, "
                    ":status, 's', 'h', 9, 9, '{}', :result, '2026-01-01 00:00:00', '2026-01-01 01:00:00')"
                ),
                {"id": match_id, "status": status, "result": result},
            )
            for seat in (0, 1):
                conn.execute(
                    text(
                        "INSERT INTO match_seats (match_id, seat, user_id, bot_level, timeouts_in_row, away, result, "
                        "score) VALUES (:m, :seat, :user, :bot, 0, 0, :result, :score)"
                    ),
                    {
                        "m": match_id,
                        "seat": seat,
                        "user": 1 if seat == 0 else None,
                        "bot": None if seat == 0 else "nash",
                        "result": None if result is None else ("loss", "win")[seat],
                        "score": None if result is None else (3, 50)[seat],
                    },
                )
    command.upgrade(cfg, "head")
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT match_id, seat, user_id, team, rank, result, reason, score, computer_finished "
                "FROM match_results ORDER BY match_id, seat"
            )
        ).all()
        origins = conn.execute(text("SELECT origin FROM matches ORDER BY id")).scalars().all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [
        (1, 0, 1, 0, 2, "loss", "score_50", 3.0, 0),
        (1, 1, None, 1, 1, "win", "score_50", 50.0, 1),
    ]
    assert origins == ["casual", "casual"]
