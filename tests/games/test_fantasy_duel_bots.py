"""Fantasy súboj bots: legal choices from the observation only, sensible choices, and strength."""

from __future__ import annotations

import random

from app.games.core import CHANCE, bot_levels
from app.games.fantasy_duel import RULES, HeuristicBot, RandomBot
from app.games.fantasy_duel.actions import Attacker, Back, Draw, Recruit, Target
from app.games.fantasy_duel.positions import card_of, position
from app.games.fantasy_duel.state import SPOILS
from bench.fantasy_duel_strength import STRENGTH_SEED, play_games


def test_levels_easiest_first():
    assert bot_levels("fantasy_duel") == ["random", "casual", "heuristic"]


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
    """The strength claim on a seeded sample (``bench/fantasy_duel_strength.py`` reports 100 games):
    one heuristic seat against three random seats, the tested seat rotating, wins outright (a
    shared best score is no win) at least 110 of 200 games, more than twice the fair share of 50;
    the random level in the same seats of the same games wins about that fair share. Measured:
    126 and 41; the heuristic before issue 10 won 109 (docs/fantasy_duel_bots.md)."""
    games = 200
    best = play_games(HeuristicBot(), games, STRENGTH_SEED)
    rand = play_games(RandomBot(), games, STRENGTH_SEED)
    assert best["win"] + best["draw"] + best["loss"] == games
    assert best["win"] >= 110, best
    assert rand["win"] <= 65 and best["win"] >= rand["win"] + 50, (best, rand)
    assert sum(best["margins"]) > 0  # on average ahead of the best random seat


def test_strength_bounds_run_and_beat_the_heuristic_with_best_dice():
    """The bound that judges the 90-in-100 target: rolling near-best dice on every own attack wins
    more than the heuristic does with its real dice (same seeds), yet not every game."""
    real = play_games(HeuristicBot(), 40, STRENGTH_SEED)
    lucky = play_games(HeuristicBot(), 40, STRENGTH_SEED, bound="best-dice")
    seeing = play_games(HeuristicBot(), 8, STRENGTH_SEED, bound="own-dice")
    assert lucky["win"] > real["win"] and lucky["loss"] > 0, (real, lucky)
    assert seeing["win"] + seeing["draw"] + seeing["loss"] == 8
