"""The match service on SQLite and PostgreSQL: lifecycle, single writer, hidden choices, replay."""

from __future__ import annotations

import asyncio
import hashlib

import pytest
from sqlalchemy import select

from app.errors import DomainError
from app.games.core import chance_rng, get_rules
from app.matches.models import Match, MatchEvent, MatchSeat
from app.matches.service import BotSeat, new_match


async def _events(env, match_id):
    async with env.service.sessionmaker() as s:
        return (
            (await s.execute(select(MatchEvent).where(MatchEvent.match_id == match_id).order_by(MatchEvent.version)))
            .scalars()
            .all()
        )


async def _match(env, match_id):
    async with env.service.sessionmaker() as s:
        return await s.get(Match, match_id)


#: scores far from both thresholds, so a test's few turns never end the match by chance
LONG = {"start_score": 500, "win_score": 1000}


async def _two_player_match(env, **options):
    alice, bob = env.users[:2]
    info = await env.service.create_match(alice, "battle_runes", {"turn_seconds": 60, **LONG, **options})
    assert info["status"] == "waiting"
    info = await env.service.join(info["id"], bob)
    assert info["status"] == "active"
    return info["id"]


async def _play_turn(env, match_id, pick=0):
    """Both humans pick ``legal[pick]``; returns the version after the turn."""
    version = None
    for seat, user in enumerate(env.users[:2]):
        snap = await env.service.snapshot(match_id, seat)
        if snap["status"] != "active":
            return snap["version"]
        version = await env.service.act(match_id, user, snap["legal"][pick], snap["version"])
    return version


async def test_create_join_start_records_seed_hash(env):
    match_id = await _two_player_match(env)
    events = await _events(env, match_id)
    assert [e.kind for e in events[:2]] == ["start", "chance"]
    m = await _match(env, match_id)
    assert events[0].payload["seed_hash"] == m.seed_hash == hashlib.sha256(m.seed.encode()).hexdigest()
    # the shuffle is drawn from the seed and the version, so it can be checked once the seed is out
    rules = get_rules("battle_runes")
    state = rules.initial_state(2, rules.normalize_options({}))
    drawn = rules.sample_chance(state, chance_rng(m.seed, events[1].version))
    assert rules.encode_action(drawn) == events[1].payload["action"]
    # nobody sees the deck order while the match runs
    for viewer in (0, 1, None):
        snap = await env.service.snapshot(match_id, viewer)
        assert snap["events"][1]["action"] is None and snap["events"][1]["hidden"]
        assert "seed" not in snap
    assert m.version == events[-1].version == len(events)


async def test_join_errors(env):
    alice, bob, carol = env.users
    info = await env.service.create_match(alice, "battle_runes", {})
    with pytest.raises(DomainError) as e:
        await env.service.join(info["id"], alice)
    assert e.value.code == "already_joined"
    await env.service.join(info["id"], bob)
    with pytest.raises(DomainError) as e:
        await env.service.join(info["id"], carol)
    assert e.value.code in ("not_waiting", "match_full")
    with pytest.raises(DomainError) as e:
        await env.service.join(999_999, carol)
    assert e.value.code == "not_found"


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"turn_seconds": -1}, "option_range"),
        ({"turn_seconds": "soon"}, "option_range"),
        ({"no_such_option": 1}, "unknown_option"),
        ({"r2p5_bonus_kind": "sideways"}, "option_choice"),
        ({"win_score": 10**20}, "option_range"),
        ({"max_turns": 1e300}, "option_type"),
        ({"start_score": 2.5}, "option_type"),
        ({"turn_seconds": 1}, "option_range"),
    ],
)
async def test_create_rejects_bad_options(env, options, reason):
    with pytest.raises(DomainError) as e:
        await env.service.create_match(env.users[0], "battle_runes", options)
    assert e.value.code == "bad_options" and e.value.params["reason"] == reason
    assert await env.service.list_matches(status="waiting") == []


async def test_create_rejects_untimed_computer_match_and_unknown_game(env):
    with pytest.raises(DomainError) as e:
        await env.service.create_match(env.users[0], "battle_runes", {"turn_seconds": 0}, bots=[BotSeat(1)])
    assert (e.value.code, e.value.params) == ("bad_options", {"reason": "computer_untimed"})
    with pytest.raises(DomainError) as e:
        await env.service.create_match(env.users[0], "chess", {})
    assert (e.value.code, e.value.params) == ("bad_options", {"reason": "unknown_game", "game": "chess"})
    with pytest.raises(DomainError) as e:
        await env.service.create_match(env.users[0], "battle_runes", {}, bots=[BotSeat(1, "grandmaster")])
    assert e.value.code == "bad_options"
    assert e.value.params == {
        "reason": "computer_level",
        "level": "grandmaster",
        "levels": ["random", "greedy", "nash"],
    }
    assert await env.service.list_matches(status=None) == []


async def test_create_checks_options_against_the_number_of_seats(env):
    # Fantasy súboj's teams name one team per seat: a 2 vs 2 layout does not fit 3 seats, one team
    # is no team match; refused at creation (not when the last seat is taken), nothing stored
    for players, teams, params in (
        (3, [0, 1, 0, 1], {"reason": "team_seats", "seats": 3, "count": 4}),
        (4, [0, 0, 0, 0], {"reason": "one_team"}),
        (2, [0, 1, 0, 1], {"reason": "team_seats", "seats": 2, "count": 4}),
    ):
        with pytest.raises(DomainError) as e:
            await env.service.create_match(
                env.users[0], "fantasy_duel", {"teams": teams}, players=players, bots=[BotSeat(1)]
            )
        assert e.value.code == "bad_options" and "teams" in e.value.message
        assert e.value.params == params
    assert await env.service.list_matches(status="waiting", game="fantasy_duel") == []
    info = await env.service.create_match(
        env.users[0], "fantasy_duel", {"teams": [0, 1, 0, 1]}, players=4, bots=[BotSeat(1), BotSeat(2)]
    )
    assert info["options"]["teams"] == [0, 1, 0, 1] and info["status"] == "waiting"


async def test_hidden_choice_stays_hidden_until_reveal(env):
    match_id = await _two_player_match(env)
    snap0 = await env.service.snapshot(match_id, 0)
    choice = snap0["legal"][3]
    v = await env.service.act(match_id, env.users[0], choice, snap0["version"])
    # the other seat and spectators learn that seat 0 chose, never what
    for viewer in (1, None):
        snap = await env.service.snapshot(match_id, viewer, since=snap0["version"])
        assert snap["chosen"] == [0]
        commit = snap["events"][-1]
        assert commit["kind"] == "action" and commit["seat"] == 0
        assert commit["action"] is None and commit["hidden"] is True
        assert str(sorted(choice["runes"])) not in str(snap["events"])
    own = await env.service.snapshot(match_id, 0, since=snap0["version"])
    assert own["events"][-1]["action"] == choice and own["legal"] == []
    # the opponent's act with the version it saw before the commit is not stale
    snap1 = await env.service.snapshot(match_id, 1)
    v2 = await env.service.act(match_id, env.users[1], snap1["legal"][0], snap0["version"])
    assert v2 > v
    after = await env.service.snapshot(match_id, None, since=v)
    resolved = [e for ev in after["events"] for e in ev["events"] if e["kind"] == "turn_resolved"]
    assert len(resolved) == 1 and not resolved[0].get("redacted")


async def test_refusals_change_nothing(env):
    match_id = await _two_player_match(env)
    before = await _match(env, match_id)
    snap = await env.service.snapshot(match_id, 0)
    cases = [
        (env.users[0], {"runes": ["NOPE", "S1", "S2"]}, snap["version"], "bad_message"),
        (env.users[0], {"nonsense": True}, snap["version"], "bad_message"),
        (env.users[2], snap["legal"][0], snap["version"], "forbidden"),
    ]
    hand1 = (await env.service.snapshot(match_id, 1))["view"]["hands"][1]
    cases.append((env.users[0], {"runes": hand1[:3]}, snap["version"], "illegal_action"))
    for user, action, version, code in cases:
        with pytest.raises(DomainError) as e:
            await env.service.act(match_id, user, action, version)
        assert e.value.code == code, (action, e.value.message)
    after = await _match(env, match_id)
    assert (after.version, after.state, after.pending) == (before.version, before.state, before.pending)
    # a second choice by the same seat is refused
    await env.service.act(match_id, env.users[0], snap["legal"][0], snap["version"])
    with pytest.raises(DomainError) as e:
        await env.service.act(match_id, env.users[0], snap["legal"][1], snap["version"])
    assert e.value.code == "not_your_turn"


async def test_stale_version_after_the_turn_resolved(env):
    match_id = await _two_player_match(env)
    old = (await env.service.snapshot(match_id, 0))["version"]
    await _play_turn(env, match_id)
    snap = await env.service.snapshot(match_id, 0)
    with pytest.raises(DomainError) as e:
        await env.service.act(match_id, env.users[0], snap["legal"][0], old)
    assert e.value.code == "stale_version"
    with pytest.raises(DomainError) as e:
        await env.service.act(match_id, env.users[0], snap["legal"][0], snap["version"] + 5)
    assert e.value.code == "stale_version"


async def test_concurrent_acts_with_same_version_apply_exactly_once(env):
    """Two server processes (two services, two connection pools) receive the same seat's act at
    the same moment: exactly one applies."""
    other = env.other_service()
    for _ in range(3):
        match_id = await _two_player_match(env)
        snap = await env.service.snapshot(match_id, 0)
        results = await asyncio.gather(
            env.service.act(match_id, env.users[0], snap["legal"][0], snap["version"]),
            other.act(match_id, env.users[0], snap["legal"][1], snap["version"]),
            return_exceptions=True,
        )
        ok = [r for r in results if isinstance(r, int)]
        refused = [r for r in results if isinstance(r, DomainError)]
        assert len(ok) == 1 and len(refused) == 1, results
        assert refused[0].code in ("not_your_turn", "stale_version")
        commits = [e for e in await _events(env, match_id) if e.kind == "action"]
        assert len(commits) == 1
        m = await _match(env, match_id)
        assert list(m.pending) == ["0"] and m.version == ok[0]


async def test_match_against_computer_to_the_end_and_replay(env):
    alice = env.users[0]
    info = await env.service.create_match(alice, "battle_runes", {"turn_seconds": 30}, bots=[BotSeat(1, "nash")])
    match_id = info["id"]
    assert info["status"] == "active" and info["seats"][1]["bot"] == "nash"
    for _ in range(200):
        snap = await env.service.snapshot(match_id, 0)
        if snap["status"] == "finished":
            break
        if snap["legal"]:
            await env.service.act(match_id, alice, snap["legal"][0], snap["version"])
        await env.service.process_due()
    else:
        pytest.fail("the match did not end")
    m = await _match(env, match_id)
    events = await _events(env, match_id)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    assert events[-1].kind == "end" and events[-1].payload["seed"] == m.seed
    assert {e.kind for e in events} >= {"start", "chance", "action", "bot", "end"}
    # the result is stored on the match and on each seat
    async with env.service.sessionmaker() as s:
        seats = (await s.execute(select(MatchSeat).where(MatchSeat.match_id == match_id))).scalars().all()
    assert [s.result for s in seats] == m.result["results"]
    # replaying the events gives the stored snapshot and the final scores
    rules = get_rules("battle_runes")
    state, pending = await env.service.rebuild(match_id)
    assert rules.encode_state(state) == m.state and pending == {}
    assert list(rules.outcome(state).scores) == m.result["scores"]
    replay = await env.service.replay(match_id)
    assert replay["steps"][-1]["view"]["scores"] == m.result["scores"]
    assert all(not s["hidden"] for s in replay["steps"])  # everything is revealed at the end
    with pytest.raises(DomainError) as e:
        await env.service.act(match_id, alice, {"runes": ["S1", "S2", "S3"]}, m.version)
    assert e.value.code == "game_over"


async def test_replay_of_a_running_match_shows_each_viewer_only_what_it_saw_live(env):
    """Issue 16: the move list of a running match. Alice (seat 0) chose her runes, hidden until
    the turn resolves: her replay shows her choice; Bob's and a spectator's show that she chose,
    not what; every step's board is the one that viewer's live snapshot showed."""
    alice, bob, carol = env.users
    match_id = await _two_player_match(env)
    snap0 = await env.service.snapshot(match_id, 0)
    choice = snap0["legal"][1]
    await env.service.act(match_id, alice, choice, snap0["version"])
    for user, seat in ((alice, 0), (bob, 1), (carol, None)):
        replay = await env.service.replay(match_id, user)
        assert replay["seat"] == seat and replay["complete"] is False and "seed" not in replay["match"]
        live = await env.service.snapshot(match_id, seat)
        assert [s["version"] for s in replay["steps"]] == list(range(1, live["version"] + 1))
        assert replay["steps"][-1]["view"] == live["view"]
        assert [(s["action"], s["hidden"]) for s in replay["steps"]] == [
            (e["action"], e["hidden"]) for e in live["events"]
        ]
        last = replay["steps"][-1]
        assert last["kind"] == "action" and last["seat"] == 0
        assert (last["action"], last["hidden"]) == ((choice, False) if seat == 0 else (None, True))
    # a match without spectators: its players may step back, nobody else
    private = await env.service.create_match(alice, "battle_runes", {"turn_seconds": 60, "spectators": False, **LONG})
    with pytest.raises(DomainError) as e:
        await env.service.replay(private["id"], alice)
    assert e.value.code == "not_started"  # nothing played while it waits
    await env.service.join(private["id"], bob)
    assert (await env.service.replay(private["id"], bob))["seat"] == 1
    with pytest.raises(DomainError) as e:
        await env.service.replay(private["id"], carol)
    assert e.value.code == "forbidden"


async def test_timeout_takeover_with_fake_clock(env):
    """Seat 0 chose, seat 1's clock ran out: the pick of seat 0 is kept, the computer plays seat 1."""
    match_id = await _two_player_match(env, turn_seconds=30)
    snap0 = await env.service.snapshot(match_id, 0)
    choice = snap0["legal"][2]
    await env.service.act(match_id, env.users[0], choice, snap0["version"])
    env.clock.advance(10)
    assert await env.service.process_due() == 0  # not yet
    snap1 = await env.service.snapshot(match_id, 1)
    assert 19_000 <= snap1["clock"]["remaining_ms"]["1"] <= 20_000
    env.clock.advance(21)
    assert await env.service.process_due() == 1
    events = await _events(env, match_id)
    timeout = [e for e in events if e.kind == "timeout"]
    assert len(timeout) == 1 and timeout[0].seat == 1
    resolved = [ev for e in events for ev in e.payload["events"] if ev["kind"] == "turn_resolved"]
    assert len(resolved) == 1
    assert sorted(resolved[0]["data"]["picks"][0]) == sorted(choice["runes"])
    async with env.service.sessionmaker() as s:
        seat1 = await s.get(MatchSeat, (match_id, 1))
    assert seat1.timeouts_in_row == 1 and not seat1.away
    # a second sweep for the same deadline does nothing
    assert await env.service.process_due() == 0


@pytest.mark.parametrize(
    ("game", "asked", "stored"),
    [
        ("battle_runes", None, "greedy"),  # a computer seat without a level plays Medium
        ("battle_runes", "hard", "nash"),
        ("stratego_junior", "easy", "random"),
        ("stratego_junior", "medium", "casual"),
        ("scratch_wars", "expectimax", "expectimax"),  # a level by its algorithm's name
    ],
)
async def test_computer_seats_take_a_difficulty_and_default_to_medium(env, game, asked, stored):
    info = await env.service.create_match(env.users[0], game, {"turn_seconds": 30}, bots=[BotSeat(1, asked)])
    assert [s["bot"] for s in info["seats"]] == [None, stored]


async def test_a_match_built_with_every_seat_taken_starts_once_after_its_commit(env):
    """The one builder (:func:`new_match`) and the one start of a waiting match
    (:meth:`MatchService.start_waiting`) that a rematch and a tournament round share: the caller
    commits the match in its own transaction; the start after it (or after a crash, again) starts
    it exactly once, on either pool; a match with a free seat is left waiting."""
    alice, bob, carol = env.users
    now = env.clock.now()
    _players, options = env.service.check_options("battle_runes", {"turn_seconds": 60, **LONG}, players=2)
    full = new_match(
        "battle_runes", options, 2, {0: alice, 1: bob}, created_by=None, now=now, origin="tournament", origin_ref="7"
    )
    with_bot = new_match(
        "battle_runes", {**options, "rated": True}, 2, {1: carol}, {0: "random"}, created_by=carol, now=now
    )
    open_seat = new_match("battle_runes", options, 2, {0: alice}, created_by=alice, now=now)
    async with env.service.sessionmaker() as session, session.begin():
        session.add_all([full, with_bot, open_seat])
        await session.flush()
        ids = full.id, with_bot.id, open_seat.id
    assert (full.origin, full.origin_ref, full.created_by) == ("tournament", "7", None)
    assert (with_bot.origin, with_bot.created_by) == ("rated", carol)
    assert [s.joined_at is not None for s in open_seat.seats] == [True, False]
    assert await env.service.start_waiting(ids[0], background=True) is True
    assert await env.service.start_waiting(ids[0], background=True) is False  # a second start: nothing
    assert await env.service.start_waiting(ids[1]) is True
    assert await env.service.start_waiting(ids[2]) is False
    assert [(await env.service.get_match(i))["status"] for i in ids] == ["active", "active", "waiting"]
    assert [e.kind for e in await _events(env, ids[0])].count("start") == 1
