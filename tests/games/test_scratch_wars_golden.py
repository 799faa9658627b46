"""Every GOLDEN CASE (1-26) of rules/scratch_wars.md, each its own test with exactly the stated result.

The fixtures are the spec's synthetic cards: hero H (30 lives, swords; columns morning energy 2 +
attack_hero +2, noon 3 + blessing +1 / heal -1, evening 4 + combo_bonus +2 / flagged shield +1,
night 1 + combo_detonator +1), hero H2 (H with swords and bows), weapons SW (sword, cost 3,
durability 4), BW (bow, 2, 3), WD (wand, 1, 2), plus a red (cost 3) bow RB and two bows for case 25.
"Spin outcomes are injected as (effect, value, field)": every fixture wheel holds every
(effect, value 0-7, field) once, and :func:`spin` draws the segment with exactly that content
through the engine's own chance step. Seat 0 is the spec's player A, seat 1 player B.
"""

from __future__ import annotations

import pytest

from app.games.core import CHANCE, BadAction, Outcome
from app.games.scratch_wars import ScratchWars, Slot
from app.games.scratch_wars import effects as fx
from app.games.scratch_wars.actions import (
    AddCombo,
    Cancel,
    Detonate,
    EndTurn,
    FirePermanent,
    Loadout,
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
from app.games.scratch_wars.data import COMBO, EFFECTS, FIELDS, PERMANENT_ATTACK, SHIELD, book_from
from app.games.scratch_wars.state import BROKEN, DECIDE, MAIN, NO_EFFECT, OVER, READY, REPAIRING, TARGET

# ---------------------------------------------------------------------------------------- fixtures

VALUES = range(8)
WHEEL = [{"effect": e, "value": v, "field": f} for e in EFFECTS for v in VALUES for f in FIELDS]


def _hero(code: str, types: list[str]) -> dict:
    return {
        "code": code,
        "name": f"Hero {code}",
        "kind": "Fixture",
        "nation": "Testland",
        "rarity_stars": 1,
        "lives_duel": 30,
        "lives_team": 30,
        "weapon_types": types,
        "average_strength": 0.0,
        "starter_weapons": ["SW", "BW", "WD"],
        "times_of_day": [
            {"energy": 2, "bonuses": [{"kind": "effect", "effect": "attack_hero", "value": 2}]},
            {
                "energy": 3,
                "bonuses": [{"kind": "blessing", "value": 1}, {"kind": "effect", "effect": "heal", "value": -1}],
            },
            {
                "energy": 4,
                "bonuses": [
                    {"kind": "combo_bonus", "value": 2},
                    {"kind": "effect", "effect": "shield", "value": 1, "flag": True},
                ],
            },
            {"energy": 1, "bonuses": [{"kind": "combo_detonator", "value": 1}]},
        ],
    }


def _weapon(code: str, name: str, type_: str, cost: int, durability: int) -> dict:
    return {
        "code": code,
        "name": name,
        "type": type_,
        "energy_cost": cost,
        "cost_color": {1: "yellow", 2: "orange", 3: "red"}[cost],
        "durability": durability,
        "rarity_stars": 1,
        "average_strength": 0.0,
        "wheel": WHEEL,
    }


FIXTURE_SET = {
    "wheel_segments": len(WHEEL),
    "heroes": [_hero("H", ["sword"]), _hero("H2", ["sword", "bow"])],
    "weapons": [
        _weapon("SW", "Fixture Sword", "sword", 3, 4),
        _weapon("BW", "Fixture Bow", "bow", 2, 3),
        _weapon("WD", "Fixture Wand", "wand", 1, 2),
        _weapon("RB", "Red Fixture Bow", "bow", 3, 4),
        _weapon("BAMB", "Bamboo Bow", "bow", 2, 3),
        _weapon("YEWB", "Yew Bow", "bow", 2, 3),
    ],
}
RULES = ScratchWars(book_from(FIXTURE_SET, "golden fixtures"))
SW, BW, WD = 0, 1, 2  # slots of the standard fixture loadout
LOADOUT = ("SW", "BW", "WD")
A, B = 0, 1


def segment(effect: str, value: int, field: str) -> int:
    """The index of the fixture segment (effect, value, field)."""
    return WHEEL.index({"effect": effect, "value": value, "field": field})


def act(state, action, seat=None):
    """Apply ``action`` for the seat to act (checked by the engine); returns (state, events)."""
    if seat is None:
        (seat,) = RULES.to_act(state)
    assert RULES.is_legal(state, seat, action), (action, RULES.legal_actions(state, seat))
    return RULES.apply(state, {seat: action})


def spin(state, slot: int, effect: str, value: int, field: str):
    """The active seat spins ``slot``; chance lands on (effect, value, field). Returns (state, events)."""
    state, events = act(state, SpinWeapon(slot))
    assert RULES.to_act(state) == {CHANCE}
    state, more = RULES.apply(state, {CHANCE: Segment(segment(effect, value, field))})
    return state, events + more


def position(level: int = 3, heroes=("H", "H"), **kwargs):
    return RULES.position(heroes, (LOADOUT, LOADOUT), options={"level": level}, **kwargs)


def lives(state) -> tuple[int, int]:
    return state.seats[0].lives, state.seats[1].lives


def started(level: int = 3, heroes=("H", "H"), starter: int = A):
    """A match played from the loadout phase: both take ``LOADOUT``, A wins the start spin (SW 5
    against SW 2) and ``starter`` starts."""
    state = RULES.initial_state(2, {"level": level})
    state, _ = RULES.apply(state, {0: Loadout(heroes[0], LOADOUT), 1: Loadout(heroes[1], LOADOUT)})
    state, _ = RULES.apply(state, {0: StartWeapon(SW), 1: StartWeapon(SW)})
    state, events = RULES.apply(
        state, {CHANCE: StartSpin(segment("attack_hero", 5, "green"), segment("attack_hero", 2, "green"))}
    )
    assert [e.data["winner"] for e in events if e.kind == "start_spin"] == [A]
    return act(state, Starter(starter), A)


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# ------------------------------------------------------------------------------------------- cases


def test_case_01_starting_penalty():
    state, events = started(level=1)
    assert state.starter == A and state.active == A and state.phase == MAIN
    assert lives(state) == (28, 30)
    assert state.actions == 4  # before A's first action
    assert [e.data for e in events if e.kind == "starter_chosen"] == [{"chooser": A, "starter": A, "lives": 28}]


def test_case_02_orange_decision_use_ends_the_turn():
    state = position(level=1)
    state, _ = spin(state, SW, "attack_hero", 2, "orange")
    assert state.phase == DECIDE and set(RULES.legal_actions(state, A)) == {Use(-1), Skip()}
    state, events = act(state, Use(-1))
    assert lives(state) == (30, 28)
    assert state.active == B  # A's turn ended
    assert [e.data["actions_lost"] for e in events if e.kind == "main_phase_ended"] == [3]


def test_case_02_orange_decision_decline_continues_with_3_actions():
    state = position(level=1)
    state, _ = spin(state, SW, "attack_hero", 2, "orange")
    state, _ = act(state, Skip())
    assert lives(state) == (30, 30)
    assert state.active == A and state.phase == MAIN and state.actions == 3


def test_case_03_green_then_red():
    state = position(level=1)
    state, _ = spin(state, SW, "attack_hero", 3, "green")  # level 1: used without a decision
    assert lives(state) == (30, 27) and state.phase == MAIN and state.actions == 3
    state, events = spin(state, BW, "attack_hero", 5, "red")
    assert lives(state) == (30, 22)
    assert state.active == B
    assert [(e.data["reason"], e.data["actions_lost"]) for e in events if e.kind == "main_phase_ended"] == [
        ("field", 2)
    ]


def test_case_04_the_action_limit():
    state = position(level=1)
    for n in range(3):
        state, _ = spin(state, n % 3, "attack_hero", 1, "green")
        assert state.active == A and state.actions == 3 - n
    state, events = spin(state, SW, "attack_hero", 1, "green")
    assert lives(state) == (30, 26)
    assert state.active == B
    assert [e.data["reason"] for e in events if e.kind == "main_phase_ended"] == ["actions"]


def test_case_05_win_in_the_middle_of_a_turn():
    state = position(level=1, lives=(30, 3))
    state, events = spin(state, SW, "attack_hero", 3, "green")
    assert state.phase == OVER and RULES.to_act(state) == frozenset()
    assert RULES.outcome(state) == Outcome(("win", "loss"), (30, 0), "defeated")
    assert state.actions == 3  # the remaining actions are never played
    assert kinds(events)[-1] == "game_over"


def test_case_06_icon_bonus_once_per_turn():
    state = position(level=2, round=1)  # morning: attack_hero +2
    state, _ = spin(state, SW, "attack_hero", 3, "green")
    assert set(RULES.legal_actions(state, A)) == {Use(-1), Use(0), Skip()}
    state, _ = act(state, Use(0))
    assert lives(state) == (30, 25)
    state, _ = spin(state, SW, "attack_hero", 3, "green")
    assert set(RULES.legal_actions(state, A)) == {Use(-1), Skip()}  # the bonus is used up
    state, _ = act(state, Use(-1))
    assert lives(state) == (30, 22)


def test_case_07_mandatory_negative_bonus():
    state = position(level=2, round=2, lives=(20, 30))  # noon: blessing +1, heal -1
    state, _ = spin(state, SW, "heal", 3, "green")
    # heal -1 is mandatory and takes the spin's only bonus slot: no blessing, no plain use
    assert RULES.legal_actions(state, A) == (Use(1), Skip())
    used, _ = act(state, Use(1))
    assert lives(used) == (22, 30)
    declined, _ = act(state, Skip())
    assert lives(declined) == (20, 30)


def test_case_08_blessing():
    state = position(level=2, round=2, lives=(20, 30))
    state, _ = spin(state, SW, "heal", 3, "green")
    state, _ = act(state, Use(1))  # case 7
    state, _ = spin(state, SW, "attack_hero", 2, "green")
    assert set(RULES.legal_actions(state, A)) == {Use(-1), Use(0), Skip()}
    state, _ = act(state, Use(0))  # blessing +1
    assert lives(state) == (22, 27)


def test_case_09_energy_is_an_empty_action_at_level_2b():
    state = position(level=2, round=1)
    state, _ = spin(state, SW, "energy", 4, "green")
    state, events = act(state, Use(-1))
    assert lives(state) == (30, 30) and state.seats[A].energy == 0
    assert state.actions == 3 and state.phase == MAIN and state.active == A
    assert "energy_gained" not in kinds(events)


def _round_8_ends(level: int, a: int, b: int):
    """Rounds 1-7 and A's round-8 turn are done; B ends round 8."""
    state = position(level=level, round=8, active=B, lives=(a, b))
    return act(state, EndTurn())


@pytest.mark.parametrize("level", [2, 3])
def test_case_10_day_3_penalty_b_wins(level):
    state, events = _round_8_ends(level, 4, 7)
    assert state.round == 9
    assert [e.data["lives"] for e in events if e.kind == "day3_penalty"] == [[-1, 2]]
    assert RULES.outcome(state) == Outcome(("loss", "win"), (0, 2), "day3_penalty")
    assert "turn_started" not in kinds(events)  # before anything else


@pytest.mark.parametrize("level", [2, 3])
def test_case_10_day_3_penalty_draw(level):
    state, _ = _round_8_ends(level, 5, 5)
    assert lives(state) == (0, 0)
    assert RULES.outcome(state) == Outcome(("draw", "draw"), (0, 0), "day3_penalty")


@pytest.mark.parametrize("level", [2, 3])
def test_case_10_day_3_penalty_play_continues_and_repeats(level):
    state, _ = _round_8_ends(level, 9, 12)
    assert lives(state) == (4, 7) and RULES.outcome(state) is None
    assert state.round == 9 and state.active == A and state.phase == MAIN
    state, _ = act(state, EndTurn())  # A, round 9
    state, events = act(state, EndTurn())  # B, round 9; round 10 starts
    assert [e.data["lives"] for e in events if e.kind == "day3_penalty"] == [[-1, 2]]
    assert RULES.outcome(state).results == ("loss", "win")


def test_case_11_level_3_energy_on_type_spin_ends_the_turn_at_0():
    state, _ = started(level=3, heroes=("H2", "H2"))
    assert state.seats[A].energy == 2  # 0 + morning 2
    state, _ = act(state, SpinWeapon(BW))  # orange weapon, cost 2, a bow: on-type for H2
    assert state.actions == 3 and state.seats[A].energy == 0  # paid before the spin
    state, _ = RULES.apply(state, {CHANCE: Segment(segment("attack_hero", 1, "green"))})
    state, events = act(state, Use(-1))
    assert state.active == B
    assert [e.data["reason"] for e in events if e.kind == "main_phase_ended"] == ["energy"]


def test_case_11_an_energy_effect_keeps_the_turn_going():
    state, _ = started(level=3, heroes=("H2", "H2"))
    state, _ = spin(state, BW, "energy", 2, "green")
    state, _ = act(state, Use(-1))
    assert state.seats[A].energy == 2
    assert state.active == A and state.phase == MAIN and state.actions == 3


def test_case_11_hero_h_cannot_afford_the_bow():
    state, _ = started(level=3, heroes=("H", "H"))
    assert state.seats[A].energy == 2
    legal = RULES.legal_actions(state, A)
    assert SpinWeapon(BW) not in legal  # 2 + 1 off-type = 3 > 2
    assert SpinWeapon(SW) not in legal  # 3 > 2
    assert SpinWeapon(WD) in legal  # 1 + 1 = 2
    state, _ = act(state, SpinWeapon(WD))
    assert state.seats[A].energy == 0


def test_case_12_off_type_surcharge():
    book = RULES.book
    assert book.spin_cost("H", "SW") == 3
    assert book.spin_cost("H", "RB") == 4  # a red (cost 3) bow
    assert book.spin_cost("H", "WD") == 2
    state = RULES.position(("H", "H"), (("SW", "RB", "WD"), LOADOUT), energy=(12, 0))
    for slot, cost in ((0, 3), (1, 4), (2, 2)):
        spun, events = act(state, SpinWeapon(slot))
        assert spun.seats[A].energy == 12 - cost
        assert [e.data["cost"] for e in events if e.kind == "spin_started"] == [cost]


def test_case_13_cap_at_the_start_of_a_turn():
    state = position(round=2, active=B, energy=(11, 0))
    state, events = act(state, EndTurn())  # round 3 (evening, +4) starts with A's turn
    assert state.round == 3 and state.active == A
    assert state.seats[A].energy == 12
    assert [e.data["energy_gained"] for e in events if e.kind == "turn_started"] == [1]


def test_case_13_cap_after_an_energy_effect():
    state = position(energy=(12, 0))
    state, _ = act(state, SpinWeapon(WD))  # 12 - 2 = 10
    assert state.seats[A].energy == 10
    state, _ = RULES.apply(state, {CHANCE: Segment(segment("energy", 4, "green"))})
    state, _ = act(state, Use(-1))
    assert state.seats[A].energy == 12


def test_case_13_energy_carries_over():
    state = position(round=1, energy=(3, 0))
    state, _ = act(state, EndTurn())  # A ends with 3
    state, _ = act(state, EndTurn())  # B; round 2 (noon, +3)
    assert state.active == A and state.round == 2
    assert state.seats[A].energy == 6


def _attack_weapon(value: int):
    state = position(energy=(12, 12))
    state, _ = spin(state, SW, "attack_weapon", value, "green")
    return act(state, Use(-1))


def test_case_14_attack_on_a_weapon_legality():
    state, _ = _attack_weapon(4)
    assert state.phase == TARGET
    assert set(RULES.legal_actions(state, A)) == {Target("weapon", SW), Target("weapon", BW), Target("weapon", WD)}
    state, events = act(state, Target("weapon", SW))
    assert state.seats[B].slots[SW].status == BROKEN
    assert [e.data["broken"] for e in events if e.kind == "attack_resolved"] == [True]


def test_case_14_excess_value_is_lost():
    state, _ = _attack_weapon(6)
    state, _ = act(state, Target("weapon", WD))
    assert [s.status for s in state.seats[B].slots] == [READY, READY, BROKEN]


def test_case_14_a_weak_attack_cannot_target_stronger_weapons():
    state = position(energy=(12, 12))
    state, _ = spin(state, SW, "attack_weapon", 2, "green")
    targets = fx.targets(RULES.book, state, fx.resolves_as(state, state.spin.effect), 2)
    assert targets == [(fx.T_WEAPON, WD)]
    state, _ = act(state, Use(-1))  # the only target is taken without asking
    assert [s.status for s in state.seats[B].slots] == [READY, READY, BROKEN]


def _b_slots(*held: tuple[int, int, int]) -> tuple[Slot, ...]:
    slots = [Slot(w) for w in LOADOUT]
    for j, effect, value in held:
        slots[j] = Slot(LOADOUT[j], READY, effect, value)
    return tuple(slots)


def test_case_15_shield_against_a_hero_attack():
    state = position(energy=(12, 0), slots=(None, _b_slots((BW, SHIELD, 4))))
    state, _ = spin(state, SW, "attack_hero", 6, "green")
    state, _ = act(state, Use(-1))
    assert RULES.to_act(state) == {B}  # the defender chooses during A's turn
    assert RULES.legal_actions(state, B) == (SpendShield(BW), TakeHit())
    state, _events = act(state, SpendShield(BW))
    assert lives(state) == (30, 28)
    assert state.seats[B].slots[BW] == Slot("BW", READY, NO_EFFECT, 0)
    assert state.active == A and RULES.to_act(state) == {A}


def test_case_16_two_shields_added_together():
    state = position(energy=(12, 0), slots=(None, _b_slots((BW, SHIELD, 3), (WD, SHIELD, 2))))
    state, _ = spin(state, SW, "attack_hero", 5, "green")
    state, _ = act(state, Use(-1))
    state, _ = act(state, SpendShield(BW))
    assert state.attack.value == 2 and RULES.to_act(state) == {B}
    state, events = act(state, SpendShield(WD))
    assert lives(state) == (30, 30)
    assert [s.held for s in state.seats[B].slots] == [NO_EFFECT] * 3
    assert [e.data["value"] for e in events if e.kind == "attack_resolved"] == [0]


def test_case_17_shield_protecting_a_weapon():
    state = position(energy=(12, 0), slots=(None, _b_slots((BW, SHIELD, 2))))
    state, _ = spin(state, SW, "attack_weapon", 5, "green")
    state, _ = act(state, Use(-1))
    state, _ = act(state, Target("weapon", SW))
    state, events = act(state, SpendShield(BW))
    assert state.seats[B].slots[SW].status == READY  # 5 - 2 = 3 < 4
    assert state.seats[B].slots[BW].held == NO_EFFECT
    assert [(e.data["value"], e.data["broken"]) for e in events if e.kind == "attack_resolved"] == [(3, False)]


def test_case_18_cancelling_a_deferred_effect():
    state = position(energy=(12, 0), slots=(None, _b_slots((BW, COMBO, 3))))
    state, _ = spin(state, SW, "universal_attack", 3, "green")
    state, _ = act(state, Use(-1))
    assert set(RULES.legal_actions(state, A)) == {Target("hero"), Target("effect", BW), Target("weapon", WD)}
    state, events = act(state, Target("effect", BW))
    assert state.seats[B].slots[BW] == Slot("BW", READY, NO_EFFECT, 0)  # back in equipment, unbroken
    assert lives(state) == (30, 30)
    assert [e.data["by"] for e in events if e.kind == "effect_cancelled"] == ["attack"]


def _permanent_attack_deferred():
    state = position(energy=(12, 12))
    state, _ = spin(state, SW, "permanent_attack", 2, "green")
    state, _ = act(state, Use(-1))
    assert state.seats[A].slots[SW] == Slot("SW", READY, PERMANENT_ATTACK, 2)
    return state


def test_case_19_permanent_attack_fires_every_own_turn():
    state = _permanent_attack_deferred()
    state, _ = act(state, EndTurn())  # end of turn t: it fires already
    assert lives(state) == (30, 28) and state.active == B
    state, _ = act(state, EndTurn())
    assert lives(state) == (30, 28)  # not at the end of B's turn
    state, _ = act(state, EndTurn())
    assert lives(state) == (30, 26)


def test_case_19_permanent_attack_until_the_opponent_cancels_it():
    state = _permanent_attack_deferred()
    state, _ = act(state, EndTurn())
    state, _ = spin(state, SW, "attack_weapon", 4, "green")  # B, noon: blessing +1 optional
    state, _ = act(state, Use(-1))
    state, _ = act(state, Target("effect", SW))
    assert state.seats[A].slots[SW].held == NO_EFFECT
    state, _ = act(state, EndTurn())
    state, _ = act(state, EndTurn())
    assert lives(state) == (30, 28)


def test_case_19_permanent_attack_until_the_owner_cancels_it():
    state = _permanent_attack_deferred()
    state, _ = act(state, EndTurn())
    state, _ = act(state, EndTurn())
    state, _ = act(state, Cancel(SW))
    state, _ = act(state, EndTurn())
    assert lives(state) == (30, 28)


def test_case_19_a_shield_reduces_a_permanent_attack():
    state = position(energy=(12, 12), slots=(None, _b_slots((WD, SHIELD, 1))))
    state, _ = spin(state, SW, "permanent_attack", 2, "green")
    state, _ = act(state, Use(-1))
    state, _ = act(state, EndTurn())
    assert RULES.to_act(state) == {B} and state.attack.source == 1
    state, _ = act(state, SpendShield(WD))
    assert lives(state) == (30, 29)


def _two_permanent_attacks(options: dict | None = None):
    """A holds permanent attacks 2 on SW (slot 0) and 5 on BW (slot 1); B holds one shield 4 on WD."""
    a_slots = (Slot("SW", READY, PERMANENT_ATTACK, 2), Slot("BW", READY, PERMANENT_ATTACK, 5), Slot("WD"))
    return RULES.position(("H", "H"), (LOADOUT, LOADOUT), options=options, slots=(a_slots, _b_slots((WD, SHIELD, 4))))


def test_ambiguity_16_the_owner_orders_permanent_attacks_around_a_shield():
    """AMBIGUITY 16: "permanent attacks first (the owner chooses their order)". B's one shield 4
    would swallow SW's 2 if it fired first, as loadout order had it; A fires BW's 5 first instead:
    B shields it (5 - 4 = 1), and SW's 2, the last one queued, fires at once with no shield left."""
    state, _ = act(_two_permanent_attacks(), EndTurn())
    assert state.phase == "order" and RULES.to_act(state) == {A}
    assert RULES.legal_actions(state, A) == (FirePermanent(SW), FirePermanent(BW))
    assert not RULES.is_legal(state, A, FirePermanent(WD))
    state, events = act(state, FirePermanent(BW))
    assert RULES.to_act(state) == {B} and state.attack.origin == BW and state.attack.value == 5
    state, events = act(state, SpendShield(WD))
    assert [e.data["value"] for e in events if e.kind == "attack_declared"] == [2]  # SW, no choice left
    assert lives(state) == (30, 27) and state.active == B  # 1 + 2


def test_ambiguity_16_loadout_order_for_matches_stored_before_the_choice():
    """A match stored before the order was chosen (``permanent_order: "loadout"``) fires them in
    loadout order, so its log replays unchanged: SW's 2 first, and B's shield meets it."""
    state, _ = act(_two_permanent_attacks({"permanent_order": "loadout"}), EndTurn())
    assert RULES.to_act(state) == {B} and state.attack.origin == SW and state.attack.value == 2
    state, _ = act(state, SpendShield(WD))
    assert lives(state) == (30, 25)  # 0, then 5


def test_ambiguity_16_one_queued_permanent_attack_fires_without_asking():
    state, _ = act(_permanent_attack_deferred(), EndTurn())
    assert lives(state) == (30, 28) and state.active == B


def _combos(round_: int, *values: int):
    held = [Slot(w) for w in LOADOUT]
    for j, v in enumerate(values):
        held[j] = Slot(LOADOUT[j], READY, COMBO, v)
    return position(round=round_, slots=(tuple(held), None))


def test_case_20_combos_detonate_as_one_attack():
    state = _combos(2, 3, 4)  # noon
    state, _ = act(state, EndTurn())
    assert state.phase == "combo"
    state, _ = act(state, AddCombo(SW))
    state, _ = act(state, AddCombo(BW))
    assert Detonate(-1) in RULES.legal_actions(state, A)
    state, events = act(state, Detonate(-1))
    assert [e.data["value"] for e in events if e.kind == "combo_detonated"] == [7]
    state, _ = act(state, Target("hero"))
    assert lives(state) == (30, 23)
    assert [s.held for s in state.seats[A].slots] == [NO_EFFECT] * 3  # back in equipment
    assert state.active == B


def test_case_20_combo_bonus():
    state = _combos(3, 3, 4)  # evening: combo_bonus +2
    state, _ = act(state, EndTurn())
    state, _ = act(state, AddCombo(SW))
    state, _ = act(state, AddCombo(BW))
    assert set(a for a in RULES.legal_actions(state, A) if isinstance(a, Detonate)) == {Detonate(-1), Detonate(0)}
    state, events = act(state, Detonate(0))
    assert [e.data["value"] for e in events if e.kind == "combo_detonated"] == [9]


def test_case_20_single_combo_with_the_detonator():
    state = _combos(4, 3)  # night: combo_detonator +1
    state, _ = act(state, EndTurn())
    assert state.phase == "combo"
    state, _ = act(state, AddCombo(SW))
    assert [a for a in RULES.legal_actions(state, A) if isinstance(a, Detonate)] == [Detonate(0)]
    state, events = act(state, Detonate(0))
    assert [e.data["value"] for e in events if e.kind == "combo_detonated"] == [4]


def test_case_20_single_combo_in_the_morning_cannot_be_detonated():
    state = _combos(1, 3)
    state, _ = act(state, EndTurn())
    assert state.active == B and state.phase == MAIN  # no combo step
    assert state.seats[A].slots[SW] == Slot("SW", READY, COMBO, 3)  # stays deferred


def test_case_21_deferred_shield_with_a_flagged_bonus():
    state = position(round=3, energy=(12, 0))  # evening: shield +1 (flag)
    state, _ = spin(state, SW, "shield", 3, "green")
    assert set(RULES.legal_actions(state, A)) == {Use(-1), Use(1), Skip()}
    state, _ = act(state, Use(1))
    assert state.seats[A].slots[SW] == Slot("SW", READY, SHIELD, 4)


def test_case_22_repair():
    broken = (Slot("SW"), Slot("BW", BROKEN), Slot("WD"))
    state = position(energy=(5, 12), slots=(broken, None))
    assert Repair(BW) in RULES.legal_actions(state, A)
    state, events = act(state, Repair(BW))
    assert state.actions == 3 and state.seats[A].energy == 2  # 1 action + 2 + 1 off-type
    assert state.seats[A].slots[BW].status == REPAIRING
    state, _ = act(state, EndTurn())
    assert state.active == B and state.seats[A].slots[BW].status == REPAIRING  # not during B's turn
    assert (fx.T_WEAPON, BW) not in fx.targets(RULES.book, state, fx.ATTACK_WEAPON, 6)
    state, events = act(state, EndTurn())
    assert state.active == A and state.seats[A].slots[BW].status == READY
    assert [e.data["repaired"] for e in events if e.kind == "turn_started"] == [[BW]]
    assert SpinWeapon(BW) in RULES.legal_actions(state, A)


def test_case_23_free_cancel_and_reuse():
    slots = (Slot("SW"), Slot("BW"), Slot("WD", READY, SHIELD, 2))
    state = position(energy=(4, 0), slots=(slots, None))
    assert SpinWeapon(WD) not in RULES.legal_actions(state, A)
    state, _ = act(state, Cancel(WD))
    assert state.actions == 4 and state.seats[A].energy == 4
    state, _ = act(state, SpinWeapon(WD))
    assert state.actions == 3 and state.seats[A].energy == 2  # 1 + 1 off-type


def test_case_24_heal_cap():
    state = position(lives=(29, 30), energy=(12, 0))
    state, _ = spin(state, SW, "heal", 3, "green")
    state, _ = act(state, Use(-1))
    assert lives(state) == (30, 30)


@pytest.mark.parametrize("level", [2, 3])
def test_case_25_one_weapon_per_kind(level):
    state = RULES.initial_state(2, {"level": level})
    assert not RULES.is_legal(state, A, Loadout("H", ("BAMB", "BAMB")))
    assert RULES.is_legal(state, A, Loadout("H", ("BAMB", "YEWB")))
    with pytest.raises(BadAction, match="only once"):
        RULES.validate_deck({"hero": "H", "weapons": ["BAMB", "BAMB"]})
    assert RULES.validate_deck({"hero": "H", "weapons": ["BAMB", "YEWB"]}) == {"hero": "H", "weapons": ["BAMB", "YEWB"]}


@pytest.mark.parametrize("level", [2, 3])
def test_case_26_red_field_with_a_decline(level):
    state = position(level=level, energy=(12, 0))
    state, _ = spin(state, SW, "heal", 2, "red")
    assert Skip() in RULES.legal_actions(state, A)
    state, events = act(state, Skip())
    assert lives(state) == (30, 30)
    assert state.active == B
    assert [e.data["reason"] for e in events if e.kind == "main_phase_ended"] == ["field"]
