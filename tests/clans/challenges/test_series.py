"""A challenge from proposal to result (issue 13, item 3), on SQLite and PostgreSQL: the rules a
proposal and a naming are checked against, the boards' matches (origin, reference, seats that
alternate, rated as a lobby match would be), the series result from the boards, its points, and
exactly-once result consumption (the same result delivered twice, and two processes claiming at
once)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.clans.challenges import results
from app.clans.challenges.models import ChallengeStatus, Side
from app.clans.points import month_of
from app.db.session import make_engine, make_sessionmaker
from app.errors import DomainError
from app.matches.models import CHALLENGE, Match, MatchResult
from app.matches.results import claim
from app.ratings.apply import catch_up as rate
from app.ratings.models import RatingChange
from tests.clans.challenges.conftest import POINTS, Arena


async def _refused(coro, code: str, reason: str | None = None) -> DomainError:
    with pytest.raises(DomainError) as caught:
        await coro
    assert caught.value.code == code
    if reason is not None:
        assert caught.value.params.get("reason") == reason
    return caught.value


async def test_a_proposal_is_checked_as_a_match_and_between_two_clans(arena: Arena) -> None:
    before = await arena.effects()
    await _refused(arena.propose(opponent="ALP"), "conflict", "same_clan")
    await _refused(arena.propose(opponent="ZZZ"), "not_found")
    await _refused(arena.propose(boards=0), "validation_error")
    await _refused(arena.propose(boards=11), "validation_error")
    await _refused(arena.propose(hours=0.5), "validation_error")
    await _refused(arena.propose(hours=24 * 31), "validation_error")
    await _refused(arena.propose(options={"turn_seconds": 0}), "bad_options")  # boards are timed
    await _refused(arena.propose(options={"turn_seconds": 1}), "bad_options")  # the service's minimum
    await _refused(arena.propose(game="stratego_junior", options={"variant": "nope"}), "bad_options")
    await _refused(arena.propose(game="chess"), "bad_options")
    await _refused(arena.propose(options={"win_score": "many"}), "bad_options")
    assert await arena.effects() == before
    # Fantasy súboj and Treasure Beasts are played at two; a variant is kept as the game normalises it
    cid = await arena.propose(game="stratego_junior", options={"variant": "victory", "turn_seconds": 30})
    ch = await arena.challenge(cid)
    assert ch.options["variant"] == "victory" and ch.options["turn_seconds"] == 30 and ch.options["rated"] is False
    await arena.propose(game="fantasy_duel")
    await arena.propose(game="treasure_beasts")


async def test_open_challenges_between_two_clans_are_limited_both_ways(arena: Arena) -> None:
    await arena.propose(open_limit=2)
    await arena.propose(actor="oth", tag="BET", opponent="ALP", open_limit=2)
    error = await _refused(arena.propose(open_limit=2), "conflict", "too_many_challenges")
    assert error.params["limit"] == 2
    await _refused(arena.propose(actor="oth", tag="BET", opponent="alp", open_limit=2), "conflict")


async def test_players_are_named_from_their_clan_until_the_board_starts(arena: Arena) -> None:
    cid = await arena.propose()
    await _refused(arena.name(cid, 1, Side.CHALLENGER, "mem"), "conflict", "not_accepted")
    await arena.accept(cid)
    await _refused(arena.accept(cid), "conflict", "not_proposed")
    await _refused(arena.name(cid, 1, Side.CHALLENGER, "bme"), "not_found", "member")  # BET's player
    await _refused(arena.name(cid, 1, Side.CHALLENGER, "nobody"), "not_found", "member")
    await _refused(arena.name(cid, 3, Side.CHALLENGER, "mem"), "not_found", "board")
    await arena.name(cid, 1, Side.CHALLENGER, "mem")
    await arena.name(cid, 1, Side.CHALLENGER, "tgt")  # replaced while the other side is open
    from app.clans.challenges import service

    await _refused(
        arena.w.do(service.sign_up, arena.users["mem"], cid, 1, now=arena.clock.now()), "conflict", "seat_taken"
    )
    await arena.w.do(service.sign_up, arena.users["bme"], cid, 1, now=arena.clock.now())
    await _refused(arena.name(cid, 1, Side.CHALLENGER, "mem"), "conflict", "board_started")
    # one player may play several boards
    await arena.name(cid, 2, Side.CHALLENGED, "bme")
    arena.clock.advance(25 * 3600)
    await _refused(arena.name(cid, 2, Side.CHALLENGER, "tgt"), "conflict", "deadline_passed")


async def test_boards_become_matches_with_alternating_seats(arena: Arena) -> None:
    cid = await arena.ready(boards=2)
    for board, first, second in ((1, "mem", "bme"), (2, "bof", "off")):
        row = await arena.board(cid, board)
        assert row.match_id is not None
        info = await arena.matches.get_match(row.match_id)
        assert info["status"] == "active"
        async with arena.w.sessions() as s:
            m = await s.get(Match, row.match_id)
            assert m is not None
            assert (m.origin, m.origin_ref, m.options["rated"]) == (CHALLENGE, f"{cid}:{board}", True)
            assert [seat.user_id for seat in m.seats] == [arena.users[first], arena.users[second]]
    assert await arena.start(cid) == []  # started once


async def test_a_rated_challenge_with_a_bot_account_plays_unrated(arena: Arena) -> None:
    from app.clans import service as clans
    from tests.clans.conftest import LIMIT

    inv = await arena.w.do(clans.invite, arena.users["lea"], "ALP", "bot1", limit=LIMIT)
    await arena.w.do(clans.accept, arena.users["bot1"], "ALP", inv.id, limit=LIMIT)
    cid = await arena.ready(boards=1, pairs=(("bot1", "bme"),))
    row = await arena.board(cid, 1)
    async with arena.w.sessions() as s:
        m = await s.get(Match, row.match_id)
        assert m is not None and m.options["rated"] is False


async def test_a_series_won_by_one_clan_credits_the_clan_and_its_board_winners(arena: Arena) -> None:
    cid = await arena.ready(boards=2)
    m1 = await arena.lose(cid, 1, "bme")
    assert await arena.consume() == 2
    ch = await arena.challenge(cid)
    assert ch.status == ChallengeStatus.ACCEPTED and (await arena.board(cid, 1)).winner == "challenger"
    m2 = await arena.lose(cid, 2, "bof")
    assert await arena.consume() == 2
    ch = await arena.challenge(cid)
    assert (ch.status, ch.result, ch.challenger_wins, ch.challenged_wins) == ("finished", "win", 2, 0)
    effects = await arena.effects()
    alp = (await arena.w.state())["clans"][0][0]
    month = month_of(arena.clock.now())
    assert effects["clan_points"] == [(alp, month, POINTS.win, "challenge_win", str(cid))]
    assert sorted(effects["player_points"]) == sorted(
        [
            (arena.users["mem"], POINTS.board, "challenge_win", f"{cid}:1"),
            (arena.users["off"], POINTS.board, "challenge_win", f"{cid}:2"),
        ]
    )
    assert (await arena.w.history_codes("ALP"))[-1] == "challenge_finished"
    assert (await arena.w.history_codes("BET"))[-1] == "challenge_finished"
    # rated as usual: the ratings consumer rates the boards' matches
    assert await rate(arena.w.sessions) == 4
    async with arena.w.sessions() as s:
        rated = set(await s.scalars(select(RatingChange.match_id)))
    assert rated == {m1, m2}


async def test_one_board_each_is_a_drawn_series_without_points(arena: Arena) -> None:
    cid = await arena.ready(boards=2)
    await arena.lose(cid, 1, "bme")
    await arena.lose(cid, 2, "off")
    await arena.consume()
    ch = await arena.challenge(cid)
    assert (ch.status, ch.result, ch.challenger_wins, ch.challenged_wins) == ("finished", "draw", 1, 1)
    effects = await arena.effects()
    assert effects["clan_points"] == [] and effects["player_points"] == []


async def test_a_result_delivered_twice_decides_its_board_once(arena: Arena) -> None:
    cid = await arena.ready(boards=1, pairs=(("mem", "bme"),))
    match_id = await arena.lose(cid, 1, "mem")
    assert await arena.consume() == 2
    once = await arena.effects()
    assert once["challenges"][0][1:3] == ("finished", "loss") and len(once["clan_points"]) == 1
    # the same rows handed to the handler again (as a second delivery would be): nothing changes
    handler = results.make_handler(POINTS, arena.clock)
    async with arena.w.sessions() as s, s.begin():
        rows = list(await s.scalars(select(MatchResult).where(MatchResult.match_id == match_id)))
        await handler(s, rows)
    assert await arena.consume() == 0
    assert await arena.effects() == once


async def test_two_processes_claiming_results_at_once_decide_each_board_once(arena: Arena) -> None:
    cid = await arena.ready(boards=2)
    await arena.lose(cid, 1, "bme")
    await arena.lose(cid, 2, "bof")
    engine = make_engine(arena.w.url)
    arena.w.engines.append(engine)
    other = make_sessionmaker(engine)
    handler = results.make_handler(POINTS, arena.clock)
    for _ in range(20):
        got = await asyncio.gather(
            claim(arena.w.sessions, results.CONSUMER, handler, limit=1),
            claim(other, results.CONSUMER, handler, limit=1),
            return_exceptions=True,
        )
        assert all(not isinstance(g, Exception) or isinstance(g, IntegrityError) for g in got), got
        if got == [0, 0]:
            break
    effects = await arena.effects()
    assert effects["challenges"][0][1:5] == ("finished", "win", 2, 0)
    assert len(effects["clan_points"]) == 1 and len(effects["player_points"]) == 2
    codes = await arena.w.history_codes("ALP")
    assert codes.count("challenge_finished") == 1
