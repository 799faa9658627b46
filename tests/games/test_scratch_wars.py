"""Scratch Wars rules tests beyond the golden cases: options and levels, loadouts and the start
spin, turn mechanics and the decisions the spec resolves (AMBIGUITIES), actions and states as JSON,
observations, events and errors (rules/scratch_wars.md)."""

from __future__ import annotations

import json
import random

import pytest

from app.games.core import (
    CHANCE,
    BadAction,
    BadOptions,
    GameOver,
    IllegalAction,
    NotYourTurn,
    bot_levels,
    get_rules,
    play_out,
    submit,
)
from app.games.scratch_wars import EVENT_KINDS, ScratchWars, Slot
from app.games.scratch_wars import RULES as SHIPPED
from app.games.scratch_wars import effects as fx
from app.games.scratch_wars.actions import (
    AddCombo,
    Cancel,
    Detonate,
    DrawnLoadouts,
    EndTurn,
    FirePermanent,
    KeepCombos,
    Loadout,
    RandomLoadout,
    Repair,
    Segment,
    Skip,
    SpendShield,
    SpinWeapon,
    Starter,
    StartSpin,
    StartWeapon,
    TakeHit,
    Target,
    Use,
)
from app.games.scratch_wars.data import BOOK, COMBO, PERMANENT_ATTACK, SHIELD, book_from
from app.games.scratch_wars.state import (
    BROKEN,
    DECIDE,
    DRAW_LOADOUTS,
    LOADOUT,
    MAIN,
    NO_EFFECT,
    OVER,
    READY,
    START_CHOICE,
    START_SPIN,
    START_WEAPON,
    TARGET,
    evolve,
)
from tests.games.test_scratch_wars_golden import (
    BW,
    FIXTURE_SET,
    RULES,
    SW,
    WD,
    A,
    B,
    act,
    lives,
    position,
    segment,
    spin,
)
from tests.games.test_scratch_wars_golden import (
    LOADOUT as FIX_LOADOUT,
)

OPTION_SETS = [
    {"level": 1},
    {"level": 2},
    {"level": 2, "effects": "every_effect_attacks"},
    {"level": 3},
    {"level": 3, "random_loadouts": True},
]


def random_states(rules, seed: int, options: dict | None = None):
    """Every state of a random game, with the events that led to it."""
    rng = random.Random(seed)
    state = rules.initial_state(2, rules.normalize_options(options or {}))
    yield state, []
    while rules.to_act(state):
        to_act = rules.to_act(state)
        if to_act == {CHANCE}:
            actions = {CHANCE: rules.sample_chance(state, rng)}
        else:
            actions = {s: rng.choice(rules.legal_actions(state, s)) for s in to_act}
        state, events = rules.apply(state, actions)
        yield state, events


# -------------------------------------------------------------------------------- registry, options


def test_registered_with_bots_easiest_first():
    assert get_rules("scratch_wars") is SHIPPED
    assert bot_levels("scratch_wars") == ["random", "greedy", "expectimax"]
    assert SHIPPED.min_players == SHIPPED.max_players == 2


def test_default_options():
    assert SHIPPED.normalize_options({}) == {
        "level": 3,
        "effects": "distinguished",
        "random_loadouts": False,
        "permanent_order": "choose",
    }


@pytest.mark.parametrize(
    "options",
    [{"level": 4}, {"level": 0}, {"effects": "attacks"}, {"colour": "red"}, {"random_loadouts": "yes"}, {"level": "3"}],
)
def test_bad_options(options):
    with pytest.raises(BadOptions):
        SHIPPED.normalize_options(options)


def test_two_players_only():
    with pytest.raises(BadOptions):
        SHIPPED.initial_state(3, {})


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o))
@pytest.mark.parametrize("seed", range(6))
def test_random_games_end_at_every_level(options, seed):
    state, _log = play_out(SHIPPED, 2, options, rng=random.Random(seed), max_steps=20_000)
    outcome = SHIPPED.outcome(state)
    assert outcome is not None and state.phase == OVER
    if options["level"] == 1:
        assert outcome.reason == "defeated" and "draw" not in outcome.results
    assert outcome.reason in ("defeated", "day3_penalty")
    if "draw" in outcome.results:
        assert outcome.reason == "day3_penalty"


# ----------------------------------------------------------------------------------------- loadouts


def test_loadout_phase_is_simultaneous_with_representative_choices():
    state = SHIPPED.initial_state(2, {})
    assert state.phase == LOADOUT and SHIPPED.to_act(state) == {0, 1}
    legal = SHIPPED.legal_actions(state, 0)
    assert legal[0] == RandomLoadout()
    assert {a.hero for a in legal[1:] if isinstance(a, Loadout)} == set(
        BOOK.hero_codes
    )  # every hero with its suggested weapons
    for action in legal:
        assert SHIPPED.decode_action(json.loads(json.dumps(SHIPPED.encode_action(action)))) == action


def test_any_valid_loadout_is_legal_not_only_the_listed_ones():
    state = SHIPPED.initial_state(2, {})
    hero = BOOK.hero_codes[0]
    w = BOOK.weapon_codes
    for weapons in [(w[0],), (w[3], w[9], w[27]), tuple(w[10:15])]:
        assert Loadout(hero, weapons) not in SHIPPED.legal_actions(state, 0)
        assert SHIPPED.is_legal(state, 0, Loadout(hero, weapons))
    for bad in [
        Loadout(hero, ()),
        Loadout(hero, tuple(w[:6])),
        Loadout("NOPE", (w[0],)),
        Loadout(hero, ("NOPE",)),
        Loadout(hero, (w[0], w[0])),
        SpinWeapon(0),
    ]:
        assert not SHIPPED.is_legal(state, 0, bad)


def test_level_1_allows_the_same_weapon_twice():
    state = SHIPPED.initial_state(2, {"level": 1})
    hero, w = BOOK.hero_codes[0], BOOK.weapon_codes[0]
    assert SHIPPED.is_legal(state, 0, Loadout(hero, (w, w)))
    state, _ = SHIPPED.apply(state, {0: Loadout(hero, (w, w)), 1: Loadout(hero, (w,))})
    assert [s.weapon for s in state.seats[0].slots] == [w, w]


@pytest.mark.parametrize(
    "data, message, reason",
    [
        ({"hero": "NOPE", "weapons": ["IRON"]}, "unknown hero", "unknown_hero"),
        ({"hero": 7, "weapons": ["IRON"]}, "unknown hero", "unknown_hero"),
        ({"hero": "BRAM", "weapons": []}, "1 to 5 weapons", "weapon_count"),
        (
            {"hero": "BRAM", "weapons": ["IRON", "SALT", "MRSH", "TINS", "KIND", "QRRY"]},
            "1 to 5 weapons",
            "weapon_count",
        ),
        ({"hero": "BRAM", "weapons": ["IRON", "XXXX"]}, "unknown weapon", "unknown_weapon"),
        ({"hero": "BRAM", "weapons": ["IRON", "IRON"]}, "only once", "weapon_twice"),
        ({"hero": "BRAM", "weapons": "IRON"}, "list of weapon codes", "shape"),
        ({"hero": "BRAM"}, "a loadout is", "shape"),
        (["BRAM", "IRON"], "a loadout is", "shape"),
    ],
)
def test_validate_deck_refuses_with_a_clear_message(data, message, reason):
    """The English message for developers, the reason (and JSON-safe params) for the pages' words."""
    with pytest.raises(BadAction, match=message) as refused:
        SHIPPED.validate_deck(data)
    assert refused.value.reason == reason
    assert json.loads(json.dumps(refused.value.params)) == refused.value.params


def test_validate_deck_normal_form():
    assert SHIPPED.validate_deck({"hero": "BRAM", "weapons": ["IRON", "SALT"]}) == {
        "hero": "BRAM",
        "weapons": ["IRON", "SALT"],
    }
    assert SHIPPED.validate_deck({"loadout": {"hero": "BRAM", "weapons": ("IRON",)}}) == {
        "hero": "BRAM",
        "weapons": ["IRON"],
    }


def test_illegal_loadout_is_refused_by_apply():
    state = SHIPPED.initial_state(2, {})
    with pytest.raises(IllegalAction):
        SHIPPED.apply(state, {0: Loadout("BRAM", ()), 1: RandomLoadout()})


def test_loadouts_stay_hidden_until_both_chose():
    state = SHIPPED.initial_state(2, {})
    choice = Loadout("MORA", ("ORCL", "STAR"))
    assert SHIPPED.action_visible_to(state, 0, choice) == {0}
    step = submit(SHIPPED, state, {}, 0, choice)
    assert not step.applied and step.state is state
    for viewer in (None, 1):
        text = json.dumps(SHIPPED.observe(step.state, viewer))
        assert "MORA" not in text and "ORCL" not in text
    assert SHIPPED.observe(step.state, 1)["heroes"] == [None, None]
    assert SHIPPED.secrets(step.state, 1) == []  # the choice is in the driver's pending, not the state
    with pytest.raises(NotYourTurn):
        submit(SHIPPED, step.state, step.pending, 0, choice)
    done = submit(SHIPPED, step.state, step.pending, 1, Loadout("GORM", ("THND",)))
    assert done.applied
    revealed = [e for e in done.events if e.kind == "loadouts_revealed"]
    assert revealed[0].data["heroes"] == ["MORA", "GORM"] and revealed[0].visible_to is None


def test_quick_random_loadout_is_drawn_by_public_chance():
    state = SHIPPED.initial_state(2, {})
    state, _ = SHIPPED.apply(state, {0: RandomLoadout(), 1: Loadout("GORM", ("THND", "GLAC"))})
    assert state.phase == DRAW_LOADOUTS and SHIPPED.to_act(state) == {CHANCE}
    draw = SHIPPED.sample_chance(state, random.Random(4))
    assert isinstance(draw, DrawnLoadouts) and [seat for seat, _ in draw.loadouts] == [0]
    assert SHIPPED.action_visible_to(state, CHANCE, draw) is None
    state, events = SHIPPED.apply(state, {CHANCE: draw})
    hero, weapons = draw.loadouts[0][1].hero, draw.loadouts[0][1].weapons
    assert SHIPPED.validate_deck({"hero": hero, "weapons": list(weapons)})
    assert len(weapons) == 5
    own = [w for w in weapons if BOOK.weapons[w].type in BOOK.heroes[hero].weapon_types]
    assert weapons[: len(own)] == tuple(own)  # the hero's own types first
    assert state.seats[1].hero == "GORM"
    assert [e.data["random"] for e in events if e.kind == "loadouts_revealed"] == [[0]]


def test_random_loadouts_option_skips_the_loadout_phase():
    state = SHIPPED.initial_state(2, {"random_loadouts": True})
    assert state.phase == DRAW_LOADOUTS and SHIPPED.to_act(state) == {CHANCE}
    state, _ = SHIPPED.apply(state, {CHANCE: SHIPPED.sample_chance(state, random.Random(1))})
    assert state.seats[0] is not None and state.seats[1] is not None and state.phase == START_WEAPON


def test_chance_outcome_must_fit():
    state = SHIPPED.initial_state(2, {"random_loadouts": True})
    with pytest.raises(IllegalAction):
        SHIPPED.apply(
            state, {CHANCE: DrawnLoadouts(((0, Loadout("BRAM", ("IRON", "IRON"))), (1, Loadout("BRAM", ("IRON",)))))}
        )
    with pytest.raises(IllegalAction):
        SHIPPED.apply(state, {CHANCE: Segment(3)})
    with pytest.raises(IllegalAction):
        SHIPPED.sample_chance(SHIPPED.initial_state(2, {}), random.Random(0))


# ------------------------------------------------------------------------------------ the start spin


def _to_start(heroes=("H", "H"), weapons=(FIX_LOADOUT, FIX_LOADOUT), level=3):
    state = RULES.initial_state(2, {"level": level})
    return RULES.apply(state, {0: Loadout(heroes[0], weapons[0]), 1: Loadout(heroes[1], weapons[1])})[0]


def test_start_weapons_are_chosen_by_seats_with_a_choice():
    state = _to_start(weapons=(FIX_LOADOUT, ("WD",)))
    assert state.phase == START_WEAPON and RULES.to_act(state) == {0}
    assert RULES.legal_actions(state, 0) == (StartWeapon(0), StartWeapon(1), StartWeapon(2))
    assert RULES.action_visible_to(state, 0, StartWeapon(1)) is None  # nobody else is choosing
    state, events = RULES.apply(state, {0: StartWeapon(BW)})
    assert state.phase == START_SPIN and state.start == (BW, 0, -1, -1)
    assert [e.data["weapons"] for e in events if e.kind == "start_weapons"] == [["BW", "WD"]]
    both = _to_start()
    assert RULES.action_visible_to(both, 1, StartWeapon(0)) == {1}  # simultaneous: hidden


def test_start_spin_tie_spins_again_and_the_winner_may_let_the_other_start():
    state = _to_start(weapons=(("SW",), ("WD",)))
    assert state.phase == START_SPIN  # nobody has a choice of weapon
    tie = StartSpin(segment("heal", 3, "red"), segment("attack_hero", 3, "green"))
    state, events = RULES.apply(state, {CHANCE: tie})
    assert state.phase == START_SPIN and [e.data["winner"] for e in events if e.kind == "start_spin"] == [None]
    state, _ = RULES.apply(state, {CHANCE: StartSpin(segment("combo", 1, "red"), segment("shield", 4, "red"))})
    assert state.phase == START_CHOICE and RULES.to_act(state) == {B}
    assert RULES.observe(state, None)["start"]["winner"] == B
    state, _ = act(state, Starter(A), B)  # B lets A start
    assert state.starter == A and state.active == A and lives(state) == (28, 30)
    assert RULES.observe(state, None)["start"]["winner"] == B


# ------------------------------------------------------------------------------------- the turn


def test_level_1_every_icon_is_an_attack_on_the_hero():
    state = position(level=1, lives=(20, 30))
    state, events = spin(state, SW, "heal", 3, "green")
    assert lives(state) == (20, 27)
    assert [e.data["resolves_as"] for e in events if e.kind == "spin_result"] == ["attack_hero"]


def test_level_1_red_and_green_are_used_without_asking():
    state = position(level=1)
    state, _ = spin(state, SW, "shield", 2, "green")
    assert state.phase == MAIN and lives(state) == (30, 28)


def test_level_2a_every_effect_attacks_and_icon_bonuses_still_match():
    # AMBIGUITY 4: a heal icon at noon (heal -1) in 2a is an attack of 3 - 1
    state = RULES.position(
        ("H", "H"), (FIX_LOADOUT, FIX_LOADOUT), round=2, options={"level": 2, "effects": "every_effect_attacks"}
    )
    state, _ = spin(state, SW, "heal", 3, "green")
    assert RULES.legal_actions(state, A) == (Use(1), Skip())
    state, _ = act(state, Use(1))
    assert lives(state) == (30, 28)


def test_level_2a_blessing_applies_to_every_icon():
    state = RULES.position(
        ("H", "H"), (FIX_LOADOUT, FIX_LOADOUT), round=2, options={"level": 2, "effects": "every_effect_attacks"}
    )
    state, _ = spin(state, SW, "combo", 2, "green")
    assert set(RULES.legal_actions(state, A)) == {Use(-1), Use(0), Skip()}


def test_level_2_has_no_energy_costs():
    state = position(level=2)
    assert state.seats[A].energy == 0
    state, events = act(state, SpinWeapon(SW))
    assert [e.data["cost"] for e in events if e.kind == "spin_started"] == [0]


def test_one_bonus_per_spin_the_player_picks():
    # AMBIGUITY 12: at noon an attack may take the blessing; a heal must take heal -1 (case 7)
    state = position(level=3, round=2, energy=(12, 0))
    state, _ = spin(state, SW, "universal_attack", 2, "green")
    assert set(RULES.legal_actions(state, A)) == {Use(-1), Use(0), Skip()}


def test_a_value_never_goes_below_zero():
    # AMBIGUITY 11: heal 0 at noon with heal -1 -> 0
    state = position(level=3, round=2, lives=(20, 30), energy=(12, 0))
    state, _ = spin(state, SW, "heal", 0, "green")
    state, events = act(state, Use(1))
    assert lives(state) == (20, 30)
    assert [e.data["value"] for e in events if e.kind == "effect_used"] == [0]


def test_orange_use_ends_the_turn_but_end_of_turn_effects_still_happen():
    slots = (Slot("SW"), Slot("BW", READY, PERMANENT_ATTACK, 2), Slot("WD"))
    state = position(level=3, energy=(12, 0), slots=(slots, None))
    state, _ = spin(state, SW, "attack_hero", 1, "orange")
    state, events = act(state, Use(-1))
    assert lives(state) == (30, 27)  # 1 + the permanent attack's 2
    assert [e.data["reason"] for e in events if e.kind == "main_phase_ended"] == ["field"]
    assert state.active == B


def test_a_red_field_ends_the_turn_at_level_1():
    state = position(level=1)
    state, _ = spin(state, SW, "attack_hero", 1, "red")
    assert state.active == B


def test_end_turn_is_always_there_and_a_broken_weapon_can_only_be_repaired():
    slots = (Slot("SW", BROKEN), Slot("BW", READY, SHIELD, 2), Slot("WD"))
    state = position(level=3, energy=(12, 0), slots=(slots, None))
    assert RULES.legal_actions(state, A) == (Repair(SW), Cancel(BW), SpinWeapon(WD), EndTurn())


def test_no_actions_means_only_cancel_or_end():
    slots = (Slot("SW"), Slot("BW", READY, SHIELD, 2), Slot("WD"))
    state = position(level=3, energy=(12, 0), actions=0, slots=(slots, None))
    assert RULES.legal_actions(state, A) == (Cancel(BW), EndTurn())


def test_out_of_energy_counts_only_spinnable_and_repairable_weapons():
    # AMBIGUITY 6: energy 2 is left, but SW costs 3, BW costs 3 (off-type) and WD holds an effect.
    slots = (Slot("SW"), Slot("BW"), Slot("WD", READY, SHIELD, 1))
    state = position(level=3, energy=(5, 0), slots=(slots, None))
    state, _ = spin(state, SW, "attack_hero", 1, "green")
    state, events = act(state, Use(-1))
    assert state.active == B
    assert [e.data["reason"] for e in events if e.kind == "main_phase_ended"] == ["energy"]


def test_cancelling_is_free_and_never_ends_the_turn():
    slots = (Slot("SW"), Slot("BW"), Slot("WD", READY, SHIELD, 1))
    state = position(level=3, energy=(0, 0), slots=(slots, None))
    state, events = act(state, Cancel(WD))
    assert state.phase == MAIN and state.active == A and state.actions == 4
    assert [e.data["by"] for e in events if e.kind == "effect_cancelled"] == ["owner"]


def test_attack_weapon_without_a_target_can_only_be_skipped():
    state = position(level=3, energy=(12, 0))
    state, events = spin(state, SW, "attack_weapon", 1, "green")  # every B weapon has durability >= 2
    assert state.phase == MAIN and state.actions == 3  # skipped without asking
    assert "effect_skipped" in [e.kind for e in events]


def test_a_broken_or_repairing_weapon_is_no_target_and_a_held_weapon_only_through_its_effect():
    b_slots = (Slot("SW", BROKEN), Slot("BW", READY, COMBO, 2), Slot("WD"))
    state = position(level=3, energy=(12, 0), slots=(None, b_slots))
    state, _ = spin(state, SW, "attack_weapon", 6, "green")
    state, _ = act(state, Use(-1))
    assert set(RULES.legal_actions(state, A)) == {Target("effect", BW), Target("weapon", WD)}


def test_a_shield_cannot_protect_itself():
    b_slots = (Slot("SW"), Slot("BW", READY, SHIELD, 3), Slot("WD", READY, SHIELD, 1))
    state = position(level=3, energy=(12, 0), slots=(None, b_slots))
    state, _ = spin(state, SW, "universal_attack", 3, "green")
    state, _ = act(state, Use(-1))
    state, _ = act(state, Target("effect", BW))
    assert RULES.legal_actions(state, B) == (SpendShield(WD), TakeHit())
    state, _events = act(state, TakeHit())
    assert state.seats[B].slots[BW].held == NO_EFFECT and state.seats[B].slots[WD].held == SHIELD


def test_shields_are_not_offered_against_a_zero_attack():
    b_slots = (Slot("SW"), Slot("BW", READY, SHIELD, 3), Slot("WD"))
    state = position(level=3, round=2, energy=(12, 0), slots=(None, b_slots))
    state, _ = spin(state, SW, "heal", 1, "green")  # noon: heal -1 -> 0; not an attack anyway
    state, _ = act(state, Use(1))
    assert RULES.to_act(state) == {A}


def test_permanent_attacks_fire_in_the_owners_order_and_each_may_be_shielded():
    a_slots = (Slot("SW", READY, PERMANENT_ATTACK, 2), Slot("BW", READY, PERMANENT_ATTACK, 3), Slot("WD"))
    b_slots = (Slot("SW"), Slot("BW", READY, SHIELD, 2), Slot("WD"))
    state = position(level=3, slots=(a_slots, b_slots))
    state, events = act(state, EndTurn())
    assert state.phase == "order" and RULES.legal_actions(state, A) == (FirePermanent(SW), FirePermanent(BW))
    decoded = RULES.decode_state(json.loads(json.dumps(RULES.encode_state(state))))
    assert decoded == state and decoded.config.permanent_order == "choose"
    state, events = act(state, FirePermanent(SW))
    assert RULES.to_act(state) == {B} and state.attack.origin == SW and state.attack.value == 2
    state, events = act(state, SpendShield(BW))
    assert lives(state) == (30, 27)  # 2 - 2 = 0, then 3
    assert [e.data["value"] for e in events if e.kind == "attack_resolved"] == [0, 3]
    assert state.active == B


def test_combo_step_choices():
    held = (Slot("SW", READY, COMBO, 3), Slot("BW", READY, COMBO, 4), Slot("WD"))
    state = position(level=3, round=4, slots=(held, None))  # night: detonator +1
    state, _ = act(state, EndTurn())
    assert state.phase == "combo"
    assert RULES.legal_actions(state, A) == (AddCombo(SW), AddCombo(BW), KeepCombos())
    state, _ = act(state, AddCombo(BW))
    assert RULES.legal_actions(state, A) == (AddCombo(SW), Detonate(0), KeepCombos())
    state, _ = act(state, AddCombo(SW))
    assert RULES.legal_actions(state, A) == (Detonate(-1), Detonate(0), KeepCombos())
    kept, events = act(state, KeepCombos())
    assert kept.active == B and [s.held for s in kept.seats[A].slots] == [COMBO, COMBO, NO_EFFECT]
    assert [e.data["slots"] for e in events if e.kind == "combos_kept"] == [[SW, BW]]
    state, _ = act(state, Detonate(0))
    assert state.phase == TARGET and state.attack.value == 8
    state, _ = act(state, Target("weapon", SW))
    assert state.seats[B].slots[SW].status == BROKEN and state.active == B


def _negative_fixture():
    """H with a negative combo_bonus and a negative detonator at night."""
    data = json.loads(json.dumps(FIXTURE_SET))
    data["heroes"][0]["times_of_day"][3]["bonuses"] = [
        {"kind": "combo_bonus", "value": -2},
        {"kind": "combo_detonator", "value": -1},
    ]
    return ScratchWars(book_from(data))


def test_negative_combo_bonus_is_mandatory_and_a_negative_detonator_applies_when_used():
    rules = _negative_fixture()
    held = (Slot("SW", READY, COMBO, 3), Slot("BW", READY, COMBO, 1), Slot("WD"))
    state = rules.position(("H", "H"), (FIX_LOADOUT, FIX_LOADOUT), round=4, slots=(held, None))
    state, _ = rules.apply(state, {A: EndTurn()})
    state, _ = rules.apply(state, {A: AddCombo(SW)})
    assert [a for a in rules.legal_actions(state, A) if isinstance(a, Detonate)] == [Detonate(1)]  # the detonator
    _single, events = rules.apply(state, {A: Detonate(1)})
    assert [e.data["value"] for e in events if e.kind == "combo_detonated"] == [2]
    state, _ = rules.apply(state, {A: AddCombo(BW)})
    assert [a for a in rules.legal_actions(state, A) if isinstance(a, Detonate)] == [Detonate(0)]  # -2, mandatory
    state, events = rules.apply(state, {A: Detonate(0)})
    assert [e.data["value"] for e in events if e.kind == "combo_detonated"] == [2]


def test_turn_energy_and_time_of_day_run_through_the_rounds():
    state = position(level=3, round=1, energy=(0, 0))
    seen = []
    for _ in range(8):
        state, events = act(state, EndTurn())
        seen += [(e.data["round"], e.data["time_of_day_name"]) for e in events if e.kind == "round_started"]
    assert seen == [(2, "noon"), (3, "evening"), (4, "night"), (5, "morning")]
    # position() applies no round-1 income; then noon 3, evening 4, night 1, morning 2
    assert state.round == 5 and state.seats[A].energy == 3 + 4 + 1 + 2


def test_wrong_seat_and_illegal_actions_are_refused():
    state = position(level=3, energy=(12, 0))
    with pytest.raises(IllegalAction):
        RULES.apply(state, {B: EndTurn()})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {A: Repair(SW)})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {A: Use(-1)})
    assert not RULES.is_legal(state, B, EndTurn())
    assert RULES.legal_actions(state, B) == ()
    state, _ = act(state, SpinWeapon(SW))
    with pytest.raises(IllegalAction):
        RULES.apply(state, {CHANCE: Segment(10_000)})


def test_nothing_applies_after_the_end():
    state = position(level=1, lives=(30, 1))
    state, _ = spin(state, SW, "attack_hero", 1, "green")
    assert state.phase == OVER
    with pytest.raises(GameOver):
        RULES.apply(state, {A: EndTurn()})
    assert all(RULES.legal_actions(state, s) == () for s in (0, 1))


# --------------------------------------------------------------------------------------------- JSON


ACTION_JSON = [
    (Loadout("BRAM", ("IRON", "SALT")), {"loadout": {"hero": "BRAM", "weapons": ["IRON", "SALT"]}}),
    (RandomLoadout(), {"loadout": "random"}),
    (StartWeapon(2), {"start_weapon": 2}),
    (Starter(1), {"starter": 1}),
    (SpinWeapon(0), {"spin": 0}),
    (Repair(3), {"repair": 3}),
    (Cancel(4), {"cancel": 4}),
    (EndTurn(), {"end_turn": True}),
    (Use(-1), {"use": {"bonus": None}}),
    (Use(1), {"use": {"bonus": 1}}),
    (Skip(), {"skip": True}),
    (Target("hero"), {"target": "hero"}),
    (Target("weapon", 2), {"target": "weapon", "slot": 2}),
    (Target("effect", 0), {"target": "effect", "slot": 0}),
    (SpendShield(1), {"shield": 1}),
    (TakeHit(), {"take_hit": True}),
    (AddCombo(2), {"combo": 2}),
    (Detonate(-1), {"detonate": {"bonus": None}}),
    (KeepCombos(), {"keep_combos": True}),
    (Segment(8), {"segment": 8}),
    (StartSpin(1, 7), {"start_spin": [1, 7]}),
    (DrawnLoadouts(((0, Loadout("BRAM", ("IRON",))),)), {"loadouts": {"0": {"hero": "BRAM", "weapons": ["IRON"]}}}),
]


@pytest.mark.parametrize("action, obj", ACTION_JSON, ids=lambda v: str(v)[:30])
def test_action_json(action, obj):
    assert SHIPPED.encode_action(action) == obj
    assert SHIPPED.decode_action(json.loads(json.dumps(obj))) == action


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        {},
        {"spin": "0"},
        {"spin": True},
        {"end_turn": 1},
        {"use": 1},
        {"use": {"bonus": "x"}},
        {"target": "castle"},
        {"target": "weapon"},
        {"target": "hero", "slot": 1},
        {"fly": 1},
        {"spin": 1, "repair": 2},
        {"loadout": {"hero": "BRAM"}},
        {"start_spin": [1]},
        {"loadouts": []},
    ],
)
def test_malformed_actions_are_bad(obj):
    with pytest.raises(BadAction):
        SHIPPED.decode_action(obj)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o))
def test_state_json_round_trip_and_view_rebuild(options):
    for state, _ in random_states(SHIPPED, 3, options):
        assert SHIPPED.decode_state(json.loads(json.dumps(SHIPPED.encode_state(state)))) == state
        for viewer in (0, 1):
            obs = json.loads(json.dumps(SHIPPED.bot_observation(state, viewer)))
            if state.phase != OVER:
                assert SHIPPED.state_from_observation(obs) == state


def test_malformed_snapshot_and_observation():
    with pytest.raises(ValueError):
        SHIPPED.decode_state({"phase": "main"})
    with pytest.raises(ValueError):
        SHIPPED.decode_state({"phase": "dance"})
    with pytest.raises(ValueError):
        SHIPPED.state_from_observation({"game": "battle_runes"})
    with pytest.raises(ValueError):
        SHIPPED.state_from_observation({"game": "scratch_wars"})


# ----------------------------------------------------------------------------------- observations


def test_observation_shows_heroes_weapons_and_the_pending_spin():
    a_slots = (Slot("SW"), Slot("BW", BROKEN), Slot("WD", READY, SHIELD, 3))
    b_slots = (Slot("SW", 2), Slot("BW"), Slot("WD", READY, PERMANENT_ATTACK, 1))
    state = position(level=3, round=3, energy=(9, 4), lives=(25, 17), slots=(a_slots, b_slots))
    state, _ = act(state, SpinWeapon(SW))
    view = RULES.observe(state, B)
    assert view["seat"] == B and view["phase"] == "spin" and view["to_act"] == [CHANCE]
    assert view["spin"] == {
        "seat": A,
        "slot": SW,
        "weapon": "SW",
        "segment": None,
        "effect": None,
        "value": None,
        "field": None,
        "resolves_as": None,
    }
    assert (view["round"], view["day"], view["time_of_day"], view["time_of_day_name"]) == (3, 1, 2, "evening")
    a, b = view["heroes"]
    assert (a["lives"], a["max_lives"], a["energy"]) == (25, 30, 6)
    assert [w["state"] for w in a["weapons"]] == ["ready", "broken", "holding"]
    assert a["weapons"][2]["effect"] == {"effect": "shield", "value": 3}
    assert [w["spin_cost"] for w in a["weapons"]] == [3, 3, 2]
    assert [w["state"] for w in b["weapons"]] == ["repairing", "ready", "holding"]
    assert a["column"]["bonuses"][0] == {
        "index": 0,
        "kind": "combo_bonus",
        "effect": None,
        "value": 2,
        "flag": False,
        "used": False,
    }
    state, _ = RULES.apply(state, {CHANCE: Segment(segment("attack_hero", 4, "orange"))})
    assert RULES.observe(state, None)["spin"]["value"] == 4 and RULES.observe(state, None)["spin"]["field"] == "orange"
    assert state.phase == DECIDE


def test_observation_floors_lives_and_hides_nothing_per_viewer():
    state = position(level=1, lives=(30, 2))
    state, _ = spin(state, SW, "attack_hero", 5, "green")
    view = RULES.observe(state, None)
    assert view["heroes"][1]["lives"] == 0 and view["over"] and view["outcome"]["results"] == ["win", "loss"]
    assert state.seats[1].lives == -3
    views = [RULES.observe(state, v) for v in (None, 0, 1)]
    assert all(
        {k: v for k, v in x.items() if k != "seat"} == {k: v for k, v in views[0].items() if k != "seat"} for x in views
    )


def test_level_1_observation_has_no_time_of_day_or_bonuses():
    view = RULES.observe(position(level=1), 0)
    assert view["time_of_day"] is None and view["day"] is None and view["heroes"][0]["column"] is None


# ------------------------------------------------------------------------------------------ events


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: json.dumps(o))
def test_events_are_public_and_documented(options):
    kinds = set()
    for seed in range(3):
        for _state, events in random_states(SHIPPED, seed, options):
            for event in events:
                assert event.visible_to is None
                assert event.kind in EVENT_KINDS
                documented = {k for k in EVENT_KINDS[event.kind] if "|" not in k}
                assert documented <= set(event.data), (event.kind, sorted(event.data))
                json.dumps(event.to_json())
                kinds.add(event.kind)
    assert {"turn_started", "spin_started", "spin_result", "main_phase_ended", "game_over"} <= kinds


def test_chance_spins_are_public_in_the_log():
    state = position(level=3, energy=(12, 0))
    state, _ = act(state, SpinWeapon(SW))
    assert RULES.action_visible_to(state, CHANCE, Segment(3)) is None
    assert RULES.action_visible_to(state, A, EndTurn()) is None


def test_catalog_lists_cards_with_the_rarity_check():
    catalog = SHIPPED.catalog()
    assert catalog["wheel_segments"] == 9 and catalog["times_of_day"][:2] == ["morning", "noon"]
    assert len(catalog["heroes"]) >= 12 and len(catalog["weapons"]) >= 24
    hero = catalog["heroes"][0]
    assert set(hero["rarity"]) == {"strength", "average", "difference", "rare"}
    json.dumps(catalog)


def test_fixture_effects_helpers():
    state = position(level=3, round=2)
    assert fx.time_of_day(state) == 1 and fx.day(state) == 1
    assert fx.column(RULES.book, state, A).energy == 3
    state = evolve(state, round=9)
    assert fx.time_of_day(state) == 0 and fx.day(state) == 3
