"""The Scratch Wars card set (app/games/scratch_wars/cards/*.yaml): its constraints, checked from the
data, and the schema that guards it (rules/scratch_wars.md section 2)."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import pytest
import yaml

from app.games.scratch_wars import ScratchWars
from app.games.scratch_wars.actions import Loadout
from app.games.scratch_wars.data import (
    CARD_SET,
    COST_COLORS,
    DEFERRED,
    EFFECT_INDEX,
    EFFECTS,
    HEROES_FILE,
    WEAPON_TYPES,
    WEAPONS_FILE,
    CardSetError,
    card_strength,
    load_card_set,
    parse_card_set,
    printed_range_problems,
    rarity_check,
)

HEROES = CARD_SET.heroes
WEAPONS = CARD_SET.weapons
SEVERAL = 3


def _raw() -> dict:
    return json.loads(json.dumps(CARD_SET.model_dump(mode="json")))


# ----------------------------------------------------------------------------------------- size, ids


def test_at_least_12_heroes_and_24_weapons():
    assert len(HEROES) >= 12
    assert len(WEAPONS) >= 24


def test_codes_are_unique_4_letter_codes_and_names_are_unique():
    codes = [c.code for c in (*HEROES, *WEAPONS)]
    assert len(set(codes)) == len(codes)
    assert all(len(c) == 4 and c.isalpha() and c.isupper() for c in codes)
    names = [c.name for c in (*HEROES, *WEAPONS)]
    assert len(set(names)) == len(names)


def test_every_card_has_flavour_text():
    assert all(len(c.flavour) >= 20 for c in (*HEROES, *WEAPONS))


def test_our_own_names():
    # The printed cards are not ours to copy; the seed names one weapon ("Bambusový luk") and one
    # hero kind ("naftový rytíř"): neither (nor their English forms) is in our set.
    text = (HEROES_FILE.read_text(encoding="utf-8") + WEAPONS_FILE.read_text(encoding="utf-8")).lower()
    for printed in ("bambus", "bamboo", "naftov", "oil knight", "scratch lord"):
        assert printed not in text


# --------------------------------------------------------------------------------- coverage of terms


def test_every_weapon_type_and_cost_appears_several_times():
    types = Counter(w.type for w in WEAPONS)
    costs = Counter(w.energy_cost for w in WEAPONS)
    assert set(types) == set(WEAPON_TYPES) and min(types.values()) >= SEVERAL
    assert set(costs) == {1, 2, 3} and min(costs.values()) >= SEVERAL
    for t in WEAPON_TYPES:  # each type comes at every cost
        assert {w.energy_cost for w in WEAPONS if w.type == t} == {1, 2, 3}


def test_every_base_effect_appears_on_several_weapons():
    for effect in EFFECTS:
        carrying = [w.code for w in WEAPONS if any(s.effect == effect for s in w.wheel)]
        assert len(carrying) >= SEVERAL, (effect, carrying)


def test_deferred_effects_appear_on_every_type():
    for t in WEAPON_TYPES:
        assert any(EFFECT_INDEX[s.effect] in DEFERRED for w in WEAPONS if w.type == t for s in w.wheel), t


def test_every_field_colour_appears_and_green_dominates():
    fields = Counter(s.field for w in WEAPONS for s in w.wheel)
    assert set(fields) == {"green", "orange", "red"}
    assert fields["green"] > fields["orange"] > 0 and fields["red"] > 0
    for w in WEAPONS:
        assert {s.field for s in w.wheel} == {"green", "orange", "red"}, w.code


def _bonuses():
    return [(h.code, b) for h in HEROES for col in h.times_of_day for b in col.bonuses]


def test_every_bonus_kind_appears_several_times():
    kinds = Counter(b.kind for _h, b in _bonuses())
    for kind in ("effect", "blessing", "combo_bonus", "combo_detonator"):
        assert len({h for h, b in _bonuses() if b.kind == kind}) >= SEVERAL, kind
    assert kinds["effect"] >= 10
    icons = {b.effect for _h, b in _bonuses() if b.kind == "effect"}
    assert icons == set(EFFECTS)  # an icon bonus for every effect


def test_negative_and_flagged_bonuses_appear_several_times():
    negative = [(h, b) for h, b in _bonuses() if b.value < 0]
    assert len({h for h, _b in negative}) >= SEVERAL
    assert len({b.kind for _h, b in negative}) >= 2  # icon penalties and a negative blessing
    flagged = [(h, b) for h, b in _bonuses() if b.flag]
    assert len({h for h, _b in flagged}) >= SEVERAL
    assert all(EFFECT_INDEX[b.effect] in DEFERRED for _h, b in flagged)
    assert any(b.flag and b.value < 0 for _h, b in _bonuses())  # a penalty on a deferred effect


# ----------------------------------------------------------------------------------- printed ranges


def test_wheels_have_9_segments():
    assert CARD_SET.wheel_segments == 9
    assert all(len(w.wheel) == 9 for w in WEAPONS)


def test_stats_inside_the_printed_ranges():
    assert printed_range_problems(CARD_SET) == []
    for h in HEROES:
        assert 18 <= h.lives_duel <= 25
        assert len(h.times_of_day) == 4
        for col in h.times_of_day:
            assert 1 <= col.energy <= 6
            assert len(col.bonuses) <= 2
            assert all(-2 <= b.value <= 5 and b.value != 0 for b in col.bonuses)
    values = [s.value for w in WEAPONS for s in w.wheel]
    assert all(1 <= v <= 6 for v in values)
    assert sum(1 <= v <= 4 for v in values) >= 0.9 * len(values)  # mostly 1-4


def test_durability_rises_with_cost():
    by_cost = {c: [w.durability for w in WEAPONS if w.energy_cost == c] for c in (1, 2, 3)}
    assert all(1 <= d <= 6 for ds in by_cost.values() for d in ds)
    assert max(by_cost[1]) <= min(by_cost[3])
    assert statistics.fmean(by_cost[1]) < statistics.fmean(by_cost[2]) < statistics.fmean(by_cost[3])


def test_cost_colours():
    assert all(w.cost_color == COST_COLORS[w.energy_cost] for w in WEAPONS)
    assert COST_COLORS[3] == "red" and COST_COLORS[2] == "orange"  # as printed (spec section 2.2)


def test_heroes_use_one_or_two_weapon_types():
    assert all(1 <= len(h.weapon_types) <= 2 for h in HEROES)
    assert set().union(*(h.weapon_types for h in HEROES)) == set(WEAPON_TYPES)


def test_suggested_loadouts_are_valid_and_on_type():
    rules = ScratchWars()
    for h in HEROES:
        assert rules.validate_deck({"hero": h.code, "weapons": list(h.starter_weapons)})
        assert len(h.starter_weapons) == 5
        assert all(rules.book.weapons[w].type in h.weapon_types for w in h.starter_weapons), h.code


@pytest.mark.parametrize("level", [2, 3])
def test_suggested_loadouts_carry_each_weapon_name_once_at_level_2_and_up(level):
    """Rule 3.1 at level >= 2: "Kind means the same weapon name, not the weapon type": every
    suggested loadout the loadout phase lists is legal at the level and names no weapon twice, and
    some carry two weapons of one type (the rule does not mean "one axe")."""
    rules = ScratchWars()
    state = rules.initial_state(2, {"level": level})
    suggested = [a for a in rules.legal_actions(state, 0) if isinstance(a, Loadout)]
    assert len(suggested) == len(HEROES)
    for loadout in suggested:
        names = [rules.book.weapons[w].name for w in loadout.weapons]
        assert len(set(names)) == len(names), loadout
        assert rules.is_legal(state, 0, loadout)
    assert any(len({rules.book.weapons[w].type for w in a.weapons}) < len(a.weapons) for a in suggested)  # a type twice
    twice = Loadout(suggested[0].hero, (suggested[0].weapons[0], suggested[0].weapons[0]))
    assert not rules.is_legal(state, 0, twice)


# ------------------------------------------------------------------------------- rarity and strength


def test_rarity_stars_and_averages():
    assert all(1 <= c.rarity_stars <= 4 for c in (*HEROES, *WEAPONS))
    assert {c.rarity_stars for c in (*HEROES, *WEAPONS)} == {1, 2, 3, 4}


def test_hero_kinds_share_an_average_close_to_their_heroes():
    kinds: dict[str, list] = {}
    for h in HEROES:
        kinds.setdefault(h.kind, []).append(h)
    assert all(len(hs) >= 2 for hs in kinds.values())
    for hs in kinds.values():
        assert len({h.average_strength for h in hs}) == 1
        assert abs(hs[0].average_strength - statistics.fmean(card_strength(h) for h in hs)) <= 3


def test_weapon_groups_share_an_average_close_to_their_weapons():
    groups: dict[tuple, list] = {}
    for w in WEAPONS:
        groups.setdefault((w.type, w.energy_cost), []).append(w)
    for ws in groups.values():
        assert len({w.average_strength for w in ws}) == 1
        assert abs(ws[0].average_strength - statistics.fmean(card_strength(w) for w in ws)) <= 3


def test_rarity_check_is_the_rulebook_sum():
    hero = HEROES[0]
    total = sum(c.energy for c in hero.times_of_day) + sum(b.value for c in hero.times_of_day for b in c.bonuses)
    check = rarity_check(hero)
    assert check["strength"] == total
    assert check["average"] == hero.average_strength
    assert check["difference"] == pytest.approx(total - hero.average_strength)
    assert check["rare"] == (total > hero.average_strength)
    weapon = WEAPONS[0]
    assert rarity_check(weapon)["strength"] == sum(s.value for s in weapon.wheel)
    # both outcomes occur in the set
    assert {rarity_check(c)["rare"] for c in (*HEROES, *WEAPONS)} == {True, False}


def test_negative_bonuses_are_subtracted_in_the_rarity_sum():
    hero = next(h for h in HEROES if any(b.value < 0 for c in h.times_of_day for b in c.bonuses))
    positives = sum(c.energy for c in hero.times_of_day) + sum(
        b.value for c in hero.times_of_day for b in c.bonuses if b.value > 0
    )
    assert card_strength(hero) < positives


# ------------------------------------------------------------------------------------------ schema


def test_the_shipped_files_load_strictly():
    assert load_card_set(strict=True) == CARD_SET


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda d: d["weapons"][0]["wheel"].pop(), "segments, not 9"),
        (lambda d: d["heroes"][0]["times_of_day"].pop(), "times_of_day"),
        (lambda d: d["heroes"][0]["times_of_day"][0]["bonuses"].append({"kind": "blessing", "value": 0}), "never 0"),
        (
            lambda d: d["heroes"][0]["times_of_day"][0]["bonuses"].append({"kind": "effect", "value": 1}),
            "names its effect",
        ),
        (
            lambda d: d["heroes"][0]["times_of_day"][0]["bonuses"].append(
                {"kind": "effect", "effect": "combo", "value": 1, "flag": False}
            ),
            "flag true",
        ),
        (
            lambda d: d["heroes"][0]["times_of_day"][0]["bonuses"].append(
                {"kind": "blessing", "effect": "heal", "value": 1}
            ),
            "names no effect",
        ),
        (lambda d: d["weapons"][1].update(code=d["weapons"][0]["code"]), "duplicate codes"),
        (lambda d: d["weapons"][1].update(name=d["weapons"][0]["name"]), "duplicate names"),
        (lambda d: d["weapons"][0].update(cost_color="blue"), "coloured"),
        (lambda d: d["weapons"][0].update(type="spear"), "type"),
        (lambda d: d["weapons"][0]["wheel"][0].update(effect="fireball"), "effect"),
        (lambda d: d["weapons"][0]["wheel"][0].update(field="purple"), "field"),
        (lambda d: d["weapons"][0].update(average_strength=99.0), "average_strength"),
        (lambda d: d["heroes"][0].update(starter_weapons=["ZZZZ"]), "unknown starter weapons"),
        (lambda d: d["heroes"][0].update(weapon_types=["bow", "bow"]), "twice"),
        (lambda d: d["heroes"][0].update(rarity_stars=5), "rarity_stars"),
        (lambda d: d["heroes"][0].update(surprise=True), "surprise"),
    ],
)
def test_schema_refuses_broken_data(mutate, message):
    data = _raw()
    mutate(data)
    with pytest.raises(CardSetError, match=message):
        parse_card_set(data, "test data")


def test_strict_loading_checks_the_printed_ranges(tmp_path: Path):
    data = _raw()
    heroes = {"heroes": data["heroes"]}
    heroes["heroes"][0]["lives_duel"] = 40
    (tmp_path / "heroes.yaml").write_text(yaml.safe_dump(heroes), encoding="utf-8")
    (tmp_path / "weapons.yaml").write_text(
        yaml.safe_dump({"wheel_segments": 9, "weapons": data["weapons"]}), encoding="utf-8"
    )
    with pytest.raises(CardSetError, match="lives_duel 40"):
        load_card_set(tmp_path / "heroes.yaml", tmp_path / "weapons.yaml")
    assert load_card_set(tmp_path / "heroes.yaml", tmp_path / "weapons.yaml", strict=False).heroes[0].lives_duel == 40


def test_unreadable_files_name_the_file(tmp_path: Path):
    bad = tmp_path / "heroes.yaml"
    bad.write_text("heroes: [unclosed", encoding="utf-8")
    with pytest.raises(CardSetError, match=r"heroes\.yaml"):
        load_card_set(bad, WEAPONS_FILE)
    with pytest.raises(CardSetError, match=r"missing\.yaml"):
        load_card_set(tmp_path / "missing.yaml", WEAPONS_FILE)
