"""Battle Runes rules tests: options, dealing, reshuffle, end conditions, actions, views, events,
rune data (rules/battle_runes.md sections 2-6)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import yaml

from app.games.battle_runes import CODEC, BattleRunes, Pick, Shuffle, Step, end_check, resolve_turn
from app.games.battle_runes.data import DECK, RUNE_IDS, RUNES_FILE, RuneDataError, load_runes, parse_runes
from app.games.battle_runes.engine import hand_picks
from app.games.core import (
    CHANCE,
    BadAction,
    BadOptions,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Outcome,
    get_rules,
    play_out,
    submit,
)

RULES = BattleRunes()


def opened(seed: int = 0, options: dict | None = None):
    """The state after the opening shuffle drawn with ``seed``, and that shuffle."""
    state = RULES.initial_state(2, options or {})
    shuffle = RULES.sample_chance(state, random.Random(seed))
    new, events = RULES.apply(state, {CHANCE: shuffle})
    return new, shuffle, events


def random_states(seed: int, options: dict | None = None):
    """Every state of a random game (chance drawn with ``seed``), with the events leading to it."""
    rng = random.Random(seed)
    state = RULES.initial_state(2, options or {})
    yield state, []
    while RULES.to_act(state):
        if RULES.to_act(state) == {CHANCE}:
            actions = {CHANCE: RULES.sample_chance(state, rng)}
        else:
            actions = {p: rng.choice(RULES.legal_actions(state, p)) for p in (0, 1)}
        state, events = RULES.apply(state, actions)
        yield state, events


# ------------------------------------------------------------------------------------------ options


def test_registered_with_bots_easiest_first():
    from app.games.core import bot_levels

    assert get_rules("battle_runes").name == "battle_runes"
    assert get_rules("battle_runes").title == "Battle Runes"
    assert bot_levels("battle_runes") == ["random", "greedy", "nash"]


def test_default_options():
    assert RULES.normalize_options({}) == {
        "r2p5_bonus_kind": "destruction",
        "zero_blocks_swap_all": True,
        "max_turns": 0,
        "start_score": 25,
        "win_score": 50,
    }


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"r2p5_bonus_kind": "build"}, "option_choice"),
        ({"zero_blocks_swap_all": 1}, "option_type"),
        ({"max_turns": -1}, "option_range"),
        ({"max_turns": "10"}, "option_type"),
        ({"start_score": 0}, "option_range"),
        ({"start_score": 50}, "start_score"),
        ({"win_score": 0}, "option_range"),
        ({"colour": "red"}, "unknown_option"),
    ],
)
def test_bad_options(options, reason):
    with pytest.raises(BadOptions) as refused:
        RULES.initial_state(2, options)
    assert refused.value.reason == reason


@pytest.mark.parametrize("players", [1, 3])
def test_two_players_only(players):
    with pytest.raises(BadOptions) as refused:
        RULES.initial_state(players, {})
    assert refused.value.wire_params() == {"reason": "player_count", "min": 2, "max": 2, "players": players}


# ------------------------------------------------------------------------------------------ dealing


def test_initial_state_is_a_chance_node():
    state = RULES.initial_state(2, {})
    assert RULES.to_act(state) == frozenset({CHANCE})
    assert state.scores == (25, 25)
    assert RULES.legal_actions(state, 0) == () and RULES.legal_actions(state, 1) == ()
    assert RULES.outcome(state) is None


def test_start_score_option():
    state = RULES.initial_state(2, {"start_score": 10, "win_score": 20})
    assert state.scores == (10, 10)


def test_opening_shuffle_deals_five_from_the_top():
    state, shuffle, events = opened(3)
    orders = shuffle.as_dict()
    assert set(orders) == {0, 1}
    for p in (0, 1):
        assert sorted(orders[p]) == sorted(DECK) and len(orders[p]) == 30
        assert sorted(state.hands[p]) == sorted(orders[p][:5])
        assert state.decks[p] == orders[p][5:]
        assert state.discards[p] == ()
        # hands are kept in catalog order
        assert list(state.hands[p]) == sorted(state.hands[p], key=RUNE_IDS.index)
    assert orders[0] != orders[1]  # each seat shuffles its own deck
    assert RULES.to_act(state) == frozenset({0, 1})
    assert [e.kind for e in events] == ["hands_dealt"]
    assert events[0].visible_to is None
    assert events[0].data == {"turn": 0, "hands": [list(state.hands[0]), list(state.hands[1])], "deck_sizes": [25, 25]}


def test_sample_chance_uses_the_rng_only():
    state = RULES.initial_state(2, {})
    assert RULES.sample_chance(state, random.Random(7)) == RULES.sample_chance(state, random.Random(7))
    assert RULES.sample_chance(state, random.Random(7)) != RULES.sample_chance(state, random.Random(8))


def test_sample_chance_refused_outside_chance_nodes():
    state, _, _ = opened()
    with pytest.raises(IllegalAction):
        RULES.sample_chance(state, random.Random(0))


@pytest.mark.parametrize(
    "orders",
    [
        ((0, DECK),),  # one seat missing
        ((0, DECK), (1, DECK[:-1])),  # a card missing
        ((0, DECK), (1, (*DECK[:-1], "S1"))),  # a duplicate instead
    ],
)
def test_opening_shuffle_must_order_both_full_decks(orders):
    with pytest.raises(IllegalAction):
        RULES.apply(RULES.initial_state(2, {}), {CHANCE: Shuffle(orders)})


def test_chance_action_must_be_a_shuffle():
    with pytest.raises(IllegalAction):
        RULES.apply(RULES.initial_state(2, {}), {CHANCE: ("S1", "S2", "S3")})


def test_clean_up_keeps_two_and_deals_three_from_the_top():
    state, _, _ = opened(5)
    picks = {p: RULES.legal_actions(state, p)[4] for p in (0, 1)}
    new, events = RULES.apply(state, picks)
    for p in (0, 1):
        kept = Counter(state.hands[p]) - Counter(picks[p].runes)
        assert Counter(new.hands[p]) == kept + Counter(state.decks[p][:3])
        assert new.decks[p] == state.decks[p][3:]
        assert new.discards[p] == picks[p].runes
    assert [e.kind for e in events] == ["turn_resolved", "hands_dealt"]
    assert events[1].data["deck_sizes"] == [22, 22]


def test_reshuffle_is_needed_only_by_owing_seats_and_must_permute_the_discard():
    # Seat 0's deck holds 1 rune, seat 1's holds 4: only seat 0 reshuffles.
    hand0, hand1 = ("S1", "S2", "S3", "R1", "R2"), ("S1", "S2", "S3", "R1", "R2")
    deck0 = ("R3",)
    deck1 = ("R3", "FIRE", "WATER", "ZERO")
    state = RULES.position((hand0, hand1), decks=(deck0, deck1))
    assert len(state.discards[0]) == 24 and len(state.discards[1]) == 21
    state, events = RULES.apply(state, {0: Pick.of("S1", "S2", "S3"), 1: Pick.of("S1", "S2", "S3")})
    assert RULES.to_act(state) == frozenset({CHANCE})
    assert state.owed == (2, 0)
    assert state.hands[1] == ("R1", "R2", "R3", "FIRE", "WATER")
    assert state.discards[1][-3:] == ("S1", "S2", "S3")
    shuffle = RULES.sample_chance(state, random.Random(1))
    assert set(shuffle.as_dict()) == {0}
    good = shuffle.as_dict()[0]
    with pytest.raises(IllegalAction):  # seat 1 does not reshuffle
        RULES.apply(state, {CHANCE: Shuffle(((0, good), (1, state.discards[1])))})
    with pytest.raises(IllegalAction):  # not a permutation of the discard
        RULES.apply(state, {CHANCE: Shuffle(((0, (*good[:-1], "S1")),))})
    new, events = RULES.apply(state, {CHANCE: shuffle})
    assert new.hands[0] == tuple(sorted(("R1", "R2", "R3", *good[:2]), key=RUNE_IDS.index))
    assert new.decks[0] == good[2:]
    assert new.discards[0] == ("S1", "S2", "S3")
    assert [e.kind for e in events] == ["deck_reshuffled", "hands_dealt"]
    assert events[0].data == {"seat": 0, "reshuffled": 24, "deck_size": 22}
    assert events[0].visible_to is None


def test_decks_stay_whole_through_many_reshuffles():
    for state, _ in random_states(11, {"max_turns": 60}):
        for p in (0, 1):
            cards = state.hands[p] + state.decks[p] + state.discards[p] + state.table[p]
            if state.phase != "shuffle":
                assert sorted(cards) == sorted(DECK)


# ------------------------------------------------------------------------------------------ end


@pytest.mark.parametrize(
    "scores, results, reason",
    [
        ((50, 30), ("win", "loss"), "score_50"),
        ((30, 50), ("loss", "win"), "score_50"),
        ((30, 0), ("win", "loss"), "score_0"),
        ((-2, 30), ("loss", "win"), "score_0"),
        ((60, -5), ("win", "loss"), "score_50"),  # mixed: A >= 50 and B <= 0
        ((-5, 60), ("loss", "win"), "score_50"),
        ((50, 50), ("win", "win"), "both_50"),
        ((0, 0), ("loss", "loss"), "both_0"),
        ((-7, -1), ("loss", "loss"), "both_0"),
    ],
)
def test_end_conditions(scores, results, reason):
    outcome = end_check(scores, 50)
    assert outcome == Outcome(results, scores, reason)


@pytest.mark.parametrize("scores", [(49, 1), (1, 49), (25, 25)])
def test_play_continues_strictly_inside(scores):
    assert end_check(scores, 50) is None
    assert end_check(scores, 50, turn=5, max_turns=6) is None


def test_turn_cap_draw_only_when_nobody_won():
    assert end_check((30, 20), 50, turn=6, max_turns=6) == Outcome(("draw", "draw"), (30, 20), "turn_cap")
    assert end_check((50, 20), 50, turn=6, max_turns=6).reason == "score_50"
    assert end_check((30, 20), 50, turn=100, max_turns=0) is None


def test_win_score_option():
    state = RULES.position(
        (("S1", "S2", "S3", "R1", "R2"), ("R1", "R2", "R3", "S1", "S2")), scores=(25, 25), options={"win_score": 30}
    )
    new, _events = RULES.apply(state, {0: Pick.of("S1", "S2", "S3"), 1: Pick.of("S1", "S2", "R1")})
    assert new.scores == (30, 28)
    assert new.outcome == Outcome(("win", "loss"), (30, 28), "score_50")


def test_max_turns_draw():
    state = RULES.position((("S1", "S2", "S3", "R1", "R2"), ("R1", "R2", "R3", "S1", "S2")), options={"max_turns": 1})
    new, events = RULES.apply(state, {0: Pick.of("S1", "R1", "R2"), 1: Pick.of("S1", "R1", "R2")})
    assert new.scores == (23, 23)
    assert new.outcome == Outcome(("draw", "draw"), (23, 23), "turn_cap")
    assert events[-1].kind == "game_over"
    assert events[-1].data == {"results": ["draw", "draw"], "scores": [23, 23], "reason": "turn_cap", "ranks": [1, 1]}
    # the stored state keeps the outcome's stored form (four keys), so old snapshots stay byte-equal
    assert RULES.encode_state(new)["outcome"] == {
        "results": ["draw", "draw"],
        "scores": [23, 23],
        "reason": "turn_cap",
        "ranks": [1, 1],
    }


@pytest.mark.parametrize("seed", range(5))
def test_random_games_with_a_turn_cap_stop_there(seed):
    state, _log = play_out(RULES, 2, {"max_turns": 3}, rng=random.Random(seed))
    assert state.turn <= 3
    assert state.outcome is not None
    if state.turn < 3:
        assert state.outcome.reason != "turn_cap"


def test_game_over_state():
    state = RULES.position((("S1", "S2", "S3", "R1", "R2"), ("R1", "R2", "R3", "S1", "S2")), scores=(48, 30))
    new, events = RULES.apply(state, {0: Pick.of("S1", "S2", "S3"), 1: Pick.of("S1", "S2", "R1")})
    assert new.outcome == Outcome(("win", "loss"), (53, 33), "score_50")
    assert [e.kind for e in events] == ["turn_resolved", "game_over"]
    assert RULES.to_act(new) == frozenset()
    assert RULES.legal_actions(new, 0) == () and RULES.legal_actions(new, 1) == ()
    assert new.hands == (("R1", "R2"), ("R2", "R3"))  # played runes left the table; nothing dealt
    assert new.decks == state.decks
    with pytest.raises(GameOver):
        RULES.apply(new, {0: Pick(("R1", "R2")), 1: Pick(("R2", "R3"))})
    with pytest.raises(GameOver):
        submit(RULES, new, {}, 0, Pick.of("S1", "S2", "S3"))
    obs = RULES.observe(new, None)
    assert obs["over"] is True and obs["outcome"]["reason"] == "score_50"


# ------------------------------------------------------------------------------------------ actions


def test_ten_legal_picks_in_hand_order():
    state, _, _ = opened(2)
    for p in (0, 1):
        legal = RULES.legal_actions(state, p)
        assert len(legal) == 10 and len(set(legal)) == 10
        hand = state.hands[p]
        assert legal[0].runes == hand[:3] and legal[-1].runes == hand[2:]
        for pick in legal:
            assert isinstance(pick, Pick)
            assert len(pick.runes) == 3 and set(pick.runes) <= set(hand)
            assert [hand.index(r) for r in pick.runes] == sorted(hand.index(r) for r in pick.runes)


def test_hand_picks_of_unsorted_hand_are_canonical():
    assert hand_picks(("R1", "S1", "FIRE", "S2", "ZERO"))[0].runes == ("S1", "R1", "FIRE")
    unsorted = hand_picks(("R1", "S1", "FIRE", "S2", "ZERO"))
    assert len(unsorted) == 10 and set(unsorted) == set(hand_picks(("S1", "S2", "R1", "FIRE", "ZERO")))
    # duplicates (a deck with copies > 1) give distinct picks only
    assert len(hand_picks(("S1", "S1", "S2", "S3", "R1"))) == 7


def test_decode_accepts_any_order_and_normalises():
    state, _, _ = opened(4)
    legal = RULES.legal_actions(state, 0)
    for pick in legal:
        runes = pick.runes
        for order in (list(runes), list(reversed(runes)), [runes[1], runes[2], runes[0]]):
            decoded = RULES.decode_action({"runes": order})
            assert decoded == pick
            assert decoded in legal
        assert RULES.encode_action(pick) == {"runes": list(pick.runes)}


@pytest.mark.parametrize(
    "obj",
    [
        None,
        "S1,S2,S3",
        ["S1", "S2", "S3"],
        {},
        {"rune": ["S1", "S2", "S3"]},
        {"runes": ["S1", "S2", "S3"], "extra": 1},
        {"runes": "S1S2S3"},
        {"runes": ["S1", "S2"]},
        {"runes": ["S1", "S2", "S3", "R1"]},
        {"runes": ["S1", "S2", 3]},
        {"runes": ["S1", "S2", None]},
        {"runes": ["S1", "S2", "S4"]},
        {"runes": ["s1", "S2", "S3"]},
        {"shuffle": []},
        {"shuffle": {}},
        {"shuffle": {"2": list(DECK)}},
        {"shuffle": {"0": "S1"}},
        {"shuffle": {"0": ["S1", "BOGUS"]}},
    ],
)
def test_decode_rejects_malformed_input(obj):
    with pytest.raises(BadAction):
        RULES.decode_action(obj)


def test_actions_are_frozen_values_of_the_codec():
    assert RULES.actions is CODEC and RULES.information == "imperfect"
    pick = Pick.of("FIRE", "R1", "S1")
    assert pick.runes == ("S1", "R1", "FIRE") and pick == Pick(("S1", "R1", "FIRE"))
    assert RULES.encode_action(pick) == {"runes": ["S1", "R1", "FIRE"]}
    shuffle = Shuffle(((0, ("S2", "S1")), (1, ("R1",))))
    assert RULES.encode_action(shuffle) == {"shuffle": {"0": ["S2", "S1"], "1": ["R1"]}}
    assert RULES.decode_action({"shuffle": {"1": ["R1"], "0": ["S2", "S1"]}}) == shuffle
    state, _, _ = opened(3)
    for legal in RULES.legal_actions(state, 1):  # decoding hands out the very values listed
        assert RULES.decode_action({"runes": list(reversed(legal.runes))}) is legal
    with pytest.raises(BadAction):  # the tuple that was a pick before the engine kit
        RULES.encode_action(("S1", "R1", "FIRE"))


@pytest.mark.parametrize("runes", [("S1", "S2"), ("S1", "S2", "S3", "R1"), ("S1", "S2", 3), ("S1", "S2", "S4")])
def test_pick_of_refuses_what_is_not_three_runes(runes):
    with pytest.raises(BadAction):
        Pick.of(*runes)


def test_runes_not_in_hand_are_illegal():
    state = RULES.position((("S1", "S2", "S3", "R1", "R2"), ("R1", "R2", "R3", "S1", "S2")))
    foreign = RULES.decode_action({"runes": ["FIRE", "S1", "S2"]})  # well-formed, FIRE not in hand
    with pytest.raises(IllegalAction):
        submit(RULES, state, {}, 0, foreign)
    with pytest.raises(IllegalAction):
        RULES.apply(state, {0: foreign, 1: Pick.of("R1", "R2", "R3")})
    with pytest.raises(IllegalAction):  # the same rune twice
        RULES.apply(state, {0: Pick.of("S1", "S1", "S2"), 1: Pick.of("R1", "R2", "R3")})
    with pytest.raises(IllegalAction):  # a seat missing
        RULES.apply(state, {0: Pick.of("S1", "S2", "S3")})
    with pytest.raises(IllegalAction):  # runes of the hand, but not in catalog order
        RULES.apply(state, {0: Pick(("S2", "S1", "S3")), 1: Pick.of("R1", "R2", "R3")})
    with pytest.raises(IllegalAction):  # two runes only
        RULES.apply(state, {0: Pick(("S1", "S2")), 1: Pick.of("R1", "R2", "R3")})
    with pytest.raises(IllegalAction):  # not a Pick: the tuple that was an action before the engine kit
        RULES.apply(state, {0: ("S1", "S2", "S3"), 1: Pick.of("R1", "R2", "R3")})
    with pytest.raises(IllegalAction):  # a shuffle where a pick is due
        RULES.apply(state, {0: Shuffle(((0, ("S1",)),)), 1: Pick.of("R1", "R2", "R3")})


def test_simultaneous_choice_waits_for_both_seats():
    state, _, _ = opened(6)
    a = RULES.legal_actions(state, 0)[0]
    b = RULES.legal_actions(state, 1)[9]
    step = submit(RULES, state, {}, 1, b)
    assert not step.applied and step.state is state and step.pending == {1: b}
    with pytest.raises(NotYourTurn):
        submit(RULES, state, step.pending, 1, b)
    step = submit(RULES, state, step.pending, 0, a)
    assert step.applied and step.state.turn == 1
    assert step.state.last.picks == (a.runes, b.runes)


def test_action_visibility():
    state, _, _ = opened(1)
    pick = RULES.legal_actions(state, 0)[0]
    assert RULES.action_visible_to(state, 0, pick) == frozenset({0})
    initial = RULES.initial_state(2, {})
    assert RULES.action_visible_to(initial, CHANCE, RULES.sample_chance(initial, random.Random(0))) == frozenset()


def test_timeout_action_is_the_greedy_default_and_legal():
    state, _, _ = opened(9)
    for p in (0, 1):
        action = RULES.timeout_action(state, p, random.Random(0))
        assert action in RULES.legal_actions(state, p)


# ------------------------------------------------------------------------------------------ views


def test_observation_shape_and_public_hands():
    state, _, _ = opened(8)
    state, _ = RULES.apply(state, {p: RULES.legal_actions(state, p)[0] for p in (0, 1)})
    obs = RULES.observe(state, 1)
    assert obs["seat"] == 1 and obs["turn"] == 1 and obs["over"] is False
    assert obs["scores"] == list(state.scores)
    assert obs["hands"] == [list(state.hands[0]), list(state.hands[1])]
    assert obs["deck_sizes"] == [22, 22] and obs["discard_sizes"] == [3, 3]
    assert obs["last"] == state.last.to_json()
    assert obs["options"]["win_score"] == 50
    assert "decks" not in obs
    assert json.loads(json.dumps(obs)) == obs
    assert RULES.observe(state, 0)["hands"] == obs["hands"]  # hands are public
    assert RULES.observe(state, None)["seat"] is None


@pytest.mark.parametrize("seed", range(4))
def test_observations_and_events_never_show_a_deck_order(seed):
    checked = 0
    for state, events in random_states(seed):
        secrets = RULES.secrets(state, None)
        if state.phase not in ("shuffle",):
            assert len(secrets) == sum(1 for d in state.decks if len(d) >= 2)
        for viewer in (0, 1, None):
            text = json.dumps(RULES.observe(state, viewer))
            for secret in secrets:
                assert secret not in text
            for event in events:
                shown = json.dumps(event.view(viewer))
                for secret in secrets:
                    assert secret not in shown
            checked += 1
    assert checked > 10


def test_events_are_public_and_carry_the_breakdown():
    state, _, _ = opened(12)
    a, b = RULES.legal_actions(state, 0)[3], RULES.legal_actions(state, 1)[7]
    new, events = RULES.apply(state, {0: a, 1: b})
    resolved = events[0]
    assert resolved.kind == "turn_resolved" and resolved.visible_to is None
    assert resolved.data["picks"] == [list(a.runes), list(b.runes)]
    assert resolved.data["turn"] == 1
    assert resolved.data["scores"] == list(new.scores) == resolved.data["scores_after"]
    assert resolved.data["scores_before"] == [25, 25]
    assert {"base_S", "base_R", "steps", "final_S", "final_R", "annulled", "swap_all_applied"} <= set(resolved.data)
    assert json.loads(json.dumps(resolved.data)) == dict(resolved.data)


def test_catalog():
    catalog = RULES.catalog()["runes"]
    assert [r["id"] for r in catalog] == list(RUNE_IDS)
    assert len(catalog) == 30
    assert Counter(r["kind"] for r in catalog) == {"build": 9, "destroy": 9, "modifier": 12}
    for r in catalog:
        assert r["name"] and r["text"] and set(r) >= {"id", "name", "kind", "order", "text"}
    by_id = {r["id"]: r for r in catalog}
    assert by_id["SWAP_ALL"]["order"] == 6 and by_id["ZERO"]["order"] is None and by_id["R1PS"]["order"] == 2


def test_state_json_round_trip_through_a_game():
    for state, _ in random_states(21):
        encoded = json.loads(json.dumps(RULES.encode_state(state)))
        assert RULES.decode_state(encoded) == state


# ------------------------------------------------------------------------------------------ data


def _raw() -> dict:
    return yaml.safe_load(RUNES_FILE.read_text(encoding="utf-8"))


def test_rune_table_matches_the_spec():
    book = load_runes()
    assert len(book.runes) == 30 and len(DECK) == 30
    rows = {r.id: r for r in book.runes}
    assert rows["S1P11"].condition == "water_opp" and rows["S1P11"].bonus == 11
    assert rows["R2P5"].bonus_kind == "destroy" and rows["R2P5"].bonus_kind_as_printed == "build"
    assert rows["S1PR"].cross_term and rows["S1PR"].bonus == "own_base_destruction"
    assert all(r.copies == 1 for r in book.runes)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda raw: raw["runes"].append(dict(raw["runes"][0])), "duplicate rune ids"),
        (lambda raw: raw["runes"][0].pop("kind"), "kind"),
        (lambda raw: raw["runes"][0].update(order=2), "order"),
        (lambda raw: raw["runes"][21].update(order=4), "effect double_own_S has order 3"),
        (lambda raw: raw["runes"][3].update(condition="moon_any"), "condition"),
        (lambda raw: raw["runes"][0].update(colour="beige"), "colour"),
        (lambda raw: [r.update(copies=0) for r in raw["runes"][7:]], "at least 8 cards, this one has 7"),
        (lambda raw: raw["runes"].pop(18), "FIRE"),
    ],
)
def test_rune_table_validation_errors_are_clear(mutate, message):
    raw = _raw()
    mutate(raw)
    with pytest.raises(RuneDataError, match=message):
        parse_runes(raw, "test.yaml")


def test_unreadable_rune_file(tmp_path):
    with pytest.raises(RuneDataError, match="cannot read"):
        load_runes(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("runes: [\n", encoding="utf-8")
    with pytest.raises(RuneDataError):
        load_runes(bad)


# ------------------------------------------------------------------------------------------ resolution
# Hand-computed cases beyond the golden ones: every condition side and every modifier.


@pytest.mark.parametrize(
    "a, b, final_s, final_r, scores",
    [
        # R1+8 with own Fire: 1 + 8
        (("R1P8", "FIRE", "S1"), ("S1", "S2", "S3"), (1, 6), (9, 0), (26, 22)),
        # R1+11 with the opponent's Fire: 1 + 11
        (("R1P11", "S1", "S2"), ("FIRE", "S1", "R1"), (3, 1), (12, 1), (27, 14)),
        # R1+11 with own Fire only: no bonus
        (("R1P11", "FIRE", "S1"), ("S1", "S2", "S3"), (1, 6), (1, 0), (26, 30)),
        # R1+5 with anyone's Fire
        (("R1P5", "S1", "S2"), ("FIRE", "S3", "R1"), (3, 3), (6, 1), (27, 22)),
        # R1+9: the opponent played no modifier
        (("R1P9", "S1", "S2"), ("S1", "S2", "R1"), (3, 3), (10, 1), (27, 18)),
        # S1+8 needs own Water, not the opponent's
        (("S1P8", "S1", "S2"), ("WATER", "R1", "R2"), (4, 0), (0, 3), (26, 25)),
        # S1+11 needs the opponent's Water, not own
        (("S1P11", "WATER", "S1"), ("R1", "R2", "R3"), (2, 0), (0, 6), (21, 25)),
        # Swap-R
        (("R3", "SWAP_R", "S1"), ("R1", "S2", "S3"), (1, 5), (1, 3), (23, 29)),
        # Swap-Opp alone
        (("SWAP_OPP", "S1", "R1"), ("S3", "S2", "R1"), (1, 1), (1, 5), (21, 25)),
        # Double R
        (("R2", "R3", "DOUBLE_R"), ("S1", "S2", "S3"), (0, 6), (10, 0), (25, 21)),
        # Diff-R with equal destruction: nothing
        (("R2", "DIFF_R", "S1"), ("R2", "S2", "S3"), (1, 5), (2, 2), (24, 28)),
        # order 3 before order 6: Double S, then the doubled S is swapped away
        (("S3", "DOUBLE_S", "SWAP_S"), ("S1", "R1", "R2"), (1, 6), (0, 3), (23, 31)),
        # order 4 before order 5: Diff-S gives A +4, then A swaps its own S and R
        (("S3", "R1", "SWAP_SELF"), ("DIFF_S", "S1", "R2"), (1, 1), (7, 2), (24, 19)),
        # R1+s with Double R: the cross term lands before the doubling
        (("R1PS", "S3", "DOUBLE_R"), ("S1", "S2", "R1"), (3, 3), (8, 1), (27, 20)),
        # S2+5 bonus (B has no destruction rune); A's own R2+5 bonus fails (B has construction)
        (("S2P5", "S1", "R2P5"), ("S1", "S2", "S3"), (8, 6), (2, 0), (33, 29)),
        # both fail: B's R2+5 is destruction, A's S1 is construction
        (("S2P5", "S1", "R1"), ("R2P5", "S1", "S2"), (3, 3), (1, 2), (26, 27)),
    ],
)
def test_resolution_cases(a, b, final_s, final_r, scores):
    from app.games.battle_runes import resolve_turn

    res = resolve_turn((a, b), (25, 25))
    assert (res.final_S, res.final_R, res.scores_after) == (final_s, final_r, scores)
    assert [s.rune for s in res.steps if s.rune not in ("FIRE", "WATER", "ZERO")].count(a[0]) >= 1


def test_zero_blocks_swap_all_option():
    from app.games.battle_runes import resolve_turn

    picks = (("FIRE", "SWAP_ALL", "S3"), ("ZERO", "WATER", "R1"))
    blocked = resolve_turn(picks, (30, 20))
    assert blocked.annulled and blocked.scores_after == (30, 20) and blocked.swap_all_applied == 0
    allowed = resolve_turn(picks, (30, 20), {"zero_blocks_swap_all": False})
    assert allowed.annulled and allowed.final_S == (0, 0) and allowed.final_R == (0, 0)
    assert allowed.scores_settled == (30, 20) and allowed.scores_after == (20, 30) and allowed.swap_all_applied == 1
    # and through the engine option
    state = RULES.position(
        (("S3", "FIRE", "SWAP_ALL", "R1", "R2"), ("R1", "WATER", "ZERO", "S1", "S2")),
        scores=(30, 20),
        options={"zero_blocks_swap_all": False},
    )
    new, _ = RULES.apply(
        state, {0: RULES.decode_action({"runes": list(picks[0])}), 1: RULES.decode_action({"runes": list(picks[1])})}
    )
    assert new.scores == (20, 30)


def test_resolution_steps_follow_the_order_numbers():
    from app.games.battle_runes import resolve_turn

    res = resolve_turn((("SWAP_S", "S1P8", "WATER"), ("DIFF_S", "DOUBLE_R", "R3")), (25, 25))
    ordered = [s.order for s in res.steps if s.order is not None]
    assert ordered == sorted(ordered)
    assert [s.rune for s in res.steps] == ["WATER", "S1P8", "R3", "DOUBLE_R", "DIFF_S", "SWAP_S"]
    assert [s.seat for s in res.steps] == [0, 0, 1, 1, 1, 0]
    assert res.final_S == res.steps[-1].S and res.final_R == res.steps[-1].R
    # JSON round trip of the breakdown
    from app.games.battle_runes import Resolution

    assert Resolution.from_json(json.loads(json.dumps(res.to_json()))) == res


def test_step_params_are_in_name_order():
    """The resolver builds each step's params in name order without sorting (``resolve._step``),
    the order :meth:`Step.from_json` gives: a live turn and its stored form compare equal."""
    codes: Counter[str] = Counter()
    for seed in range(60):
        rng = random.Random(seed)
        for _ in range(40):
            picks = tuple(tuple(rng.sample(DECK, 3)) for _ in range(2))
            res = resolve_turn(picks, (rng.randint(-20, 20), rng.randint(-20, 20)), None)
            for step in res.steps:
                codes[step.code] += 1
                names = [name for name, _ in step.params]
                assert names == sorted(names), step
                assert Step.from_json(step.to_json()) == step
    assert {"points", "cross", "doubled", "leads", "swap_all"} <= set(codes)
