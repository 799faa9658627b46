"""The GOLDEN CASES of ``rules/fantasy_duel.md``, one test (or a few) per case, named after it.

Dice are injected as the chance actions; P1 is seat 0 (the attacker's owner), P2 seat 1.
"""

from __future__ import annotations

from app.games.core import CHANCE
from app.games.fantasy_duel.actions import Attacker, Back, Defer, Dice, Draw, Imprison, Recruit, Target
from app.games.fantasy_duel.combat import DICE, resolve
from app.games.fantasy_duel.positions import begin_turn, card_of, position
from app.games.fantasy_duel.rules import FantasyDuel
from app.games.fantasy_duel.state import ATTACKER, MUSTER, OVER, REPLACE, SPOILS, TOPUP
from app.games.fantasy_duel.targeting import attack_matchup, targets

RULES = FantasyDuel()
DECK = ["kostlivec", "zombie", "sermiar", "hrdlorez", "jazdec", "duch"]


def units(state, seat):
    return [RULES.observe(state, None)["armies"][seat][i]["unit"] for i in range(len(state.armies[seat]))]


def prison_units(state, seat):
    return RULES.observe(state, None)["prisons"][seat]


def attack(state, attacker, target, dice, seat=0, target_seat=1):
    """Declare ``attacker`` (unit id of ``seat``) against ``target`` (unit id of ``target_seat``),
    roll ``dice``; returns the state and every event."""
    a, t = card_of(state, seat, attacker), card_of(state, target_seat, target)
    events = []
    for who, action in ((seat, Attacker(a)), (seat, Target(t)), (CHANCE, Dice(tuple(dice)))):
        assert RULES.to_act(state) == {who}
        state, evs = RULES.apply(state, {who: action})
        events.extend(evs)
    return state, events


def resolved(events):
    return next(e.data for e in events if e.kind == "attack_resolved")


def test_case_01_knight_attack_range():
    state = position([["rytier"], ["zombie"]])
    m = attack_matchup(state, card_of(state, 0, "rytier"), card_of(state, 1, "zombie"))
    assert m.dice == 3
    totals = [resolve(m, s, low).total for s, low, _ways in DICE[m.dice]]
    assert (min(totals), max(totals)) == (9, 24)
    assert resolve(m, 3, 1).total == 9 and resolve(m, 18, 6).total == 24


def test_case_02_seed_worked_example():
    state = position([["carodejnica", "rytier", "sedliak"], ["kostej", "zombie", "duch"]], deck=DECK)
    m = attack_matchup(state, card_of(state, 0, "carodejnica"), card_of(state, 1, "kostej"))
    assert m.dice == 5 and not m.can_hide and not m.fire
    state, events = attack(state, "carodejnica", "kostej", (6, 5, 4, 3, 3))
    r = resolved(events)
    assert (r["total"], r["defence"], r["result"], r["margin"]) == (22, 18, "defeated", 4)
    assert prison_units(state, 0) == ["kostej"]
    assert units(state, 1) == ["zombie", "duch", DECK[0]]
    assert len(state.deck) == len(DECK) - 1
    assert state.phase == ATTACKER and RULES.to_act(state) == {1}


def test_case_03_hiding_odd_sum_captures():
    state = position([["prekliaty_luk", "zombie", "kostlivec"], ["zlodejka", "sedliak", "rytier"]], deck=DECK)
    state, events = attack(state, "prekliaty_luk", "zlodejka", (4, 3))
    r = resolved(events)
    assert (r["total"], r["result"], r["margin"]) == (12, "defeated", 5)
    assert prison_units(state, 0) == ["zlodejka"]
    assert len(state.armies[1]) == 3 and len(state.deck) == len(DECK) - 1


def test_case_03_hiding_even_sum_hides():
    state = position([["prekliaty_luk", "zombie", "kostlivec"], ["zlodejka", "sedliak", "rytier"]], deck=DECK)
    state, events = attack(state, "prekliaty_luk", "zlodejka", (4, 2))
    r = resolved(events)
    assert (r["total"], r["result"]) == (11, "hidden")
    assert state.prisons == ((), ()) and len(state.deck) == len(DECK)
    assert units(state, 0) == ["prekliaty_luk", "zombie", "kostlivec"]


def test_case_03_hiding_tie():
    state = position([["prekliaty_luk", "zombie", "kostlivec"], ["zlodejka", "sedliak", "rytier"]], deck=DECK)
    state, events = attack(state, "prekliaty_luk", "zlodejka", (1, 1))
    assert resolved(events)["result"] == "tie" and resolved(events)["total"] == 7
    assert state.prisons == ((), ())


def test_case_04_tracking_stops_hiding():
    state = position([["prekliaty_luk", "stoparka", "kostlivec"], ["zlodejka", "sedliak", "rytier"]], deck=DECK)
    state, events = attack(state, "prekliaty_luk", "zlodejka", (4, 2))
    r = resolved(events)
    assert (r["result"], r["margin"]) == ("defeated", 4)
    assert prison_units(state, 0) == ["zlodejka"]


def test_case_05_bonuses_add_up():
    state = position([["duch", "zombie", "kostlivec"], ["rytier", "sedliak", "sermiar"]], deck=DECK)
    after, events = attack(state, "duch", "rytier", (1, 1))
    r = resolved(events)
    assert (r["total"], r["margin"], r["result"]) == (17, 3, "defeated")
    assert prison_units(after, 0) == ["rytier"] and after.phase == ATTACKER


def test_case_05_margin_over_ten_imprison_or_recruit():
    state = position([["duch", "zombie", "kostlivec"], ["rytier", "sedliak", "sermiar"]], deck=DECK)
    spoils, events = attack(state, "duch", "rytier", (5, 5))
    assert resolved(events)["total"] == 25 and resolved(events)["margin"] == 11
    assert spoils.phase == SPOILS and RULES.to_act(spoils) == {0}
    legal = RULES.legal_actions(spoils, 0)
    assert Imprison() in legal and len(legal) == 4
    jailed, _ = RULES.apply(spoils, {0: Imprison()})
    assert prison_units(jailed, 0) == ["rytier"] and units(jailed, 0) == ["duch", "zombie", "kostlivec"]
    zombie = card_of(spoils, 0, "zombie")
    recruited, _ = RULES.apply(spoils, {0: Recruit(zombie)})
    assert units(recruited, 0) == ["duch", "rytier", "kostlivec"]
    assert prison_units(recruited, 0) == ["zombie"]
    for after in (jailed, recruited):
        assert len(after.armies[1]) == 3 and len(after.deck) == len(DECK) - 1  # P2 draws 1, P1 nothing


def test_case_06_tie_nothing_happens():
    state = position([["sedliak", "rytier", "sermiar"], ["zombie", "kostlivec", "duch"]], deck=DECK)
    after, events = attack(state, "sedliak", "zombie", (1, 2))
    assert resolved(events)["result"] == "tie" and resolved(events)["total"] == 4
    assert after.armies == state.armies and after.deck == state.deck and after.prisons == state.prisons
    assert not [e for e in events if e.kind == "drew"]


def test_case_07_defender_wins_with_recruit_option():
    state = position([["sedliak", "rytier", "sermiar"], ["bandita", "zombie", "duch"]], deck=DECK)
    spoils, events = attack(state, "sedliak", "bandita", (1, 1))
    r = resolved(events)
    assert (r["total"], r["result"], r["margin"]) == (3, "repelled", 15)
    assert spoils.phase == SPOILS and RULES.to_act(spoils) == {1}
    jailed, _ = RULES.apply(spoils, {1: Imprison()})
    assert prison_units(jailed, 1) == ["sedliak"]
    zombie = card_of(spoils, 1, "zombie")
    recruited, _ = RULES.apply(spoils, {1: Recruit(zombie)})
    assert units(recruited, 1) == ["bandita", "sedliak", "duch"] and prison_units(recruited, 1) == ["zombie"]
    for after in (jailed, recruited):
        assert units(after, 0) == ["rytier", "sermiar", DECK[0]]  # P1 draws 1


def test_case_08_poison_succeeds_and_wears_off():
    state = position([["vrahyna", "zombie", "kostlivec"], ["rytier", "sedliak", "sermiar"]], deck=DECK)
    after, events = attack(state, "vrahyna", "rytier", (1, 2, 2, 2, 3))
    assert resolved(events)["result"] == "poisoned" and resolved(events)["total"] == 10
    rytier = card_of(after, 1, "rytier")
    assert rytier in after.poisoned
    assert after.armies == state.armies and after.deck == state.deck  # Vrahyňa stays, nobody draws
    assert RULES.to_act(after) == {1}
    assert Attacker(rytier) not in RULES.legal_actions(after, 1)
    assert RULES.observe(after, None)["armies"][1][0]["poisoned"] is True
    # P2's turn ends (a tie): Rytier is upright again.
    sedliak, zombie = card_of(after, 1, "sedliak"), card_of(after, 0, "zombie")
    for who, action in ((1, Attacker(sedliak)), (1, Target(zombie)), (CHANCE, Dice((1, 2)))):
        after, _ = RULES.apply(after, {who: action})
    assert rytier not in after.poisoned and RULES.to_act(after) == {0}


def test_case_08_poison_tie_does_nothing():
    state = position([["vrahyna", "zombie", "kostlivec"], ["rytier", "sedliak", "sermiar"]], deck=DECK)
    after, events = attack(state, "vrahyna", "rytier", (2, 3, 3, 3, 3))
    assert resolved(events)["result"] == "tie" and not after.poisoned


def test_case_09_poison_does_not_work_on_undead():
    state = position([["vrahyna", "rytier", "sedliak"], ["kostlivec", "zombie", "duch"]], deck=DECK)
    after, events = attack(state, "vrahyna", "kostlivec", (1, 1, 1, 1, 1))
    r = resolved(events)
    assert (r["result"], r["margin"]) == ("repelled", 4)
    assert prison_units(after, 1) == ["vrahyna"] and units(after, 0) == ["rytier", "sedliak", DECK[0]]


def test_case_10_healer_blocks_poison():
    state = position([["vrahyna", "zombie", "kostlivec"], ["rytier", "bylinkar", "sermiar"]], deck=DECK)
    after, events = attack(state, "vrahyna", "rytier", (1, 2, 2, 2, 3))
    r = resolved(events)
    assert (r["result"], r["margin"]) == ("repelled", 4)
    assert prison_units(after, 1) == ["vrahyna"] and not after.poisoned and len(after.armies[0]) == 3


def _target_units(state, seat=0):
    return sorted(
        RULES.observe(state, None)["armies"][1][state.armies[1].index(c)]["unit"]
        for c in targets(state, seat, state.armies[seat][0])
    )


def test_case_11_taunt_and_tactics():
    p2 = ["bandita", "rytier", "sedliak"]
    assert _target_units(position([["kostlivec", "zombie", "duch"], p2])) == ["bandita"]
    for leader in ("vodca", "slachtic"):
        assert _target_units(position([["kostlivec", leader, "duch"], p2])) == ["bandita", "rytier", "sedliak"]
    poisoned = position([["kostlivec", "zombie", "duch"], p2], poisoned=[(1, "bandita")])
    assert _target_units(poisoned) == ["bandita", "rytier", "sedliak"]


def test_case_11_taunt_in_legal_actions():
    state = position([["kostlivec", "zombie", "duch"], ["bandita", "rytier", "sedliak"]])
    state, _ = RULES.apply(state, {0: Attacker(card_of(state, 0, "kostlivec"))})
    assert RULES.legal_actions(state, 0) == [Target(card_of(state, 1, "bandita")), Back()]


def test_case_12_taunt_is_global_with_three_players():
    state = position(
        [["kostlivec", "zombie", "duch"], ["rytier_smrti", "rytier", "sedliak"], ["sermiar", "jazdec", "hrdlorez"]]
    )
    assert targets(state, 0, card_of(state, 0, "kostlivec")) == [card_of(state, 1, "rytier_smrti")]


def test_case_13_defensive_fire():
    p1, p2 = ["rytier", "zombie", "kostlivec"], ["lukostrelec", "sedliak", "sermiar"]
    after, events = attack(position([p1, p2], deck=DECK), "rytier", "lukostrelec", (2, 5, 6))
    r = resolved(events)
    assert (r["total"], r["defence"], r["margin"], r["result"]) == (19, 11, 8, "defeated")
    assert prison_units(after, 0) == ["lukostrelec"]
    after, events = attack(position([p1, p2], deck=DECK), "rytier", "lukostrelec", (1, 1, 1))
    r = resolved(events)
    assert (r["total"], r["defence"], r["result"], r["margin"]) == (9, 10, "repelled", 1)
    assert prison_units(after, 1) == ["rytier"]
    sick = position([p1, p2], deck=DECK, poisoned=[(1, "lukostrelec")])
    after, events = attack(sick, "rytier", "lukostrelec", (1, 1, 1))
    assert (resolved(events)["defence"], resolved(events)["result"]) == (9, "tie")


def test_case_14_ally_support():
    def dice(army):
        state = position([army, ["zombie"]])
        return attack_matchup(state, card_of(state, 0, "halapartnik"), card_of(state, 1, "zombie")).dice

    assert dice(["halapartnik", "rytier", "sedliak"]) == 4
    assert dice(["halapartnik", "sedliak", "zlodejka"]) == 3
    assert dice(["halapartnik"]) == 2
    state = position([["halapartnik", "rytier", "sedliak"], ["zombie"]])
    m = attack_matchup(state, card_of(state, 0, "halapartnik"), card_of(state, 1, "zombie"))
    totals = [resolve(m, s, low).total for s, low, _ways in DICE[m.dice]]
    assert (min(totals), max(totals)) == (14, 34)


def test_case_15_paladin_defends_against_undead():
    p1, p2 = ["kostlivec", "zombie", "duch"], ["paladin", "sedliak", "sermiar"]
    state = position([p1, p2], deck=DECK)
    assert attack_matchup(state, card_of(state, 0, "kostlivec"), card_of(state, 1, "paladin")).defence == 16
    _, events = attack(state, "kostlivec", "paladin", (5, 5))
    assert (resolved(events)["total"], resolved(events)["result"]) == (16, "tie")
    after, events = attack(state, "kostlivec", "paladin", (6, 5))
    assert (resolved(events)["result"], resolved(events)["margin"]) == ("defeated", 1)
    assert prison_units(after, 0) == ["paladin"]


def test_case_15_paladin_attacks_undead():
    state = position([["paladin", "sedliak", "sermiar"], ["zombie", "kostlivec", "duch"]], deck=DECK)
    after, events = attack(state, "paladin", "zombie", (1, 1, 1))
    assert (resolved(events)["total"], resolved(events)["margin"]) == (13, 9)
    assert after.phase == ATTACKER and prison_units(after, 0) == ["zombie"]
    after, events = attack(state, "paladin", "zombie", (1, 1, 3))
    assert (resolved(events)["total"], resolved(events)["margin"]) == (15, 11)
    assert after.phase == SPOILS and RULES.to_act(after) == {0}


def test_case_16_kostej_doom():
    p1 = ["kostej", "zombie", "duch"]
    state = position([p1, ["zalesak", "sedliak", "sermiar"]], deck=DECK)
    _, events = attack(state, "kostej", "zalesak", (2, 4))
    assert resolved(events)["result"] == "hidden"
    after, events = attack(state, "kostej", "zalesak", (2, 3))
    r = resolved(events)
    assert (r["result"], r["total"], r["margin"], r["doom"]) == ("defeated", 10, 2, True)
    assert after.phase == SPOILS and after.spoils is not None and after.spoils.winner == 0
    state = position([p1, ["obrnenec", "sedliak", "sermiar"]], deck=DECK)
    after, events = attack(state, "kostej", "obrnenec", (1, 2))
    assert resolved(events)["result"] == "defeated" and after.phase == SPOILS
    state = position([p1, ["zombie", "sedliak", "sermiar"]], deck=DECK)
    after, events = attack(state, "kostej", "zombie", (1, 1))
    r = resolved(events)
    assert (r["total"], r["margin"], r["doom"]) == (7, 3, False)
    assert after.phase == ATTACKER and prison_units(after, 0) == ["zombie"]


def test_case_17_spear_against_horse():
    state = position([["kopijnik", "sedliak", "sermiar"], ["jazdec", "zombie", "duch"]], deck=DECK)
    after, events = attack(state, "kopijnik", "jazdec", (3, 3))
    r = resolved(events)
    assert (r["total"], r["result"], r["margin"]) == (13, "defeated", 1)
    assert prison_units(after, 0) == ["jazdec"]


def test_case_18_tactics_defers_and_draws_before_attacking():
    state = position([["rytier", "sedliak", "sermiar"], ["vodca", "zombie", "duch"]], deck=DECK)
    after, _ = attack(state, "rytier", "zombie", (1, 1, 1))
    assert after.phase == REPLACE and RULES.to_act(after) == {1}
    assert RULES.legal_actions(after, 1) == (Draw(), Defer())
    after, events = RULES.apply(after, {1: Defer()})
    assert [e.data for e in events if e.kind == "deferred"] == [{"seat": 1, "reason": "replace"}]
    assert units(after, 1) == ["vodca", "duch"] and len(after.deck) == len(DECK)
    assert after.phase == MUSTER and RULES.to_act(after) == {1}
    after, _ = RULES.apply(after, {1: Draw()})
    assert units(after, 1) == ["vodca", "duch", DECK[0]] and after.phase == ATTACKER


def test_case_18_tactics_may_stay_short_until_the_top_up():
    state = position([["rytier", "sedliak", "sermiar"], ["vodca", "zombie", "duch"]], deck=DECK)
    after, _ = attack(state, "rytier", "zombie", (1, 1, 1))
    after, _ = RULES.apply(after, {1: Defer()})
    after, _ = RULES.apply(after, {1: Defer()})  # attack with two units
    assert after.phase == ATTACKER and len(after.armies[1]) == 2
    duch, rytier = card_of(after, 1, "duch"), card_of(after, 0, "sedliak")
    for who, action in ((1, Attacker(duch)), (1, Target(rytier)), (CHANCE, Dice((1, 1)))):
        after, _ = RULES.apply(after, {who: action})
    # The round ends: the top-up asks the Tactics player.
    assert after.phase == TOPUP and RULES.to_act(after) == {1}
    after, _ = RULES.apply(after, {1: Draw()})
    assert len(after.armies[1]) == 3 and after.phase == ATTACKER and RULES.to_act(after) == {0}


def test_case_18_losing_tactics_draws_every_owed_card():
    state = position([["rytier", "sedliak", "sermiar"], ["vodca", "zombie", "duch"]], deck=DECK)
    after, _ = attack(state, "rytier", "zombie", (1, 1, 1))
    after, _ = RULES.apply(after, {1: Defer()})
    after, _ = RULES.apply(after, {1: Defer()})
    # P2 attacks with Vodca and loses it: every owed card is drawn at once.
    vodca, sermiar = card_of(after, 1, "vodca"), card_of(after, 0, "sermiar")
    for who, action in ((1, Attacker(vodca)), (1, Target(sermiar)), (CHANCE, Dice((1, 1, 1, 1)))):
        after, events = RULES.apply(after, {who: action})
    assert prison_units(after, 0) == ["zombie", "vodca"]
    assert units(after, 1) == ["duch", DECK[0], DECK[1]]
    assert [e.data["reason"] for e in events if e.kind == "drew"] == ["tactics_lost", "tactics_lost"]


def test_case_19_end_scoring_draw():
    state = position(
        [["rytier", "sermiar"], ["sedliak"]],
        deck=[],
        active=1,
        prisons=[
            ["zombie", "duch", "vila", "gul"],
            ["kostej", "lovec", "pytliak", "vila", "gul", "bandita", "hrdlorez"],
        ],
    )
    after, events = attack(state, "sedliak", "sermiar", (1, 1), seat=1, target_seat=0)
    assert resolved(events)["result"] == "repelled"
    assert after.phase == OVER and RULES.to_act(after) == frozenset()
    outcome = RULES.outcome(after)
    assert outcome is not None
    assert outcome.scores == (7.0, 7.0) and outcome.results == ("draw", "draw") and outcome.ranks == (1, 1)
    assert outcome.reason == "last_army"


def test_case_20_no_legal_attack_passes_and_recovers():
    state = position(
        [["rytier", "sedliak", "sermiar"], ["zombie", "kostlivec", "duch"]],
        deck=DECK,
        poisoned=[(0, "rytier"), (0, "sedliak"), (0, "sermiar")],
    )
    after, events = begin_turn(state, 0)
    assert {"seat": 0, "reason": "no_attack"} in [e.data for e in events if e.kind == "turn_skipped"]
    assert not after.poisoned
    assert after.phase == ATTACKER and RULES.to_act(after) == {1}
