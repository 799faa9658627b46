"""Every GOLDEN CASE (1-25) of rules/treasure_beasts.md, with exactly the stated results.

The spec's creatures are synthetic fixtures, so these tests run on a small card set of their own
(:data:`FIXTURES`), on positions built directly (:func:`position`). Seat 0 is the spec's P1,
seat 1 P2, seat 2 P3.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.games.core import CHANCE, Event, IllegalAction
from app.games.treasure_beasts.actions import (
    Activate,
    AltUse,
    Attach,
    Deploy,
    Discard,
    Join,
    Lose,
    Move,
    Pass,
    Pick,
    Reattach,
    Steal,
    Strike,
    Take,
    Target,
)
from app.games.treasure_beasts.data import ZONE_INDEX, parse_card_set
from app.games.treasure_beasts.properties import derive
from app.games.treasure_beasts.rules import TreasureBeasts
from app.games.treasure_beasts.state import (
    DISCARD,
    DRAFT,
    LOSSES,
    MAIN,
    UNLIMITED,
    Config,
    Creature,
    Player,
    State,
)


def _card(
    cid: str,
    strength: int,
    group: str = "bloodthirsty",
    start: str = "center",
    props: tuple[str, ...] = (),
    **extra: Any,
) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.upper(),
        "group": group,
        "strength": strength,
        "start_position": start,
        "properties": list(props),
        "copies": 4,
        **extra,
    }


_DRAW1 = [{"do": "draw", "amount": 1}]

FIXTURES = parse_card_set(
    {
        "cards": [
            *(_card(f"s{n}", n) for n in range(1, 7)),
            _card("fly1", 1, "birds", props=("flight",)),
            _card("jump2", 2, "felines", props=("jump",)),
            _card("stealth1", 1, "felines", props=("stealth",)),
            _card("attent2", 2, props=("attentiveness",)),
            _card("threat4", 4, props=("threat",)),
            _card("thief2", 2, props=("theft",)),
            _card("cc_thief2", 2, props=("theft", "carrying_capacity")),
            _card("aggro5", 5, props=("aggressiveness", "theft")),
            _card("peace3", 3, props=("peacefulness",)),
            _card("pacifist3", 3, "pacifists"),
            _card("pacifist2", 2, "pacifists"),
            _card("intercept3", 3, start="bushes", props=("interception",)),
            _card("slow4", 4, start="start"),
            _card(
                "drawer", 2, personal_abilities=[{"trigger": "activated", "effects": _DRAW1, "text": "tire: draw 1"}]
            ),
            _card(
                "enter2", 2, personal_abilities=[{"trigger": "on_enter", "effects": _DRAW1, "text": "enter: draw 1"}]
            ),
            _card(
                "z_attach",
                1,
                "attachers",
                attach_option={"hosts": "own", "effects": [{"do": "strength", "amount": 2}], "text": "host +2"},
                personal_abilities=[{"trigger": "on_enter", "effects": _DRAW1, "text": "enter: draw 1"}],
            ),
            _card(
                "y_alt",
                1,
                personal_abilities=[{"trigger": "on_enter", "effects": _DRAW1, "text": "enter: draw 1"}],
                alternative_use={
                    "extra_cost": {"treasure": 1},
                    "effects": [{"do": "gain", "amount": 2}],
                    "text": "pay 1: gain 2",
                },
            ),
            _card(
                "feline_lead",
                2,
                "felines",
                group_ability={
                    "required_count": 3,
                    "scope": "own",
                    "effects": [{"do": "strength", "amount": 1, "target": "group"}],
                    "text": "three felines: +1",
                },
            ),
            _card("feline", 2, "felines"),
        ]
    }
)
RULES = TreasureBeasts(FIXTURES)
C, B, S = ZONE_INDEX["center"], ZONE_INDEX["bushes"], ZONE_INDEX["start"]


def position(
    creatures: list[tuple[int, str, int, int]] | tuple[tuple[int, str, int, int], ...] = (),
    *,
    players: int = 3,
    treasuries: tuple[int, ...] | None = None,
    hands: dict[int, tuple[str, ...]] | None = None,
    active: int = 0,
    ap: int = 2,
    deck: tuple[str, ...] = ("s1",) * 12,
    config: Config | None = None,
    center: int = UNLIMITED,
    **creature_fields: dict[int, dict[str, Any]],
) -> State:
    """A main-phase position: creatures ``(uid, card, owner, zone)`` already on the field (not
    fresh, ready), per-uid field changes in ``fields``, hands, treasuries (default 6 each)."""
    hands = hands or {}
    fields = creature_fields.get("fields", {})
    treasuries = treasuries or (6,) * players
    made = tuple(
        Creature(uid, card, owner, zone, fresh=False, **fields.get(uid, {})) for uid, card, owner, zone in creatures
    )
    return State(
        config or Config(),
        players,
        MAIN,
        tuple(Player(treasuries[s], hands.get(s, ("s1",))) for s in range(players)),
        creatures=made,
        deck=deck,
        center=center,
        active=active,
        ap=ap,
        turn=1,
        next_uid=max((c.uid for c in made), default=0) + 1,
    )


def act(state: State, *actions: Any) -> tuple[State, list[Event]]:
    """Apply ``actions`` in turn, each by the one seat to act; each must be listed as legal."""
    events: list[Event] = []
    for action in actions:
        (seat,) = RULES.to_act(state)
        assert action in RULES.legal_actions(state, seat), (action, RULES.legal_actions(state, seat))
        assert RULES.is_legal(state, seat, action)
        state, new = RULES.apply(state, {seat: action})
        events.extend(new)
    return state, events


def legal(state: State) -> list[Any]:
    (seat,) = RULES.to_act(state)
    return list(RULES.legal_actions(state, seat))


def uids(state: State) -> set[int]:
    return {c.uid for c in state.creatures}


def strength(state: State, uid: int) -> int:
    return derive(FIXTURES, state)[uid].strength


# -------------------------------------------------------------------------------- combat 1-6


def test_case_01_multi_attack_seed_example():
    state = position([(1, "s3", 0, C), (2, "s3", 0, C), (9, "s5", 1, C)])
    state, _ = act(state, Target(9), Join(1), Join(2), Strike())
    assert state.phase == LOSSES and RULES.to_act(state) == {1}
    assert sorted(RULES.legal_actions(state, 1), key=lambda a: a.creature) == [Lose(1), Lose(2)]
    state, events = act(state, Lose(1))
    assert state.phase == MAIN and state.active == 0
    assert uids(state) == {2}, "X and the chosen attacker are destroyed"
    assert state.creature(2).ready is False
    assert sorted(state.discard) == ["s3", "s5"]
    strike = next(e for e in events if e.kind == "attack_resolved")
    assert strike.data["attackers_lost"] == [1] and strike.data["target_destroyed"] is True


def test_case_02_attacker_stronger():
    state, _ = act(position([(1, "s4", 0, C), (9, "s3", 1, C)]), Target(9), Join(1), Strike())
    assert uids(state) == {1} and state.creature(1).ready is False


def test_case_03_attacker_weaker():
    state, _ = act(position([(1, "s3", 0, C), (9, "s4", 1, C)]), Target(9), Join(1), Strike())
    assert uids(state) == {9} and state.creature(9).ready is True


def test_case_04_tie_both_destroyed():
    state, _ = act(position([(1, "s3", 0, C), (9, "s3", 1, C)]), Target(9), Join(1), Strike())
    assert uids(state) == set()


def test_case_05_group_too_weak():
    state, _ = act(position([(1, "s2", 0, C), (2, "s2", 0, C), (9, "s5", 1, C)]), Target(9), Join(1), Join(2), Strike())
    assert state.phase == MAIN, "both losses are forced: P2 is not asked"
    assert uids(state) == {9}


def test_case_06_exact_sum():
    state, _ = act(position([(1, "s3", 0, C), (2, "s3", 0, C), (9, "s6", 1, C)]), Target(9), Join(1), Join(2), Strike())
    assert uids(state) == set()


# -------------------------------------------------------------------------------- draft, draws


def test_case_07_draft_with_three_players():
    import random

    from app.games.treasure_beasts import RULES as SHIPPED

    state = SHIPPED.initial_state(3, {})
    assert SHIPPED.to_act(state) == {CHANCE}
    state, _ = SHIPPED.apply(state, {CHANCE: SHIPPED.sample_chance(state, random.Random(5))})
    assert state.phase == DRAFT and [len(p.pack) for p in state.players] == [6, 6, 6]
    packs0 = [p.pack for p in state.players]
    for round_ in range(6):
        assert SHIPPED.to_act(state) == {0, 1, 2}
        picks = {s: SHIPPED.legal_actions(state, s)[0] for s in range(3)}
        assert all(isinstance(p, Pick) for p in picks.values())
        before = [p.pack for p in state.players]
        state, _ = SHIPPED.apply(state, picks)
        if round_ == 0:
            for s in range(3):  # the rest of seat s's pack went to the seat on its left
                rest = list(packs0[s])
                rest.remove(picks[s].card)
                assert sorted(state.players[(s + 1) % 3].pack) == sorted(rest)
                assert len(before[s]) == 6 and len(state.players[s].pack) == 5
    assert state.phase == MAIN and state.active == 0 and state.turn == 1
    assert state.ap == 2
    assert [len(p.hand) for p in state.players] == [7, 6, 6]


def test_case_08_draw_two_on_empty_hand():
    state = position(hands={0: (), 1: ("s1",)}, active=2)
    state, _ = act(state, Pass())
    assert state.active == 0 and len(state.players[0].hand) == 2
    state = position(hands={0: ("s2",)}, active=2)
    state, _ = act(state, Pass())
    assert len(state.players[0].hand) == 2, "one card in hand: draw 1"


def test_case_09_hand_limit():
    hand = ("s1", "s2", "s3", "s4", "s5", "s6", "s1", "s2")
    state = position(hands={0: hand})
    state, _ = act(state, Pass())
    assert state.phase == DISCARD and RULES.to_act(state) == {0}
    state, _ = act(state, Discard("s6"))
    assert state.phase == DISCARD
    state, _ = act(state, Discard("s1"))
    assert state.active == 1 and len(state.players[0].hand) == 6
    assert state.discard == ("s6", "s1")


# -------------------------------------------------------------------------------- turns, zones


def test_case_10_ap_and_the_end_of_the_turn():
    state = position(hands={0: ("s2", "enter2")})
    state, _ = act(state, Deploy("s2"))
    c = next(c for c in state.creatures if c.card == "s2")
    assert state.ap == 1 and c.zone == C
    state, _ = act(state, Take(c.uid))
    assert state.players[0].treasury == 7 and state.creature(c.uid).ready is True
    state, events = act(state, Deploy("enter2"))
    kinds = [e.kind for e in events]
    assert kinds.index("ability") < kinds.index("turn_ended"), "D's on-enter resolves, then the turn ends"
    assert state.active == 1


def test_case_11_deploy_zone_and_movement():
    state = position([(9, "s1", 1, S)], hands={0: ("slow4", "s1")}, players=2)
    state, _ = act(state, Deploy("slow4"))
    e = next(c for c in state.creatures if c.card == "slow4").uid
    assert state.creature(e).zone == S
    assert not [a for a in legal(state) if getattr(a, "creature", None) == e]
    state, _ = act(state, Pass(), Pass())  # P2 passes too: E's owner's next turn
    assert Move(e, B) in legal(state)
    state, _ = act(state, Move(e, B))
    assert Take(e) not in legal(state) and not [a for a in legal(state) if isinstance(a, Target)]
    state, _ = act(state, Pass(), Pass())
    state, _ = act(state, Move(e, C))
    assert Take(e) in legal(state)


def test_case_12_interception():
    state = position([(9, "s2", 1, S)], hands={0: ("intercept3",)})
    state, _ = act(state, Deploy("intercept3"))
    f = next(c for c in state.creatures if c.card == "intercept3")
    assert f.zone == B
    state, _ = act(state, Target(9), Join(f.uid), Strike())
    assert uids(state) == {f.uid} and state.creature(f.uid).ready is False


def test_case_13_flight_and_jump():
    state = position([(1, "s5", 0, C), (2, "jump2", 0, C), (9, "fly1", 1, C)])
    assert Target(9) in legal(state)
    state2, _ = act(state, Target(9))
    assert Join(1) not in legal(state2), "H without Flight or Jump cannot attack the flyer"
    state2, _ = act(state2, Join(2), Strike())
    assert 9 not in uids(state2) and 2 in uids(state2)
    only_h = position([(1, "s5", 0, C), (9, "fly1", 1, C)])
    assert Target(9) not in legal(only_h)
    flyer = position([(1, "fly1", 0, C), (9, "s1", 1, C)])
    flyer, _ = act(flyer, Target(9), Join(1), Strike())
    assert uids(flyer) == set()


def test_case_14_stealth_and_attentiveness():
    state = position([(1, "s5", 0, C), (9, "stealth1", 1, C)])
    assert Target(9) not in legal(state)
    state = position([(1, "s5", 0, C), (2, "attent2", 0, C), (9, "stealth1", 1, C)])
    state, _ = act(state, Target(9))
    assert legal(state) == [Join(2)]


def test_case_15_threat_is_owner_scoped():
    field = [(1, "thief2", 0, C), (2, "s5", 0, C), (8, "threat4", 1, C), (9, "s1", 1, C), (7, "s1", 2, C)]
    state = position(field)
    targets = {a.creature for a in legal(state) if isinstance(a, Target)}
    assert targets == {8, 7}, "only T among P2's creatures; P3's are open"
    steals = {a.victim for a in legal(state) if isinstance(a, Steal)}
    assert steals == {2} and Take(1) in legal(state)
    tired = position(field, fields={8: {"ready": False}})
    assert Target(9) in legal(tired)
    two = position([*field, (6, "threat4", 1, C)])
    assert {a.creature for a in legal(two) if isinstance(a, Target)} == {8, 6, 7}


# -------------------------------------------------------------------------------- treasure


def test_case_16_carrying_capacity_and_pacifists():
    state, _ = act(position([(1, "pacifist3", 0, C)]), Take(1))
    assert state.players[0].treasury == 9
    state, _ = act(position([(1, "pacifist3", 0, C)], center=2), Take(1))
    assert state.players[0].treasury == 8 and state.center == 0
    state, _ = act(position([(1, "s3", 0, C)]), Take(1))
    assert state.players[0].treasury == 7


def test_case_17_theft():
    state, _ = act(position([(1, "thief2", 0, C)], treasuries=(6, 4, 6)), Steal(1, 1))
    assert state.players[1].treasury == 3 and state.players[0].treasury == 7
    assert state.creature(1).ready is False
    state, _ = act(position([(1, "cc_thief2", 0, C)], treasuries=(6, 4, 6)), Steal(1, 1))
    assert state.players[1].treasury == 2 and state.players[0].treasury == 8


def test_case_18_aggressiveness_and_peacefulness():
    state = position([(1, "aggro5", 0, C), (9, "s1", 1, C)])
    assert not [a for a in legal(state) if isinstance(a, Take | Steal)]
    state = position([(1, "peace3", 0, C), (9, "s1", 1, C)])
    assert Target(9) not in legal(state)
    state = position([(1, "s2", 0, C), (9, "peace3", 1, C)])
    state, _ = act(state, Target(9), Join(1), Strike())
    assert uids(state) == {9}


def test_case_19_activated_ability():
    state = position([(1, "drawer", 0, C), (9, "s1", 1, C)], hands={0: ()})
    state, _ = act(state, Target(9), Join(1), Strike())
    assert state.creature(1).ready is False and Activate(1) not in legal(state)
    state = position([(1, "drawer", 0, C)], hands={0: ()})
    state, events = act(state, Activate(1))
    assert state.creature(1).ready is False and state.players[0].hand == ("s1",) and state.ap == 2
    assert any(e.kind == "drew" for e in events)


def test_case_20_zero_treasures_then_recovery():
    field = [(1, "thief2", 1, C), (2, "s1", 0, C)]
    state = position(field, players=2, treasuries=(1, 6), active=1)
    state, _ = act(state, Steal(1, 0))
    assert state.players[0].treasury == 0
    state, _ = act(state, Pass())
    assert state.active == 0 and not state.players[0].eliminated
    recovered, _ = act(state, Take(2), Pass())
    assert recovered.players[0].treasury == 1 and not recovered.players[0].eliminated
    assert recovered.outcome is None
    out, _ = act(state, Pass())
    assert out.players[0].eliminated and out.outcome is not None


def test_case_21_win_at_twelve():
    state = position([(1, "pacifist2", 0, C)], treasuries=(11, 6, 6))
    state, _ = act(state, Take(1))
    assert state.players[0].treasury == 13
    assert state.outcome is not None and state.outcome.winners == (0,) and state.outcome.reason == "treasure"
    assert RULES.to_act(state) == frozenset()


def test_case_22_last_player_standing():
    state = position(players=2, treasuries=(3, 0), active=1)
    state, _ = act(state, Pass())
    assert state.players[1].eliminated
    assert state.outcome.results == ("win", "loss") and state.outcome.reason == "last_standing"


# -------------------------------------------------------------------------------- cards


def test_case_23_attach_and_reattach():
    state = position([(1, "s3", 0, C), (2, "s2", 0, C), (9, "s6", 1, C)], hands={0: ("z_attach", "s1")})
    state, events = act(state, Attach("z_attach", 1))
    z = next(c for c in state.creatures if c.card == "z_attach")
    assert state.ap == 1 and z.host == 1 and strength(state, 1) == 5
    assert any(e.kind == "ability" and e.data["card"] == "z_attach" for e in events)
    assert not [a for a in legal(state) if isinstance(a, Reattach)], "not on the turn it was attached"
    state, _ = act(state, Pass(), Pass(), Pass())
    assert state.active == 0
    ap = state.ap
    state, _ = act(state, Reattach(z.uid, 2))
    assert state.ap == ap and state.creature(z.uid).host == 2 and strength(state, 2) == 4 and strength(state, 1) == 3
    assert not [a for a in legal(state) if isinstance(a, Reattach)], "once a turn"
    state, _ = act(state, Target(9), Join(2), Strike())  # B (4 with Z) dies to X(6); Z goes with it
    assert 2 not in uids(state) and z.uid not in uids(state) and "z_attach" in state.discard


def test_case_24_alternative_use():
    state = position(hands={0: ("y_alt", "s1")})
    state, events = act(state, AltUse("y_alt"))
    assert state.ap == 1 and state.players[0].treasury == 6 - 1 + 2
    assert state.discard == ("y_alt",) and not state.creatures
    assert not any(e.kind == "drew" for e in events), "Y's on-enter does not trigger"


def test_case_25_group_ability_threshold():
    two = position([(1, "feline_lead", 0, C), (2, "feline", 0, C), (9, "feline", 1, C)])
    assert strength(two, 1) == 2 and strength(two, 2) == 2
    three = position([(1, "feline_lead", 0, C), (2, "feline", 0, C), (3, "feline", 0, B), (9, "feline", 1, C)])
    assert [strength(three, u) for u in (1, 2, 3)] == [3, 3, 3]
    assert strength(three, 9) == 2, "scope own: P2's felines unchanged"


def test_illegal_action_is_refused():
    state = position([(1, "s1", 0, S)])
    with pytest.raises(IllegalAction):
        RULES.apply(state, {0: Take(1)})
    with pytest.raises(IllegalAction):
        RULES.apply(state, {0: Move(1, C)})
