"""Treasure Beasts bots: they act only on their seat's observation, always legally; the greedy bot
beats the random one clearly and the planner beats the greedy one."""

from __future__ import annotations

import json
import random

import pytest

from app.games.core import CHANCE, LegalMemo, make_bot, play_out
from app.games.treasure_beasts import RULES, GreedyBot, PlannerBot, RandomBot
from app.games.treasure_beasts.bots import CARD_VALUE


def _policy(bot, memo: LegalMemo):
    def policy(state, seat, rng):
        observation = json.loads(json.dumps(RULES.bot_observation(state, seat)))  # only what the seat sees
        return bot.choose(observation, memo.legal(RULES, state, seat), rng)

    return policy


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_bots_play_legal_games_to_the_end(players):
    memo = LegalMemo()
    policies = {s: _policy(GreedyBot(), memo) for s in range(players)}
    state, _log = play_out(RULES, players, rng=random.Random(players), policies=policies, max_steps=20_000)
    assert state.outcome is not None and state.outcome.winners


def test_greedy_beats_random_in_three_player_games():
    """Seeded: the greedy bot takes each seat in turn against two random bots."""
    games, wins = 24, 0
    for game in range(games):
        seat = game % 3
        memo = LegalMemo()
        state, _ = play_out(RULES, 3, rng=random.Random(1000 + game), policies={seat: _policy(GreedyBot(), memo)})
        wins += state.outcome.results[seat] == "win"
    assert wins >= 0.8 * games, f"greedy won {wins} of {games}"


def test_random_bot_and_timeout_use_the_legal_list():
    rng = random.Random(2)
    state = RULES.initial_state(3, {})
    state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
    legal = RULES.legal_actions(state, 1)
    assert RandomBot().choose(RULES.observe(state, 1), legal, rng) in legal
    assert RULES.timeout_action(state, 1, rng) in legal
    assert type(make_bot("treasure_beasts")) is PlannerBot


def test_greedy_drafts_by_card_value():
    rng = random.Random(3)
    state = RULES.initial_state(2, {})
    state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
    legal = RULES.legal_actions(state, 0)
    pick = GreedyBot().choose(RULES.observe(state, 0), legal, rng)
    assert CARD_VALUE[pick.card] == max(CARD_VALUE[a.card] for a in legal)
    assert min(CARD_VALUE.values()) < max(CARD_VALUE.values())


def test_planner_rebuilds_the_position_it_sees():
    from app.games.treasure_beasts.planner import from_observation

    rng = random.Random(6)
    state = RULES.initial_state(3, {"center_treasure": 40})
    while state.phase != "main" or state.turn < 4:
        to_act = RULES.to_act(state)
        actions = (
            {CHANCE: RULES.sample_chance(state, rng)}
            if CHANCE in to_act
            else {s: rng.choice(list(RULES.legal_actions(state, s))) for s in to_act}
        )
        state, _ = RULES.apply(state, actions)
    seat = state.active
    rebuilt = from_observation(RULES.book, json.loads(json.dumps(RULES.bot_observation(state, seat))))
    assert rebuilt.creatures == state.creatures and rebuilt.center == state.center
    assert rebuilt.players[seat].hand == state.players[seat].hand
    assert [len(p.hand) for p in rebuilt.players] == [len(p.hand) for p in state.players]
    assert rebuilt.config == state.config and rebuilt.ap == state.ap
    assert set(RULES.legal_actions(rebuilt, seat)) == set(RULES.legal_actions(state, seat))


def test_planner_beats_greedy():
    """Seeded 3-player games, the planner in each seat in turn against two greedy bots: it wins
    clearly more than its fair third."""
    games, wins = 18, 0
    for game in range(games):
        seat = game % 3
        memo = LegalMemo()
        policies = {s: _policy(PlannerBot() if s == seat else GreedyBot(), memo) for s in range(3)}
        state, _ = play_out(RULES, 3, rng=random.Random(7100 + game), policies=policies)
        wins += state.outcome.results[seat] == "win"
    assert wins >= 8, f"planner won {wins} of {games}"


def test_planner_beats_two_random_bots_outright():
    """Seeded (issue 11: the best level beats random in at least 80 of 100 three-player games; the
    100-game figure is in bench and docs/treasure_beasts_balance.md): the planner takes each seat
    in turn against two random bots and must win at least 80% outright (sole winner)."""
    games, wins = 30, 0
    for game in range(games):
        seat = game % 3
        memo = LegalMemo()
        policies = {seat: _policy(PlannerBot(), memo)}
        state, _ = play_out(RULES, 3, rng=random.Random(7000 + game), policies=policies, max_steps=20_000)
        wins += state.outcome.winners == (seat,)
    assert wins >= 0.8 * games, f"planner won {wins} of {games}"
