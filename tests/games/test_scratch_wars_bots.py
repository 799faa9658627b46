"""Scratch Wars computer players: legal choices in every phase and level, decisions in clear
positions, strength against each other, and decision time."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from app.games.core import CHANCE, make_bot
from app.games.scratch_wars import RULES as SHIPPED
from app.games.scratch_wars import Slot
from app.games.scratch_wars.actions import (
    EndTurn,
    FirePermanent,
    Loadout,
    Skip,
    SpendShield,
    StartWeapon,
    Target,
    Use,
)
from app.games.scratch_wars.bots import ExpectimaxBot, GreedyBot, RandomBot
from app.games.scratch_wars.data import COMBO, PERMANENT_ATTACK, SHIELD
from tests.games.test_scratch_wars_golden import BW, SW, A, B, act, position, spin
from tests.games.test_scratch_wars_golden import RULES as FIXTURE

OPTION_SETS = [
    {"level": 1},
    {"level": 2},
    {"level": 2, "effects": "every_effect_attacks"},
    {"level": 3},
    {"level": 3, "random_loadouts": True},
]


def play(bots, seed: int, options: dict | None = None, rules=SHIPPED, check: bool = False):
    """A game between ``bots[0]`` and ``bots[1]`` asked with their own observations only."""
    rng = random.Random(seed)
    state = rules.initial_state(2, rules.normalize_options(options or {}))
    phases = Counter()
    while rules.to_act(state):
        to_act = rules.to_act(state)
        if to_act == {CHANCE}:
            state, _ = rules.apply(state, {CHANCE: rules.sample_chance(state, rng)})
            continue
        actions = {}
        for seat in to_act:
            legal = rules.legal_actions(state, seat)
            action = bots[seat].choose(rules.bot_observation(state, seat), legal, rng)
            if check:
                assert action in legal, (state.phase, action)
            phases[state.phase] += 1
            actions[seat] = action
        state, _ = rules.apply(state, actions)
    return state, phases


def head_to_head(bot, other, games: int, seed: int = 100) -> Counter:
    """``bot``'s results over ``games`` seeded games of random loadouts, alternating seats."""
    results: Counter = Counter()
    for g in range(games):
        seat = g % 2
        bots = {seat: bot, 1 - seat: other}
        state, _ = play(bots, seed + g, {"random_loadouts": True})
        results[state.outcome.results[seat]] += 1
    return results


# ---------------------------------------------------------------------------------------- registry


def test_registry_levels_make_these_bots():
    assert isinstance(make_bot("scratch_wars", "random"), RandomBot)
    assert isinstance(make_bot("scratch_wars", "expectimax"), ExpectimaxBot)
    assert isinstance(make_bot("scratch_wars"), ExpectimaxBot)  # strongest last


# ---------------------------------------------------------------------------------- legal choices


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), ExpectimaxBot()], ids=lambda b: b.name)
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: str(sorted(o.items())))
def test_bots_play_legal_actions_at_every_level(bot, options):
    seen = Counter()
    for seed in range(3):
        state, phases = play({0: bot, 1: bot}, seed, options, check=True)
        assert SHIPPED.outcome(state) is not None
        seen.update(phases)
    assert seen["main"] and seen["decide"] and seen["start_weapon"]


def test_bots_cover_targets_shields_and_combos():
    seen = Counter()
    for seed in range(12):
        _, phases = play({0: ExpectimaxBot(), 1: GreedyBot()}, seed, check=True)
        seen.update(phases)
    assert seen["target"] and seen["shield"] and seen["combo"] and seen["start_choice"]


@pytest.mark.parametrize("bot", [GreedyBot(), ExpectimaxBot()], ids=lambda b: b.name)
def test_bots_refuse_a_spectator_view(bot):
    state = position()
    with pytest.raises(ValueError):
        bot.choose(FIXTURE.observe(state, None), FIXTURE.legal_actions(state, A), random.Random(0))


def test_timeout_action_plays_every_phase():
    rng = random.Random(5)
    state = SHIPPED.initial_state(2, {})
    while SHIPPED.to_act(state):
        to_act = SHIPPED.to_act(state)
        if to_act == {CHANCE}:
            actions = {CHANCE: SHIPPED.sample_chance(state, rng)}
        else:
            actions = {s: SHIPPED.timeout_action(state, s, rng) for s in to_act}
            for s, a in actions.items():
                assert SHIPPED.is_legal(state, s, a)
        state, _ = SHIPPED.apply(state, actions)


def test_loadout_choice_is_a_hero_with_its_suggested_weapons():
    state = SHIPPED.initial_state(2, {})
    legal = SHIPPED.legal_actions(state, 0)
    choices = [ExpectimaxBot().choose(SHIPPED.observe(state, 0), legal, random.Random(s)) for s in range(40)]
    assert all(isinstance(c, Loadout) and c.weapons == SHIPPED.book.starter_loadout(c.hero) for c in choices)
    assert len({c.hero for c in choices if isinstance(c, Loadout)}) > 5  # varied heroes


# ---------------------------------------------------------------------------- decisions (fixtures)


def _bot():
    return ExpectimaxBot(rules=FIXTURE)


def _choose(bot, state, seat):
    return bot.choose(FIXTURE.bot_observation(state, seat), FIXTURE.legal_actions(state, seat), random.Random(0))


def test_uses_an_orange_attack_that_wins():
    state = position(round=4, lives=(30, 4), energy=(12, 0))
    state, _ = spin(state, SW, "attack_hero", 4, "orange")
    assert isinstance(_choose(_bot(), state, A), Use)


def test_skips_a_weak_orange_effect_with_the_turn_ahead():
    state = position(round=4, energy=(12, 0))
    state, _ = spin(state, SW, "attack_hero", 1, "orange")
    bot = _bot()
    values = bot.values(state, A)
    assert values[Skip()] > values[Use(-1)]
    assert _choose(bot, state, A) == Skip()


def test_spends_a_shield_against_a_lethal_hit():
    b_slots = (Slot("SW"), Slot("BW", 0, SHIELD, 2), Slot("WD"))
    state = position(round=4, lives=(30, 3), energy=(12, 0), slots=(None, b_slots))
    state, _ = spin(state, SW, "attack_hero", 4, "green")
    state, _ = act(state, Use(-1))
    assert FIXTURE.to_act(state) == {B}
    assert _choose(_bot(), state, B) == SpendShield(BW)


def test_targets_the_hero_when_that_wins():
    b_slots = (Slot("SW"), Slot("BW", 0, COMBO, 3), Slot("WD"))
    state = position(round=4, lives=(30, 3), energy=(12, 0), slots=(None, b_slots))
    state, _ = spin(state, SW, "universal_attack", 3, "green")
    state, _ = act(state, Use(-1))
    assert _choose(_bot(), state, A) == Target("hero")


def test_cancels_a_big_permanent_attack_rather_than_a_small_hit():
    b_slots = (Slot("SW"), Slot("BW", 0, PERMANENT_ATTACK, 4), Slot("WD"))
    state = position(round=4, energy=(12, 0), slots=(None, b_slots))
    state, _ = spin(state, SW, "universal_attack", 3, "green")
    state, _ = act(state, Use(-1))
    assert _choose(_bot(), state, A) == Target("effect", BW)


def test_detonates_combos_that_win():
    a_slots = (Slot("SW", 0, COMBO, 3), Slot("BW", 0, COMBO, 4), Slot("WD"))
    state = position(round=2, lives=(30, 7), slots=(a_slots, None))
    state, _ = act(state, EndTurn())
    bot = _bot()
    while state.phase in ("combo", "target"):
        state, _ = act(state, _choose(bot, state, A))
    assert FIXTURE.outcome(state) is not None and FIXTURE.outcome(state).results == ("win", "loss")


def _two_queued(b_slots=None):
    """A's turn ends with permanent attacks 5 on SW and 2 on BW: A orders them (AMBIGUITY 16)."""
    a_slots = (Slot("SW", 0, PERMANENT_ATTACK, 5), Slot("BW", 0, PERMANENT_ATTACK, 2), Slot("WD"))
    state, _ = act(position(round=2, slots=(a_slots, b_slots)), EndTurn())
    assert state.phase == "order"
    return state


def test_greedy_fires_the_weakest_permanent_attack_first():
    shielded = (Slot("SW"), Slot("BW", 0, SHIELD, 3), Slot("WD"))
    assert _choose(GreedyBot(rules=FIXTURE), _two_queued(shielded), A) == FirePermanent(BW)


def test_expectimax_orders_permanent_attacks_and_the_match_goes_on():
    bot = _bot()
    state = _two_queued()
    assert set(bot.values(state, A)) == {FirePermanent(SW), FirePermanent(BW)}
    state, _ = act(state, _choose(bot, state, A))
    assert state.active == B and state.seats[B].lives == 30 - 7


def test_the_start_weapon_is_the_best_number_and_the_winner_starts():
    bot = GreedyBot()
    state = SHIPPED.initial_state(2, {})
    state, _ = SHIPPED.apply(state, {0: Loadout("BRAM", ("TINS", "IRON")), 1: Loadout("GORM", ("THND",))})
    assert bot.choose(SHIPPED.observe(state, 0), SHIPPED.legal_actions(state, 0), random.Random(0)) == StartWeapon(1)


# -------------------------------------------------------------------------------- strength, speed


def test_expectimax_beats_random_clearly():
    results = head_to_head(ExpectimaxBot(), RandomBot(), 20)
    assert results["win"] >= 18, results  # observed 20 of 20


def test_greedy_beats_random():
    results = head_to_head(GreedyBot(), RandomBot(), 40, seed=300)
    assert results["win"] >= 32, results  # observed 40 of 40


def test_expectimax_beats_greedy():
    results = head_to_head(ExpectimaxBot(), GreedyBot(), 40, seed=500)
    assert results["win"] >= 22, results  # observed 29 of 40 (1 draw)


def test_expectimax_decides_fast():
    bot = ExpectimaxBot()
    greedy = GreedyBot()
    rng = random.Random(1)
    times = []
    for seed in range(3):
        game_rng = random.Random(seed)
        state = SHIPPED.initial_state(2, {"random_loadouts": True})
        while SHIPPED.to_act(state):
            to_act = SHIPPED.to_act(state)
            if to_act == {CHANCE}:
                state, _ = SHIPPED.apply(state, {CHANCE: SHIPPED.sample_chance(state, game_rng)})
                continue
            actions = {}
            for seat in to_act:
                obs, legal = SHIPPED.bot_observation(state, seat), SHIPPED.legal_actions(state, seat)
                t0 = time.perf_counter()
                bot.choose(obs, legal, rng)
                times.append(time.perf_counter() - t0)
                actions[seat] = greedy.choose(obs, legal, game_rng)
            state, _ = SHIPPED.apply(state, actions)
    assert sum(times) / len(times) < 0.1
