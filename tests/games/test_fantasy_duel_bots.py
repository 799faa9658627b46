"""Fantasy súboj bots: legal choices from the observation only, sensible choices, and strength."""

from __future__ import annotations

import random

from app.games.core import CHANCE, bot_levels, play_out
from app.games.fantasy_duel import RULES, HeuristicBot, RandomBot
from app.games.fantasy_duel.actions import Attacker, Back, Draw, Recruit, Target
from app.games.fantasy_duel.positions import card_of, position
from app.games.fantasy_duel.state import SPOILS


def _policy(bot):
    def policy(state, seat, rng):
        return bot.choose(RULES.bot_observation(state, seat), RULES.legal_actions(state, seat), rng)

    return policy


def test_levels_easiest_first():
    assert bot_levels("fantasy_duel") == ["random", "heuristic"]


def test_bots_choose_legal_actions_in_every_phase():
    rng = random.Random(5)
    for bot in (RandomBot(), HeuristicBot()):
        for n in (2, 5, 8):
            state = RULES.initial_state(n, {})
            while RULES.to_act(state):
                (seat,) = RULES.to_act(state)
                if seat == CHANCE:
                    action = RULES.sample_chance(state, rng)
                else:
                    legal = RULES.legal_actions(state, seat)
                    action = bot.choose(RULES.bot_observation(state, seat), legal, rng)
                    assert action in legal
                state, _ = RULES.apply(state, {seat: action})


def test_random_bot_never_takes_back_an_attacker():
    state = position([["rytier", "sedliak"], ["zombie", "duch"]])
    state, _ = RULES.apply(state, {0: Attacker(card_of(state, 0, "rytier"))})
    legal = RULES.legal_actions(state, 0)
    assert Back() in legal
    rng = random.Random(1)
    assert all(RandomBot().choose(RULES.bot_observation(state, 0), legal, rng) != Back() for _ in range(50))


def test_heuristic_picks_the_sure_win():
    # Kušostrelec (15 + d6) always beats Sedliak (defence 5); Sedliak against Obrnenec always loses.
    state = position([["sedliak", "kusostrelec"], ["obrnenec", "zombie"]])
    obs = RULES.bot_observation(state, 0)
    choice = HeuristicBot().choose(obs, RULES.legal_actions(state, 0), random.Random(0))
    assert choice == Attacker(card_of(state, 0, "kusostrelec"))
    state, _ = RULES.apply(state, {0: choice})
    choice = HeuristicBot().choose(RULES.bot_observation(state, 0), RULES.legal_actions(state, 0), random.Random(0))
    assert choice == Target(card_of(state, 1, "zombie"))


def test_heuristic_recruits_a_better_unit_and_draws():
    state = position([["duch", "zombie", "sedliak"], ["rytier", "sermiar"]], deck=["vila"])
    state, _ = RULES.apply(state, {0: Attacker(card_of(state, 0, "duch"))})
    state, _ = RULES.apply(state, {0: Target(card_of(state, 1, "rytier"))})
    state, _ = RULES.apply(state, {CHANCE: RULES.decode_action({"dice": [6, 6]})})  # 9 + 12 + 2 + 4 = 27 vs 14
    assert state.phase == SPOILS and RULES.to_act(state) == {0}
    choice = HeuristicBot().choose(RULES.bot_observation(state, 0), RULES.legal_actions(state, 0), random.Random(0))
    assert choice == Recruit(card_of(state, 0, "sedliak"))
    assert HeuristicBot().choose({}, [Draw(), RULES.decode_action({"defer": True})], random.Random(0)) == Draw()


def test_heuristic_beats_random_in_four_player_games():
    games = 40
    wins = {"heuristic": 0, "random": 0}
    for name, bot in (("heuristic", HeuristicBot()), ("random", RandomBot())):
        for seed in range(games):
            seat = seed % 4
            state, _ = play_out(RULES, 4, rng=random.Random(7000 + seed), policies={seat: _policy(bot)})
            outcome = RULES.outcome(state)
            assert outcome is not None
            wins[name] += outcome.results[seat] == "win"
    assert wins["heuristic"] >= 0.4 * games, wins  # the fair share is 1 in 4
    assert wins["heuristic"] >= wins["random"] + 8, wins  # seeded: 20 against 7
