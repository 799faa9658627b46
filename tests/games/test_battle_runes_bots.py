"""Battle Runes bots: legality, strength against each other, and the equilibrium solver."""

from __future__ import annotations

import random
import time
from collections import Counter

import numpy as np
import pytest

from app.games.battle_runes import BattleRunes, GreedyBot, NashBot, Pick, RandomBot
from app.games.battle_runes.bots import position_value, solve_zero_sum
from app.games.core import CHANCE, make_bot, play_out

RULES = BattleRunes()
BOTS = [RandomBot(), GreedyBot(), NashBot()]


def policy(bot):
    """A driver policy that asks ``bot`` with the seat's observation only."""

    def choose(state, seat, rng):
        return bot.choose(RULES.observe(state, seat), RULES.legal_actions(state, seat), rng)

    return choose


def choosing_states(seed: int, limit: int = 40):
    """Choosing states of a random game."""
    rng = random.Random(seed)
    state = RULES.initial_state(2, {})
    found = 0
    while RULES.to_act(state) and found < limit:
        if RULES.to_act(state) == {CHANCE}:
            state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
            continue
        found += 1
        yield state
        state, _ = RULES.apply(state, {p: rng.choice(RULES.legal_actions(state, p)) for p in (0, 1)})


def head_to_head(bot, other, games: int, seed: int = 1000) -> Counter:
    """``bot``'s results over ``games`` seeded games, alternating seats."""
    results: Counter = Counter()
    for g in range(games):
        seat = g % 2
        policies = {seat: policy(bot), 1 - seat: policy(other)}
        state, _ = play_out(RULES, 2, rng=random.Random(seed + g), policies=policies)
        pair = (state.outcome.results[seat], state.outcome.results[1 - seat])
        results[{("win", "loss"): "win", ("loss", "win"): "loss"}.get(pair, "other")] += 1
    return results


# --------------------------------------------------------------------------------------------------


def test_registry_levels_make_these_bots():
    assert isinstance(make_bot("battle_runes", "random"), RandomBot)
    assert isinstance(make_bot("battle_runes", "greedy"), GreedyBot)
    assert isinstance(make_bot("battle_runes"), NashBot)  # strongest last


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
@pytest.mark.parametrize("seed", range(3))
def test_bots_return_legal_actions(bot, seed):
    rng = random.Random(seed)
    for state in choosing_states(seed):
        for seat in (0, 1):
            legal = RULES.legal_actions(state, seat)
            action = bot.choose(RULES.observe(state, seat), legal, rng)
            assert action in legal


@pytest.mark.parametrize("bot", [GreedyBot(), NashBot()], ids=lambda b: b.name)
def test_bots_refuse_a_spectator_view(bot):
    state = next(choosing_states(0))
    with pytest.raises(ValueError):
        bot.choose(RULES.observe(state, None), RULES.legal_actions(state, 0), random.Random(0))


def test_nash_beats_random_clearly():
    results = head_to_head(NashBot(), RandomBot(), 200)
    assert results["win"] >= 170, results  # observed 199 of 200
    assert results["loss"] <= 15, results


def test_greedy_beats_random():
    results = head_to_head(GreedyBot(), RandomBot(), 200, seed=5000)
    assert results["win"] >= 120, results  # observed about 150 of 200


def test_nash_beats_greedy():
    results = head_to_head(NashBot(), GreedyBot(), 60, seed=9000)
    assert results["win"] >= 42, results  # observed about 88%


def test_nash_decides_fast():
    bot = NashBot()
    rng = random.Random(0)
    states = [s for seed in range(3) for s in choosing_states(seed, 15)]
    bot.choose(RULES.observe(states[0], 0), RULES.legal_actions(states[0], 0), rng)  # warm-up
    times = []
    for state in states:
        t0 = time.perf_counter()
        bot.choose(RULES.observe(state, 0), RULES.legal_actions(state, 0), rng)
        times.append(time.perf_counter() - t0)
    assert sum(times) / len(times) < 0.05


# --------------------------------------------------------------------------------------------------


def test_greedy_assumes_the_opponent_plays_nothing():
    # With the opponent playing nothing, S1+9 gets its +9: S1+9 + S3 + S2 = 15 is the best gain
    # (S1+9 + S3 + R1 = 14; Double R doubles a small destruction only).
    state = RULES.position((("S2", "S3", "S1P9", "R1", "DOUBLE_R"), ("R1", "R2", "R3", "FIRE", "R1P8")))
    obs, legal = RULES.observe(state, 0), RULES.legal_actions(state, 0)
    for seed in range(5):
        assert GreedyBot().choose(obs, legal, random.Random(seed)) == Pick.of("S2", "S3", "S1P9")


def test_greedy_breaks_ties_with_the_rng():
    # Double R, Diff-R and Swap-R add nothing without destruction: S2 + S3 + any of them tie on 5.
    state = RULES.position((("S2", "S3", "DOUBLE_R", "DIFF_R", "SWAP_R"), ("R1", "R2", "R3", "S1", "S2")))
    obs, legal = RULES.observe(state, 0), RULES.legal_actions(state, 0)
    chosen = {GreedyBot().choose(obs, legal, random.Random(seed)) for seed in range(30)}
    assert {pick.runes for pick in chosen} == {("S2", "S3", "DOUBLE_R"), ("S2", "S3", "DIFF_R"), ("S2", "S3", "SWAP_R")}


def test_position_value():
    assert position_value((50, 30), 0, 50) == 1.0
    assert position_value((50, 30), 1, 50) == -1.0
    assert position_value((55, 51), 0, 50) == 0.0  # both win
    assert position_value((0, -3), 1, 50) == 0.0  # both lose
    assert position_value((30, 20), 0, 50, turn=4, max_turns=4) == 0.0  # turn-cap draw
    assert position_value((25, 25), 0, 50) == 0.0
    for scores in [(30, 20), (49, 30), (10, 45), (26, 25)]:
        v = position_value(scores, 0, 50)
        assert -0.9 < v < 0.9
        assert v == pytest.approx(-position_value(scores, 1, 50))
    # 49 against 30 (one point from winning) is better than 40 against 21 (same difference).
    assert position_value((49, 30), 0, 50) > position_value((40, 21), 0, 50) > 0


def test_solver_matching_pennies_and_rock_paper_scissors():
    probs, value = solve_zero_sum([[1, -1], [-1, 1]])
    assert probs == pytest.approx([0.5, 0.5], abs=1e-6) and value == pytest.approx(0, abs=1e-9)
    rps = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    probs, value = solve_zero_sum(rps)
    assert probs == pytest.approx([1 / 3] * 3, abs=1e-6) and value == pytest.approx(0, abs=1e-9)
    # a biased game: value and strategy known in closed form
    probs, value = solve_zero_sum([[3, -1], [-2, 1]])
    assert probs == pytest.approx([3 / 7, 4 / 7], abs=1e-6) and value == pytest.approx(1 / 7, abs=1e-6)


def test_solver_dominant_row_and_errors():
    probs, value = solve_zero_sum([[0.2, 0.1, 0.3], [0.5, 0.4, 0.6], [0.1, 0.0, -1.0]])
    assert list(probs) == [0.0, 1.0, 0.0] and value == pytest.approx(0.4)
    with pytest.raises(ValueError):
        solve_zero_sum([])


@pytest.mark.parametrize("seed", range(4))
def test_nash_strategy_is_a_distribution(seed):
    bot = NashBot()
    for state in choosing_states(seed, 12):
        for seat in (0, 1):
            legal = RULES.legal_actions(state, seat)
            probs, value = bot.strategy(RULES.observe(state, seat), legal)
            assert probs.shape == (len(legal),)
            assert np.all(probs >= 0) and probs.sum() == pytest.approx(1.0)
            matrix = bot.payoffs(RULES.observe(state, seat), legal)
            assert matrix.shape == (len(legal), 10)
            # the equilibrium guarantees its value against every reply
            assert np.all(probs @ matrix >= value - 1e-6)
            assert -1.0 <= value <= 1.0


def test_nash_plays_the_dominant_pick():
    # Seat 0 on 44 against 30; S1+S2+S3 reaches 50 whatever seat 1 does (seat 1 has no destruction,
    # no swap and cannot reach 50): a certain win, while every other pick leaves the game going.
    hands = (("S1", "S2", "S3", "R1", "SWAP_R"), ("S1", "S2", "S3", "DOUBLE_S", "FIRE"))
    state = RULES.position(hands, scores=(44, 30))
    obs, legal = RULES.observe(state, 0), RULES.legal_actions(state, 0)
    bot = NashBot()
    matrix = bot.payoffs(obs, legal)
    best = legal.index(Pick.of("S1", "S2", "S3"))
    assert np.all(matrix[best] == 1.0)
    others = np.delete(matrix, best, axis=0)
    assert np.all(others.max(axis=0) < matrix[best])  # strictly dominant
    probs, value = bot.strategy(obs, legal)
    assert probs[best] == pytest.approx(1.0) and value == pytest.approx(1.0)
    for seed in range(20):
        assert bot.choose(obs, legal, random.Random(seed)) == Pick.of("S1", "S2", "S3")


def test_nash_mixes_when_no_pure_pick_is_safe():
    # Swap-S lets seat 1 steal a big construction; seat 0 must not be predictable.
    state = RULES.position(
        (("S1P8", "WATER", "DOUBLE_S", "R1", "R2"), ("SWAP_S", "S1", "R1", "R3", "ZERO")), scores=(40, 40)
    )
    probs, _ = NashBot().strategy(RULES.observe(state, 0), RULES.legal_actions(state, 0))
    assert np.count_nonzero(probs > 1e-6) >= 2
