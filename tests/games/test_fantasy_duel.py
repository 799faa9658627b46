"""Fantasy súboj engine: data, codec, options, the opening, teams, odds, deck rules, the end.

The spec's golden cases are in ``test_fantasy_duel_golden.py``; bots in ``test_fantasy_duel_bots.py``.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import time
from dataclasses import fields
from pathlib import Path

import pytest
import yaml

from app.games.core import CHANCE, BadAction, BadOptions, IllegalAction, Record, evolve, get_rules, play_out, replay
from app.games.fantasy_duel.actions import (
    Attacker,
    Back,
    Defer,
    Dice,
    Draw,
    Imprison,
    Recruit,
    Shuffle,
    Target,
)
from app.games.fantasy_duel.combat import DICE, ODDS_PARTS, Odds, matchup, odds, resolve
from app.games.fantasy_duel.data import FACTIONS, UNIT_BY_ID, UNITS, UNITS_FILE, UnitDataError, parse_units
from app.games.fantasy_duel.positions import card_of, position
from app.games.fantasy_duel.rules import FantasyDuel
from app.games.fantasy_duel.state import ATTACKER, OVER, ROLL, SPOILS, START_ROLL, TARGET, Round
from app.games.fantasy_duel.targeting import attack_matchup, targets

RULES = FantasyDuel()
DECK = ["kostlivec", "zombie", "sermiar", "hrdlorez", "jazdec", "duch"]


def play(state, *steps):
    """Apply ``(seat, action)`` steps; returns the state and all events."""
    events = []
    for seat, action in steps:
        state, evs = RULES.apply(state, {seat: action})
        events.extend(evs)
    return state, events


def attack(state, attacker, target, dice, seat=0, target_seat=1):
    a, t = card_of(state, seat, attacker), card_of(state, target_seat, target)
    return play(state, (seat, Attacker(a)), (seat, Target(t)), (CHANCE, Dice(tuple(dice))))


# ---------------------------------------------------------------------------------------- data


def test_unit_table_is_the_spec_table():
    assert len(UNITS) == 36
    assert {f: sum(u.faction == f for u in UNITS) for f in FACTIONS} == dict.fromkeys(FACTIONS, 9)
    kostej = UNIT_BY_ID["kostej"]
    assert (kostej.attack, kostej.dice, kostej.defense, kostej.doom, kostej.living) == (5, 2, 18, True, False)
    assert UNIT_BY_ID["halapartnik"].support_max == 2 and UNIT_BY_ID["obrnenec"].mounted
    catalog = RULES.catalog()["units"]
    assert [u["id"] for u in catalog] == [u.id for u in UNITS]
    assert catalog[0]["name_sk"] == "RYTIER" and catalog[0]["name_en"] == "Knight"
    json.dumps(catalog)


def test_bad_unit_table_names_every_problem():
    raw = yaml.safe_load(UNITS_FILE.read_text(encoding="utf-8"))
    raw["units"][0]["average"] = 99
    raw["units"][1]["abilities"] = [{"flying": {}}]
    raw["units"][2]["id"] = raw["units"][3]["id"]
    with pytest.raises(UnitDataError) as err:
        parse_units(raw, "broken.yaml")
    text = str(err.value)
    assert "broken.yaml" in text and "units.0" in text and "units.1" in text and "average" in text


# ---------------------------------------------------------------------------------------- codec


@pytest.mark.parametrize(
    "action",
    [
        Shuffle((3, 1, 2)),
        Dice((1, 6)),
        Attacker(5),
        Target(40),
        Back(),
        Imprison(),
        Recruit(7),
        Draw(),
        Defer(),
    ],
)
def test_actions_round_trip(action):
    wire = json.loads(json.dumps(RULES.encode_action(action)))
    assert len(wire) == 1 and RULES.decode_action(wire) == action


@pytest.mark.parametrize(
    "wire",
    [
        {"dice": [0]},
        {"dice": [7]},
        {"dice": []},
        {"dice": 3},
        {"attacker": "x"},
        {"attacker": True},
        {"target": -1},
        {"back": 1},
        {"fly": True},
        {"draw": True, "defer": True},
        [],
    ],
)
def test_bad_wire_actions(wire):
    with pytest.raises(BadAction):
        RULES.decode_action(wire)


# ---------------------------------------------------------------------------------------- options


def test_registered_with_bots():
    assert get_rules("fantasy_duel").name == "fantasy_duel"


def test_team_options_are_renumbered_and_checked():
    assert RULES.normalize_options({"teams": [3, 3, 1, 1]})["teams"] == [0, 0, 1, 1]
    state = RULES.initial_state(6, {"teams": [0, 1, 2, 0, 1, 2]})
    assert state.config.teams == (0, 1, 2, 0, 1, 2) and state.config.team_mode
    assert RULES.initial_state(3, {}).config.teams == (0, 1, 2)
    for bad in ({"teams": [0, 1, 0]}, {"teams": [0, 0, 0, 0]}, {"teams": ["a", 1, 0, 1]}):
        with pytest.raises(BadOptions):
            RULES.initial_state(4, bad)
    with pytest.raises(BadOptions):
        RULES.initial_state(9, {})
    with pytest.raises(BadOptions):
        RULES.normalize_options({"packs": 0})
    with pytest.raises(BadOptions):
        RULES.normalize_options({"recruit_swap_prison": "nobody"})


# ---------------------------------------------------------------------------------------- opening


def test_shuffle_deals_three_each_and_start_roll_reroll_ties():
    state = RULES.initial_state(3, {"packs": 2})
    assert RULES.to_act(state) == {CHANCE}
    shuffle = RULES.sample_chance(state, random.Random(1))
    assert sorted(shuffle.order) == list(range(72))
    assert RULES.action_visible_to(state, CHANCE, shuffle) == frozenset()
    state, events = play(state, (CHANCE, shuffle))
    assert [len(a) for a in state.armies] == [3, 3, 3] and len(state.deck) == 63
    assert state.armies[0] == shuffle.order[0:9:3] and state.deck == shuffle.order[9:]
    assert state.phase == START_ROLL and state.round.rolling == (0, 1, 2)
    state, events = play(state, (CHANCE, Dice((5, 2, 5))))
    assert state.phase == START_ROLL and state.round.rolling == (0, 2)
    with pytest.raises(IllegalAction):
        RULES.apply(state, {CHANCE: Dice((1, 2, 3))})
    assert RULES.action_visible_to(state, CHANCE, Dice((1, 2))) is None
    state, events = play(state, (CHANCE, Dice((1, 4))))
    assert state.round.first == 2 and state.phase == ATTACKER and RULES.to_act(state) == {2}
    assert [e.kind for e in events][:3] == ["start_roll", "first_player", "turn_started"]


def test_bad_shuffle_refused():
    state = RULES.initial_state(2, {})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {CHANCE: Shuffle(tuple(range(35)))})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {0: Shuffle(tuple(range(36)))})


def test_deck_order_is_secret_and_observation_is_json():
    state = RULES.initial_state(4, {})
    state, _ = play(state, (CHANCE, RULES.sample_chance(state, random.Random(3))))
    secrets = RULES.secrets(state, 0)
    assert secrets and json.dumps(list(state.deck)) in secrets[0]
    for viewer in (None, 0, 1, 2, 3):
        view = json.dumps(RULES.observe(state, viewer))
        assert all(secret not in view for secret in secrets)
        assert json.loads(view)["deck_count"] == 24


def test_wrong_actions_refused():
    state = position([["rytier", "sedliak", "sermiar"], ["bandita", "zombie", "duch"]], deck=DECK)
    zombie = card_of(state, 1, "zombie")
    with pytest.raises(IllegalAction):
        RULES.apply(state, {1: Attacker(zombie)})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {0: Attacker(zombie)})
    state, _ = play(state, (0, Attacker(card_of(state, 0, "rytier"))))
    assert state.phase == TARGET
    with pytest.raises(IllegalAction):  # Taunt: only Bandita
        RULES.apply(state, {0: Target(zombie)})
    back, _ = play(state, (0, Back()))
    assert back.phase == ATTACKER and back.attacker == -1
    state, _ = play(state, (0, Target(card_of(state, 1, "bandita"))))
    assert state.phase == ROLL
    with pytest.raises(IllegalAction):  # Rytier rolls 3 dice
        RULES.apply(state, {CHANCE: Dice((1, 1))})


# ---------------------------------------------------------------------------------------- odds


def _brute(m):
    counts = {}
    for roll in itertools.product(range(1, 7), repeat=m.dice):
        result = resolve(m, sum(roll), min(roll)).result
        counts[result] = counts.get(result, 0) + 1
    return {k: v / 6**m.dice for k, v in counts.items()}


@pytest.mark.parametrize(
    "attacker,target,poisoned",
    [
        ("rytier", "lukostrelec", False),
        ("rytier", "lukostrelec", True),
        ("prekliaty_luk", "zlodejka", False),
        ("kostej", "zalesak", False),
        ("vrahyna", "rytier", False),
        ("duch", "obrnenec", False),
    ],
)
def test_odds_are_exact(attacker, target, poisoned):
    a, t = UNIT_BY_ID[attacker], UNIT_BY_ID[target]
    m = matchup(a, [a], t, [t], poisoned)
    o = odds(m)
    brute = _brute(m)
    assert o.win == pytest.approx(brute.get("defeated", 0), abs=1e-12)
    assert o.lose == pytest.approx(brute.get("repelled", 0), abs=1e-12)
    assert o.hide == pytest.approx(brute.get("hidden", 0), abs=1e-12)
    assert o.tie == pytest.approx(brute.get("tie", 0), abs=1e-12)
    assert o.poison == pytest.approx(brute.get("poisoned", 0), abs=1e-12)
    assert o.win + o.lose + o.hide + o.tie + o.poison == pytest.approx(1)


def test_odds_agree_with_resolve_for_every_pair_of_units():
    for a in UNITS:
        for t in UNITS:
            for poisoned in (False, True):
                m = matchup(a, [a, a], t, [t], poisoned)
                counts = dict.fromkeys(("defeated", "repelled", "hidden", "tie", "poisoned"), 0)
                big = {"defeated": 0, "repelled": 0}
                for dice_sum, low, ways in DICE[m.dice]:
                    verdict = resolve(m, dice_sum, low)
                    counts[verdict.result] += ways
                    if verdict.choice:
                        big[verdict.result] += ways
                whole = 6**m.dice
                o = odds(m)
                assert (o.win, o.lose, o.hide, o.tie, o.poison, o.big_win, o.big_loss) == pytest.approx(
                    (
                        counts["defeated"] / whole,
                        counts["repelled"] / whole,
                        counts["hidden"] / whole,
                        counts["tie"] / whole,
                        counts["poisoned"] / whole,
                        big["defeated"] / whole,
                        big["repelled"] / whole,
                    ),
                    abs=1e-12,
                ), (a.id, t.id, poisoned)


def test_target_phase_view_shows_odds_of_every_target():
    state = position([["rytier", "sedliak", "sermiar"], ["zalesak", "zombie", "duch"]])
    state, _ = play(state, (0, Attacker(card_of(state, 0, "rytier"))))
    assert RULES.observe(state, 1)["odds"] is None and RULES.observe(state, None)["odds"] is None
    assert RULES.bot_observation(state, 0)["odds"] is None
    view = RULES.observe(state, 0)
    assert [o["target"] for o in view["odds"]] == targets(state, 0, state.attacker)
    hider = next(o for o in view["odds"] if o["target"] == card_of(state, 1, "zalesak"))
    assert hider["hide"] > 0 and hider["dice"] == 3
    for o in view["odds"]:
        assert o["win"] + o["lose"] + o["hide"] + o["tie"] + o["poison"] == pytest.approx(1, abs=1e-5)


def test_odds_parts_of_every_pair_in_random_positions_sum_to_one():
    """The parts the page lists (:data:`ODDS_PARTS`) split every attack's rolls: in random positions
    of 2-8 seats (some units poisoned, some matches with the other reading of AMBIGUITY 4), for
    every attacker of the seat to act and every target the view offers, the parts sum to 1, exactly
    and as the view rounds them."""
    rng = random.Random(20240611)
    ids = [u.id for u in UNITS]
    pairs = 0
    for _ in range(40):
        seats = rng.randint(2, 8)
        picked = rng.sample(ids * 2, seats * rng.randint(1, 3))
        size = len(picked) // seats
        armies = [picked[s * size : (s + 1) * size] for s in range(seats)]
        poisoned = [(s, uid) for s, army in enumerate(armies) for uid in army if rng.random() < 0.25]
        options = {"poison_attacker_ignores_taunt_and_fire": rng.random() < 0.3}
        state = position(armies, poisoned=poisoned, active=rng.randrange(seats), options=options)
        seat = state.active
        for action in RULES.legal_actions(state, seat):
            if not isinstance(action, Attacker):
                continue
            chosen, _ = play(state, (seat, action))
            offered = RULES.observe(chosen, seat)["odds"]
            assert [o["target"] for o in offered] == targets(chosen, seat, action.card)
            for o in offered:
                assert sum(o[part] for part in ODDS_PARTS) == pytest.approx(1, abs=5e-6), o
                exact = odds(attack_matchup(chosen, action.card, o["target"]))
                assert sum(getattr(exact, part) for part in ODDS_PARTS) == pytest.approx(1, abs=1e-12)
                pairs += 1
    assert pairs > 200


def test_odds_parts_are_the_fields_of_odds_and_the_pages_parts():
    """:data:`ODDS_PARTS` are the fields of :class:`Odds` but the shares ``big_*``, and the match
    page lists the same parts in the same order (its ``ODDS_PARTS``)."""
    assert set(ODDS_PARTS) == {f.name for f in fields(Odds)} - {"big_win", "big_loss"}
    script = (Path(__file__).resolve().parents[2] / "static/js/games/fantasy_duel.js").read_text(encoding="utf-8")
    found = re.search(r"const ODDS_PARTS = \[([^\]]*)\];", script)
    assert found, "static/js/games/fantasy_duel.js has no ODDS_PARTS"
    assert tuple(re.findall(r'"(\w+)"', found.group(1))) == ODDS_PARTS


# ---------------------------------------------------------------------------------------- deck rules


def test_recruit_swap_to_losers_prison_option():
    state = position(
        [["duch", "zombie", "kostlivec"], ["rytier", "sedliak", "sermiar"]],
        deck=DECK,
        options={"recruit_swap_prison": "loser"},
    )
    state, _ = attack(state, "duch", "rytier", (5, 5))
    assert state.phase == SPOILS
    zombie = card_of(state, 0, "zombie")
    state, _ = play(state, (0, Recruit(zombie)))
    assert state.prisons[1] == (zombie,) and state.prisons[0] == ()


def test_recruited_unit_loses_poison_and_a_recruited_healer_cures():
    state = position(
        [["duch", "zombie", "kostlivec"], ["bylinkar", "sedliak", "sermiar"]], deck=DECK, poisoned=[(0, "zombie")]
    )
    state, _ = attack(state, "duch", "bylinkar", (6, 6))  # 9 + 12 + 2 = 23 vs 7: margin 16
    assert state.phase == SPOILS
    state, events = play(state, (0, Recruit(card_of(state, 0, "kostlivec"))))
    assert "cured" in [e.kind for e in events] and not state.poisoned


def test_drawn_healer_cures_poisoned_units():
    state = position(
        [["rytier", "sedliak", "sermiar"], ["zombie", "kostlivec", "duch"]],
        deck=["druidka", *DECK],
        poisoned=[(1, "duch")],
    )
    state, events = attack(state, "rytier", "zombie", (1, 1, 1))
    assert [e.data["unit"] for e in events if e.kind == "drew"] == ["druidka"]
    assert "cured" in [e.kind for e in events] and not state.poisoned


def test_poison_attacker_ignores_taunt_and_fire_option():
    armies = [["vrahyna", "zombie", "kostlivec"], ["bandita", "lukostrelec", "sedliak"]]
    plain = position(armies)
    assert targets(plain, 0, card_of(plain, 0, "vrahyna")) == [card_of(plain, 1, "bandita")]
    alt = position(armies, options={"poison_attacker_ignores_taunt_and_fire": True})
    assert len(targets(alt, 0, card_of(alt, 0, "vrahyna"))) == 3
    assert targets(alt, 0, card_of(alt, 0, "zombie")) == [card_of(alt, 1, "bandita")]
    state, events = attack(alt, "vrahyna", "lukostrelec", (1, 1, 1, 2, 4))  # 9 vs 9: no fire, a tie
    resolved = next(e.data for e in events if e.kind == "attack_resolved")
    assert (resolved["defence"], resolved["result"]) == (9, "tie") and state.armies == alt.armies


def test_stalemate_guard_ends_the_game():
    state = position([["sedliak", "rytier"], ["zombie", "kostlivec"]], active=1)
    state = evolve(state, round=Round(number=20, first=0, began_empty=True, quiet=True, quiet_rounds=9))
    state, events = attack(state, "zombie", "rytier", (5, 6), seat=1, target_seat=0)  # 14 vs 14: tie
    assert {"round": 20, "quiet_rounds": 10} in [e.data for e in events if e.kind == "round_ended"]
    assert state.phase == OVER
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "stalemate" and outcome.results == ("draw", "draw")


def test_players_without_units_are_skipped_once_the_deck_is_empty():
    state = position([["rytier", "sedliak"], ["zombie"], ["kostlivec", "duch"]], active=0)
    state, events = attack(state, "rytier", "zombie", (1, 1, 1))
    assert [e.data for e in events if e.kind == "turn_skipped"] == [{"seat": 1, "reason": "no_units"}]
    assert RULES.to_act(state) == {2} and state.phase == ATTACKER


# ---------------------------------------------------------------------------------------- teams


def test_teammates_are_not_targets_and_their_taunt_does_not_bind():
    state = position(
        [
            ["rytier", "sedliak", "sermiar"],
            ["zombie", "kostlivec", "duch"],
            ["bandita", "jazdec", "hrdlorez"],
            ["vila", "gul", "lovec"],
        ],
        options={"teams": [0, 1, 0, 1]},
    )
    allowed = set(targets(state, 0, card_of(state, 0, "rytier")))
    assert allowed == set(state.armies[1]) | set(state.armies[3])


def test_team_scoring_shares_results():
    state = position(
        [["rytier"], ["sedliak"], [], []],
        options={"teams": [0, 1, 0, 1]},
        prisons=[["zombie", "duch"], ["vila"], ["gul"], ["lovec", "pytliak"]],
    )
    state, _ = attack(state, "rytier", "sedliak", (1, 1, 1))  # 9 vs 5: the last enemy unit falls
    outcome = RULES.outcome(state)
    assert outcome is not None and state.phase == OVER
    assert outcome.scores == (4.0, 1.0, 1.0, 2.0)
    assert outcome.results == ("win", "loss", "win", "loss") and outcome.ranks == (1, 2, 1, 2)
    assert outcome.teams == (0, 1, 0, 1)


def test_resign():
    two = RULES.initial_state(2, {})
    outcome = RULES.resign(two, 0)
    assert outcome is not None and outcome.results == ("loss", "win") and outcome.resigned == {0}
    assert RULES.resign(RULES.initial_state(3, {}), 1) is None
    assert RULES.resign(RULES.initial_state(4, {"teams": [0, 1, 0, 1]}), 1) is None


# ---------------------------------------------------------------------------------------- whole games


def _walk(num_players, seed, options=None, check=False):
    rng = random.Random(seed)
    state = RULES.initial_state(num_players, RULES.normalize_options(options or {}))
    log = []
    while RULES.to_act(state):
        (seat,) = RULES.to_act(state)
        legal = RULES.legal_actions(state, seat)
        if check:
            for other in range(num_players):
                assert bool(RULES.legal_actions(state, other)) == (other == seat)
            assert RULES.decode_state(json.loads(json.dumps(RULES.encode_state(state)))) == state
            secrets = RULES.secrets(state, None)
            for viewer in (None, *range(num_players)):
                view = json.dumps(RULES.observe(state, viewer))
                assert not any(s in view for s in secrets)
        action = RULES.sample_chance(state, rng) if seat == CHANCE else rng.choice(legal)
        log.append(Record(seat, RULES.encode_action(action)))
        state, _ = RULES.apply(state, {seat: action})
    return state, log


@pytest.mark.parametrize("num_players", range(2, 9))
def test_random_games_keep_the_invariants(num_players):
    state, log = _walk(num_players, num_players, check=True)
    outcome = RULES.outcome(state)
    assert outcome is not None and len(outcome.results) == num_players
    assert sum(len(a) + len(p) for a, p in zip(state.armies, state.prisons, strict=True)) + len(state.deck) == 36
    replayed, _ = replay(RULES, num_players, {}, [Record(r.seat, json.loads(json.dumps(r.action))) for r in log])
    assert replayed == state


@pytest.mark.parametrize(
    "options",
    [
        {"teams": [0, 1, 0, 1]},
        {"teams": [0, 0, 0, 1, 1, 1]},
        {"teams": [0, 1, 2, 0, 1, 2]},
        {"teams": [0, 1] * 4, "packs": 2},
    ],
)
def test_team_games_end_with_shared_results(options):
    n = len(options["teams"])
    for seed in range(3):
        state, _ = _walk(n, seed, options)
        outcome = RULES.outcome(state)
        assert outcome is not None
        teams = outcome.teams
        for a in range(n):
            for b in range(n):
                if teams[a] == teams[b]:
                    assert outcome.results[a] == outcome.results[b] and outcome.ranks[a] == outcome.ranks[b]


def test_an_eight_player_random_game_is_fast():
    play_out(RULES, 8, rng=random.Random(0))  # warm up
    t0 = time.perf_counter()
    for seed in range(5):
        state, _ = play_out(RULES, 8, rng=random.Random(seed))
        assert RULES.outcome(state) is not None
    assert (time.perf_counter() - t0) / 5 < 0.5
