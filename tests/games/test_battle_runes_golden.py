"""Every GOLDEN CASE (1-24) of rules/battle_runes.md, with exactly the stated numbers.

Cases 1-23 are checked twice: through the pure :func:`resolve_turn` and through the engine's
``apply`` on a position whose hands hold the two picks (given in the spec's order, decoded through
``decode_action``). Seat 0 is the spec's player A, seat 1 player B.
"""

from __future__ import annotations

import random

import pytest

from app.games.battle_runes import BattleRunes, Pick, Resolution, resolve_turn
from app.games.battle_runes.data import DECK
from app.games.battle_runes.engine import BattleRunesState
from app.games.core import CHANCE, Outcome

RULES = BattleRunes()


def _hand(pick: tuple[str, ...]) -> tuple[str, ...]:
    """The pick plus the first two other runes of the deck: a 5-rune hand holding the pick."""
    fillers = [r for r in DECK if r not in pick][:2]
    return (*pick, *fillers)


def golden(
    a: tuple[str, ...],
    b: tuple[str, ...],
    scores: tuple[int, int],
    start: tuple[int, int] = (25, 25),
    options: dict | None = None,
) -> tuple[Resolution, BattleRunesState]:
    """Resolve A's and B's picks both ways; assert the new scores; return both results."""
    res = resolve_turn((a, b), start, options)
    assert res.scores_before == start
    assert res.scores_after == scores

    state = RULES.position((_hand(a), _hand(b)), scores=start, options=options)
    actions = {0: RULES.decode_action({"runes": list(a)}), 1: RULES.decode_action({"runes": list(b)})}
    assert actions[0] in RULES.legal_actions(state, 0) and actions[1] in RULES.legal_actions(state, 1)
    new, events = RULES.apply(state, actions)
    assert new.scores == scores
    assert new.turn == 1
    assert new.last == resolve_turn((actions[0].runes, actions[1].runes), start, options)
    resolved = [e for e in events if e.kind == "turn_resolved"]
    assert len(resolved) == 1 and resolved[0].data["scores_after"] == list(scores)
    return res, new


def assert_continues(state: BattleRunesState) -> None:
    assert state.outcome is None
    assert RULES.to_act(state) == frozenset({0, 1})


# --------------------------------------------------------------------------------------------------


def test_case_01_seed_worked_example():
    res, state = golden(("R1P5", "WATER", "SWAP_ALL"), ("S1P5", "R1P9", "DIFF_S"), (24, 42))
    assert res.base_S == (0, 6) and res.base_R == (1, 1)  # S1+5 = 6 (Water), R1+9 = 1, R1+5 = 1
    assert res.final_S == (0, 18) and res.final_R == (1, 1)
    assert res.swap_all_applied == 0  # Water only: Swap-All does not fire
    assert not res.annulled
    assert_continues(state)


def test_case_02_s1p8_water_double_s_is_18():
    res, state = golden(("S1P8", "WATER", "DOUBLE_S"), ("R1", "R2", "R3"), (37, 25))
    assert res.final_S[0] == 18
    assert res.final_R[1] == 6
    assert_continues(state)


def test_case_03_s1p8_water_diff_s_is_27():
    res, state = golden(("S1P8", "WATER", "DIFF_S"), ("R1", "R2", "R3"), (46, 25))
    assert res.base_S[0] == 9
    assert res.final_S[0] == 27
    assert_continues(state)


def test_case_04_s2p5_double_s_diff_s_is_42():
    res, state = golden(("S2P5", "DOUBLE_S", "DIFF_S"), ("FIRE", "DOUBLE_S", "DOUBLE_R"), (67, 25))
    assert res.base_S[0] == 7
    assert res.final_S[0] == 42
    assert state.outcome == Outcome(("win", "loss"), (67, 25), "score_50")


def test_case_05_s1p9_double_s_diff_s_is_60():
    res, state = golden(("S1P9", "DOUBLE_S", "DIFF_S"), ("R1", "R2", "R3"), (79, 25))
    assert res.base_S[0] == 10
    assert res.final_S[0] == 60
    assert state.outcome is not None and state.outcome.results == ("win", "loss")


def test_case_06_s1p11_double_s_diff_s_is_72():
    res, state = golden(("S1P11", "DOUBLE_S", "DIFF_S"), ("WATER", "R1", "R2"), (94, 25))
    assert res.base_S[0] == 12
    assert res.final_S[0] == 72
    assert res.final_R[1] == 3
    assert not res.annulled
    assert state.outcome is not None and state.outcome.results == ("win", "loss")


def test_case_07_diff_s_seed_example():
    res, state = golden(("S2", "S3", "DIFF_S"), ("S2", "R1", "R2"), (33, 27))
    assert res.final_S == (11, 2)
    assert res.final_R[1] == 3
    assert_continues(state)


def test_case_08_diff_r_benefits_the_opponent():
    res, state = golden(("R1", "DIFF_R", "DOUBLE_S"), ("R3", "S1", "S2"), (18, 27))
    assert res.final_R == (1, 7)
    assert res.final_S[1] == 3
    assert_continues(state)


def test_case_09_identical_swaps_cancel():
    res, state = golden(("S3", "SWAP_S", "R1"), ("S1", "SWAP_S", "R2"), (26, 25))
    assert res.final_S == (3, 1)
    assert_continues(state)


def test_case_10_swap_self_and_swap_opp_cancel():
    res, state = golden(("S3", "R1", "SWAP_SELF"), ("SWAP_OPP", "S1", "R2"), (26, 25))
    assert res.final_S[0] == 3 and res.final_R[0] == 1
    assert_continues(state)


def test_case_11_swap_all_fires():
    res, state = golden(("FIRE", "SWAP_ALL", "S3"), ("WATER", "R1", "S1"), (26, 27))
    assert res.scores_settled == (27, 26)
    assert res.swap_all_applied == 1
    assert_continues(state)


def test_case_12_swap_all_played_by_both_cancels():
    res, state = golden(("FIRE", "SWAP_ALL", "S3"), ("WATER", "SWAP_ALL", "S1"), (28, 26))
    assert res.scores_settled == (28, 26)
    assert res.swap_all_applied == 2  # both swapped: they cancel
    assert_continues(state)


def test_case_13_zero_annuls():
    res, state = golden(("S1P8", "WATER", "DOUBLE_S"), ("ZERO", "R3", "R2"), (25, 25))
    assert res.annulled
    assert res.base_S == res.base_R == res.final_S == res.final_R == (0, 0)
    assert_continues(state)


def test_case_14_zero_without_fire_or_water_does_nothing():
    res, state = golden(("S3", "S2", "S1"), ("ZERO", "R3", "R2"), (26, 25))
    assert not res.annulled
    assert res.final_S == (6, 0) and res.final_R == (0, 5)
    assert_continues(state)


def test_case_15_s1_plus_r():
    res, state = golden(("S1PR", "R3", "R2"), ("DOUBLE_S", "DOUBLE_R", "FIRE"), (31, 20))
    assert res.final_R[0] == 5
    assert res.final_S[0] == 6
    assert_continues(state)


def test_case_16_s1_plus_r_with_r1_plus_s():
    res, state = golden(("S1PR", "R1PS", "S3"), ("DOUBLE_S", "DOUBLE_R", "FIRE"), (30, 20))
    cross = [s for s in res.steps if s.rune in ("S1PR", "R1PS") and s.code == "cross"]
    assert [dict(s.params) for s in cross] == [
        {"gain": 1, "what": "S", "source": "R"},  # +1 S (own R)
        {"gain": 4, "what": "R", "source": "S"},
    ]  # +4 R (own S)
    assert res.base_S[0] == 5 and res.base_R[0] == 5  # pre-cross S0 = 4, R0 = 1
    assert_continues(state)


def test_case_17_r2p5_default_reading():
    res, state = golden(("R2P5", "R1", "R3"), ("R1", "R2", "DOUBLE_R"), (19, 14))
    assert res.final_R == (11, 6)
    assert res.final_S == (0, 0)
    assert_continues(state)


def test_case_17_r2p5_literal_text_config():
    res, state = golden(
        ("R2P5", "R1", "R3"), ("R1", "R2", "DOUBLE_R"), (24, 19), options={"r2p5_bonus_kind": "construction"}
    )
    assert res.final_R[0] == 6
    assert res.final_S[0] == 5
    assert_continues(state)


def test_case_18_s2p5_condition_fails():
    res, state = golden(("S2P5", "S1", "S3"), ("R1", "DOUBLE_S", "DOUBLE_R"), (29, 25))
    assert res.final_S[0] == 6
    assert res.final_R[1] == 2
    assert_continues(state)


def test_case_19_both_diff_s_applied_one_after_another():
    res, state = golden(("S1P5", "WATER", "DIFF_S"), ("DIFF_S", "R1", "R2"), (76, 25))
    diffs = [s.S[0] for s in res.steps if s.rune == "DIFF_S"]
    assert diffs == [18, 54]  # 6, then +12, then +36
    assert res.final_S[0] == 54
    assert state.outcome is not None and state.outcome.results == ("win", "loss")


def test_case_20_win_by_reaching_50():
    _res, state = golden(("S1", "DOUBLE_R", "DIFF_R"), ("DOUBLE_S", "DOUBLE_R", "FIRE"), (50, 30), start=(49, 30))
    assert state.outcome == Outcome(("win", "loss"), (50, 30), "score_50")
    assert state.outcome.winners == (0,)


def test_case_21_both_reach_50_both_win():
    _res, state = golden(("S1", "S2", "S3"), ("S1", "S2", "S3"), (51, 51), start=(45, 45))
    assert state.outcome == Outcome(("win", "win"), (51, 51), "both_50")


def test_case_22_both_reach_0_both_lose():
    _res, state = golden(("R1", "R2", "R3"), ("R1", "R2", "R3"), (-3, -3), start=(3, 3))
    assert state.outcome == Outcome(("loss", "loss"), (-3, -3), "both_0")


def test_case_23_s1p9_blocked_by_fire():
    res, state = golden(("S1P9", "S1", "S2"), ("FIRE", "R1", "R2"), (26, 25))
    assert res.final_S[0] == 4
    assert_continues(state)


# --------------------------------------------------------------------------------------------------


def _quiet_picks(state: BattleRunesState) -> tuple[Pick, Pick]:
    """The pair of picks that moves the scores least (keeps the game going for case 24)."""
    best = None
    for a in RULES.legal_actions(state, 0):
        for b in RULES.legal_actions(state, 1):
            after = resolve_turn((a.runes, b.runes), state.scores).scores_after
            key = (abs(after[0] - 25) + abs(after[1] - 25), a.runes, b.runes)
            if best is None or key < best:
                best = key
    return Pick(best[1]), Pick(best[2])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_case_24_deal_and_reshuffle(seed):
    rng = random.Random(seed)
    state = RULES.initial_state(2, {})
    state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
    assert [len(h) for h in state.hands] == [5, 5]
    assert [len(d) for d in state.decks] == [25, 25]
    for turn in range(1, 9):
        a, b = _quiet_picks(state)
        state, _ = RULES.apply(state, {0: a, 1: b})
        assert state.outcome is None, "the quiet picks must keep the game going"
        assert RULES.to_act(state) == frozenset({0, 1})
        assert [len(h) for h in state.hands] == [5, 5]
        assert [len(d) for d in state.decks] == [25 - 3 * turn] * 2
        assert [len(d) for d in state.discards] == [3 * turn] * 2
    # After the opening hand of 5 and 8 turns, the deck holds 1 card.
    assert [len(d) for d in state.decks] == [1, 1]
    last_cards = [state.decks[0][0], state.decks[1][0]]
    old_discards = state.discards
    a, b = _quiet_picks(state)
    state, events = RULES.apply(state, {0: a, 1: b})
    # 9th clean-up: the seat takes the 1 card, then its 24 discarded runes are shuffled.
    assert RULES.to_act(state) == frozenset({CHANCE})
    assert state.owed == (2, 2)
    assert [len(h) for h in state.hands] == [3, 3]
    assert all(last_cards[p] in state.hands[p] for p in (0, 1))
    assert state.discards == old_discards and [len(d) for d in state.discards] == [24, 24]
    assert "hands_dealt" not in [e.kind for e in events]
    shuffle = RULES.sample_chance(state, rng)
    assert set(shuffle.as_dict()) == {0, 1}
    assert all(len(order) == 24 for order in shuffle.as_dict().values())
    hands_before = state.hands
    state, events = RULES.apply(state, {CHANCE: shuffle})
    assert [len(h) for h in state.hands] == [5, 5]
    assert [len(d) for d in state.decks] == [22, 22]  # the golden number
    assert state.discards == (a.runes, b.runes)  # this turn's runes reach the discard after the deal
    for p in (0, 1):
        assert set(hands_before[p]) <= set(state.hands[p])  # hand cards are never reshuffled
        assert not set(state.hands[p]) & set(state.decks[p])
        assert sorted(state.hands[p] + state.decks[p] + state.discards[p]) == sorted(DECK)
    reshuffled = [e.data for e in events if e.kind == "deck_reshuffled"]
    assert reshuffled == [
        {"seat": 0, "reshuffled": 24, "deck_size": 22},
        {"seat": 1, "reshuffled": 24, "deck_size": 22},
    ]
    assert RULES.to_act(state) == frozenset({0, 1})
