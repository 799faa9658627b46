"""Treasure Beasts: the card set and its schema, actions on the wire, options, hidden information,
the effect vocabulary, reshuffles, the turn cap and random play at every player count."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

from app.games.core import CHANCE, BadAction, BadOptions, NotYourTurn, evolve, get_rules, play_out
from app.games.treasure_beasts import BOOK, RULES
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
    Shuffle,
    Steal,
    Strike,
    Take,
    Target,
)
from app.games.treasure_beasts.data import (
    GROUPS,
    PROPERTIES,
    TRIGGERS,
    CardSetError,
    load_card_set,
    parse_card_set,
    set_problems,
)
from app.games.treasure_beasts.state import RESHUFFLE, Config

from .test_treasure_beasts_golden import FIXTURES, B, C, S, act, legal, position, strength, uids

# ------------------------------------------------------------------------------ the card set


def test_shipped_set_meets_the_issue_requirements():
    assert set_problems(BOOK) == []
    cards = BOOK.card_set.cards
    assert len(cards) >= 40 and len(BOOK.deck) >= 36
    for group in GROUPS:
        assert sum(c.group == group for c in cards) >= 6
    for prop in PROPERTIES:
        assert sum(prop in c.properties for c in cards) >= 3, prop
    for trigger in TRIGGERS:
        assert sum(bool(c.abilities(trigger)) for c in cards) >= 4, trigger
    used = {e.do for c in cards for a in c.personal_abilities for e in a.effects}
    used |= {e.do for c in cards if c.alternative_use for e in c.alternative_use.effects}
    used |= {e.do for c in cards if c.attach_option for e in c.attach_option.effects}
    used |= {e.do for c in cards if c.group_ability for e in c.group_ability.effects}
    assert {
        "gain",
        "drain",
        "steal",
        "draw",
        "discard",
        "ap",
        "destroy",
        "revive",
        "move",
        "tire",
        "ready",
        "strength",
        "grant",
        "remove",
        "extra_move",
        "take_bonus",
    } <= used
    assert any(c.group_ability and c.group_ability.scope == "all" for c in cards)


def test_schema_reports_every_problem():
    bad = {
        "cards": [
            {"id": "a", "name": "A", "group": "dragons", "strength": 3, "start_position": "center"},
            {"id": "b", "name": "B", "group": "birds", "strength": 3, "start_position": "sky"},
            {
                "id": "c",
                "name": "C",
                "group": "birds",
                "strength": 1,
                "start_position": "center",
                "personal_abilities": [{"trigger": "passive", "effects": [{"do": "draw"}], "text": "x"}],
            },
        ]
    }
    with pytest.raises(CardSetError) as err:
        parse_card_set(bad, "bad.yaml")
    message = str(err.value)
    assert "bad.yaml" in message and "cards.0.group" in message and "cards.1.start_position" in message
    assert "not a static effect" in message


@pytest.mark.parametrize(
    "effect, problem",
    [
        ({"do": "fly"}, "unknown effect"),
        ({"do": "grant"}, "property"),
        ({"do": "destroy"}, "target"),
        ({"do": "move", "target": "self"}, "direction"),
        ({"do": "gain", "amount": 0}, "amount"),
        ({"do": "draw", "target": "self"}, "no target"),
    ],
)
def test_effect_vocabulary_is_checked(effect, problem):
    raw = {
        "cards": [
            {
                "id": "a",
                "name": "A",
                "group": "birds",
                "strength": 1,
                "start_position": "center",
                "personal_abilities": [{"trigger": "on_enter", "effects": [effect], "text": "x"}],
            }
        ]
    }
    with pytest.raises(CardSetError, match=problem):
        parse_card_set(raw)


def test_a_small_set_is_refused_when_strict(tmp_path):
    path = tmp_path / "tiny.yaml"
    path.write_text("cards:\n  - {id: a, name: A, group: birds, strength: 1, start_position: center}\n")
    assert len(load_card_set(path, strict=False).deck) == 1
    with pytest.raises(CardSetError, match="need 40"):
        load_card_set(path)


def test_catalog_lists_every_card():
    catalog = RULES.catalog()
    assert [c["id"] for c in catalog["cards"]] == [c.id for c in BOOK.card_set.cards]
    assert set(catalog["properties"]) == set(PROPERTIES) and catalog["zones"] == ["start", "bushes", "center"]
    json.dumps(catalog)


# ------------------------------------------------------------------------------ wire and options

ACTIONS = [
    Shuffle(("a", "b")),
    Pick("fang_wolf"),
    Deploy("fang_wolf"),
    Attach("tick_swarm", 3),
    AltUse("lark_herald"),
    Move(3, 2),
    Reattach(4, 5),
    Take(3),
    Steal(3, 1),
    Activate(3),
    Target(9),
    Join(3),
    Strike(),
    Lose(3),
    Discard("fang_wolf"),
    Pass(),
]


@pytest.mark.parametrize("action", ACTIONS, ids=lambda a: a.key)
def test_actions_round_trip(action):
    wire = json.loads(json.dumps(RULES.encode_action(action)))
    assert list(wire) == [action.key]
    assert RULES.decode_action(wire) == action


def test_move_names_its_zone():
    assert RULES.encode_action(Move(3, 2)) == {"move": {"creature": 3, "zone": "center"}}


@pytest.mark.parametrize(
    "wire",
    [
        {"take": "3"},
        {"take": True},
        {"pass": False},
        {"move": {"creature": 1, "zone": "sky"}},
        {"steal": {"creature": 1}},
        {"deploy": 5},
        {"shuffle": "abc"},
        {"fly": 1},
        {"take": 1, "pass": True},
    ],
)
def test_bad_wire_actions(wire):
    with pytest.raises(BadAction):
        RULES.decode_action(wire)


def test_options():
    assert RULES.normalize_options({})["center_treasure"] == "unlimited"
    assert RULES.normalize_options({"center_treasure": 25})["center_treasure"] == 25
    state = RULES.initial_state(3, {"center_treasure": 25, "threat_scope": "global", "max_rounds": 0})
    assert state.center == 25 and state.config.threat_global and state.config.max_rounds == 0
    for bad in (
        {"center_treasure": "lots"},
        {"center_treasure": -1},
        {"creature_actions": "many"},
        {"max_rounds": -1},
        {"colour": 1},
    ):
        with pytest.raises(BadOptions):
            RULES.normalize_options(bad)
    for players in (1, 7):
        with pytest.raises(BadOptions):
            RULES.initial_state(players, {})


def test_registered_with_bots_easiest_first():
    from app.games.core import bot_levels

    assert get_rules("treasure_beasts") is RULES
    assert bot_levels("treasure_beasts") == ["random", "greedy", "planner"]
    assert RULES.information == "imperfect"


def test_resign_two_seats_ends_more_seats_go_on():
    assert RULES.resign(RULES.initial_state(2, {}), 1).results == ("win", "loss")
    assert RULES.resign(RULES.initial_state(4, {}), 1) is None


def test_state_round_trips_through_json():
    rng = random.Random(3)
    state = RULES.initial_state(4, {})
    for _ in range(150):
        to_act = RULES.to_act(state)
        if not to_act:
            break
        if CHANCE in to_act:
            actions = {CHANCE: RULES.sample_chance(state, rng)}
        else:
            actions = {s: rng.choice(list(RULES.legal_actions(state, s))) for s in to_act}
        state, _ = RULES.apply(state, actions)
        assert RULES.decode_state(json.loads(json.dumps(RULES.encode_state(state)))) == state


# ------------------------------------------------------------------------------ hidden information


def test_hands_packs_and_deck_stay_hidden():
    rng = random.Random(8)
    state = RULES.initial_state(3, {})
    state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
    view0 = RULES.observe(state, 0)
    assert view0["pack"] == {"seat": 0, "pack": list(state.players[0].pack)}
    assert "pack" not in RULES.observe(state, None) and "hand" not in RULES.observe(state, None)
    text = json.dumps(view0)
    for secret in RULES.secrets(state, 0):
        assert secret not in text
    assert len(RULES.secrets(state, 0)) == 3  # two other packs and the deck
    picks = {s: RULES.legal_actions(state, s)[0] for s in range(3)}
    assert RULES.action_visible_to(state, 1, picks[1]) == frozenset({1})
    state, events = RULES.apply(state, picks)
    picked = [e for e in events if e.kind == "picked"]
    assert all(e.visible_to == frozenset({e.data["seat"]}) for e in picked)
    assert "card" not in picked[0].view(2)


# ------------------------------------------------------------------------------ legality


def _candidates(state) -> list[Any]:
    """Every action kind over every uid, card and seat of the position (mostly illegal ones)."""
    cards = sorted({*FIXTURES.cards} | {c.card for c in state.creatures})[:12] + sorted(BOOK.cards)[:6]
    cards += [c for p in state.players for c in p.hand]
    ids = [c.uid for c in state.creatures] + [999]
    out: list[Any] = [Pass(), Strike()]
    for uid in ids:
        out += [Take(uid), Activate(uid), Target(uid), Join(uid), Lose(uid), *(Move(uid, z) for z in range(3))]
        out += [Steal(uid, v) for v in range(state.num_players)]
        out += [Reattach(uid, h) for h in ids]
    for card in cards:
        out += [Deploy(card), AltUse(card), Discard(card), Pick(card), *(Attach(card, h) for h in ids)]
    return out


@pytest.mark.parametrize("players", [2, 3, 5])
def test_is_legal_agrees_with_the_legal_list(players):
    rng = random.Random(players)
    state = RULES.initial_state(players, {})
    checked = 0
    for step in range(700):
        to_act = RULES.to_act(state)
        if not to_act:
            break
        if CHANCE in to_act:
            state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
            continue
        seat = min(to_act)
        listed = set(RULES.legal_actions(state, seat))
        if step % 3 == 0:
            for action in _candidates(state):
                assert RULES.is_legal(state, seat, action) == (action in listed), (state.phase, action)
            checked += 1
        for other in range(players):
            if other not in to_act:
                assert not any(RULES.is_legal(state, other, a) for a in listed)
        state, _ = RULES.apply(state, {s: rng.choice(list(RULES.legal_actions(state, s))) for s in to_act})
    assert checked > 20


# ------------------------------------------------------------------------------ the effect vocabulary


def _fx(cid: str, strength: int, trigger: str, effects: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid,
        "group": extra.pop("group", "bloodthirsty"),
        "strength": strength,
        "start_position": extra.pop("start", "center"),
        "copies": 4,
        "properties": extra.pop("props", []),
        "personal_abilities": [{"trigger": trigger, "effects": effects, "text": cid}],
        **extra,
    }


VOCAB = parse_card_set(
    {
        "cards": [
            {"id": "s1", "name": "s1", "group": "birds", "strength": 1, "start_position": "center", "copies": 4},
            {"id": "s3", "name": "s3", "group": "birds", "strength": 3, "start_position": "center", "copies": 4},
            {
                "id": "fly2",
                "name": "fly2",
                "group": "birds",
                "strength": 2,
                "start_position": "center",
                "properties": ["flight"],
            },
            _fx("drainer", 1, "on_enter", [{"do": "drain", "amount": 2}]),
            _fx("stealer", 1, "on_enter", [{"do": "steal", "amount": 2}]),
            _fx("discarder", 1, "on_enter", [{"do": "discard", "amount": 1}]),
            _fx("killer", 1, "on_enter", [{"do": "destroy", "target": "weakest_enemy", "max_strength": 1}]),
            _fx("bouncer", 1, "on_enter", [{"do": "return", "target": "strongest_enemy"}]),
            _fx("reviver", 1, "on_enter", [{"do": "revive"}]),
            _fx("pusher", 1, "activated", [{"do": "move", "target": "strongest_enemy", "direction": "back"}]),
            _fx("tirer", 1, "on_enter", [{"do": "tire", "target": "ready_enemy"}]),
            _fx("readier", 1, "on_enter", [{"do": "ready", "target": "own_tired"}]),
            _fx("hurry", 1, "on_enter", [{"do": "ap", "amount": 1}]),
            _fx("legacy", 1, "on_leave", [{"do": "gain", "amount": 3}]),
            _fx("runner", 1, "passive", [{"do": "extra_move", "amount": 1}], start="start"),
            _fx("banker", 1, "passive", [{"do": "take_bonus", "amount": 2}]),
            _fx(
                "grounder",
                1,
                "passive",
                [
                    {"do": "remove", "property": "flight", "target": "enemy"},
                    {"do": "strength", "amount": -1, "target": "enemy"},
                ],
            ),
            _fx("flock", 1, "passive", [{"do": "grant", "property": "jump", "target": "own"}]),
        ]
    }
)
VRULES = type(RULES)(VOCAB)


def vact(state, *actions):
    events = []
    for action in actions:
        (seat,) = VRULES.to_act(state)
        assert VRULES.is_legal(state, seat, action), action
        state, new = VRULES.apply(state, {seat: action})
        events += new
    return state, events


def test_vocabulary_treasure_effects():
    state = position(treasuries=(6, 1, 5), hands={0: ("drainer", "stealer")}, deck=("s1",) * 8)
    state, _ = vact(state, Deploy("drainer"))
    assert [p.treasury for p in state.players] == [6, 0, 3]
    state, _ = vact(state, Deploy("stealer"))
    assert [p.treasury for p in state.players] == [8, 0, 1], "steals from the richest opponent"


def test_vocabulary_discard_takes_the_last_drawn():
    state = position(hands={0: ("discarder",), 1: ("s1", "s3"), 2: ()})
    state, _events = vact(state, Deploy("discarder"))
    assert state.players[1].hand == ("s1",) and state.discard == ("s3",)


def test_vocabulary_destroy_return_and_on_leave():
    state = position([(5, "legacy", 1, C), (6, "s3", 1, C)], hands={0: ("killer", "bouncer")})
    state, _ = vact(state, Deploy("killer"))
    assert 5 not in {c.uid for c in state.creatures} and state.players[1].treasury == 9, "on-leave gain 3"
    state, _ = vact(state, Deploy("bouncer"))
    assert 6 not in {c.uid for c in state.creatures} and "s3" in state.players[1].hand


def test_vocabulary_revive_tire_ready_ap_move():
    state = position(
        [(5, "s3", 1, C), (6, "s1", 0, C)],
        hands={0: ("hurry", "tirer", "readier", "reviver")},
        fields={6: {"ready": False}},
    )
    state = evolve(state, discard=("s3", "s1"))
    state, _ = vact(state, Deploy("hurry"))
    assert state.ap == 2, "spent 1, got 1 back"
    state, _ = vact(state, Deploy("tirer"))
    assert state.creature(5).ready is False
    state, _ = vact(state, Deploy("readier"))
    assert state.creature(6).ready is True and state.active == 1, "0 AP: the turn ended"
    state = position([(5, "s3", 1, C)], hands={0: ("reviver",)})
    state = evolve(state, discard=("s3", "s1"))
    state, _ = vact(state, Deploy("reviver"))
    assert state.discard == ("s3",) and sum(c.card == "s1" and c.owner == 0 for c in state.creatures) == 1
    pusher = position([(1, "pusher", 0, B), (5, "s3", 1, C)])
    pusher, _ = vact(pusher, Activate(1))
    assert pusher.creature(5).zone == B and pusher.creature(1).ready is False


def test_vocabulary_static_effects():
    from app.games.treasure_beasts.properties import derive

    state = position(
        [(1, "runner", 0, S), (2, "banker", 0, C), (3, "grounder", 0, C), (4, "flock", 1, C), (5, "fly2", 1, C)]
    )
    stats = derive(VOCAB, state)
    assert stats[1].moves == 2 and stats[2].take_bonus == 2
    assert stats[5].strength == 1 and "flight" not in stats[5].props and "jump" in stats[5].props
    state, _ = vact(state, Take(2), Move(1, B), Move(1, C))
    assert state.players[0].treasury == 9


# ------------------------------------------------------------------------------ flow


def test_reshuffle_is_a_chance_node_and_pays_the_owed_draw():
    state = position(hands={0: ("s1",), 1: ("s1",)}, deck=(), active=2)
    state = evolve(state, discard=("s2", "s3", "s4"))
    state, _ = RULES.apply(state, {2: Pass()})
    assert state.phase == RESHUFFLE and RULES.to_act(state) == {CHANCE} and state.resume == "main"
    shuffle = RULES.sample_chance(state, random.Random(1))
    assert sorted(shuffle.order) == ["s2", "s3", "s4"]
    state, _events = RULES.apply(state, {CHANCE: shuffle})
    assert state.phase == "main" and state.active == 0 and len(state.players[0].hand) == 2
    assert len(state.deck) == 2 and state.discard == ()
    with pytest.raises(NotYourTurn):
        RULES.apply(position(), {CHANCE: shuffle})


def test_turn_cap_ends_the_game():
    state, _ = play_out(RULES, 3, {"max_rounds": 2}, rng=random.Random(2))
    assert state.outcome.reason in ("turn_cap", "treasure", "last_standing")
    assert state.turn <= 6
    capped = position(players=2, treasuries=(5, 7), config=Config(max_rounds=1))
    capped, _ = act(capped, Pass())
    assert capped.outcome is None and capped.turn == 2
    capped, _ = act(capped, Pass())
    assert capped.outcome.reason == "turn_cap" and capped.outcome.winners == (1,), "the richer seat wins"
    assert capped.outcome.ranks == (2, 1)


def test_global_threat_blocks_the_centre():
    field = [(1, "s3", 0, C), (8, "threat4", 1, S)]
    assert Take(1) in legal(position(field))
    blocked = position(field, config=Config(threat_global=True))
    assert Take(1) not in legal(blocked)


def test_one_total_allows_a_single_creature_action():
    field = [(1, "thief2", 0, C)]
    state, _ = act(position(field), Take(1))
    assert any(isinstance(a, Steal) for a in legal(state))
    state, _ = act(position(field, config=Config(one_total=True)), Take(1))
    assert not any(isinstance(a, Steal) for a in legal(state))


def test_lenient_turn_end_needs_a_pass():
    state = position(hands={0: ("s2", "s3")}, config=Config(turn_ends_at_zero_ap=False))
    state, _ = act(state, Deploy("s2"), Deploy("s3"))
    assert state.active == 0 and state.ap == 0 and legal(state)[-1] == Pass()
    assert not any(isinstance(a, Deploy) for a in legal(state))


def test_elimination_discards_silently():
    state = position(
        [(1, "s1", 1, C), (2, "z_attach", 0, C), (3, "s2", 0, C)],
        players=3,
        treasuries=(6, 0, 6),
        active=1,
        fields={2: {"host": 1}},
    )
    state, events = act(state, Pass())
    assert state.players[1].eliminated and uids(state) == {3}
    assert not any(e.kind == "ability" for e in events)
    assert state.active == 2 and state.outcome is None


def test_events_carry_codes_and_parameters():
    _state, log = play_out(RULES, 3, rng=random.Random(4))
    from app.games.core import replay

    _, events = replay(RULES, 3, {}, log)
    kinds = {e.kind for e in events}
    assert {"dealt", "picked", "turn_started", "drew", "entered", "game_over"} <= kinds
    for e in events:
        assert e.kind.replace("_", "").isalpha() and e.kind.islower()
        for value in e.data.values():
            assert isinstance(value, int | str | list | bool | type(None))
            assert not (isinstance(value, str) and " " in value), (e.kind, value)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_end_quickly_at_every_count(players):
    times = []
    for seed in range(3):
        t0 = time.process_time()
        state, log = play_out(RULES, players, rng=random.Random(seed), max_steps=20_000)
        times.append(time.process_time() - t0)
        assert state.outcome is not None and len(state.outcome.results) == players
        assert len(log) < 3000
    assert sum(times) / len(times) < 1.0, times


def test_strength_helper_sees_attachments():
    state = position([(1, "s3", 0, C), (2, "z_attach", 0, C)], fields={2: {"host": 1}})
    assert strength(state, 1) == 5 and uids(state) == {1, 2}


def test_derived_values_are_remembered_by_field_and_never_mixed_up():
    """``derive`` remembers values by the field (cards, owners, attachments) and the last state:
    on every position of random games of two card sets, and on the same position with a
    creature attached elsewhere, it gives what a fresh computation gives."""
    from app.games.core.driver import submit
    from app.games.treasure_beasts.properties import _derive, derive
    from app.games.treasure_beasts.rules import TreasureBeasts

    checked = 0
    for rules in (RULES, TreasureBeasts(FIXTURES), RULES):
        for seed in range(3):
            _, log = play_out(rules, 3, rng=random.Random(seed), max_steps=20_000)
            state, pending = rules.initial_state(3, {}), {}
            for record in log:
                assert derive(rules.book, state) == _derive(rules.book, state)
                checked += 1
                step = submit(rules, state, pending, record.seat, rules.decode_action(record.action))
                state, pending = step.state, step.pending
    assert checked > 300
    # the same uids with another host: a different field, different values
    base = position([(1, "s3", 0, C), (2, "z_attach", 0, C), (3, "s3", 0, C)], fields={2: {"host": 1}})
    moved = evolve(base, creatures=tuple(evolve(c, host=3) if c.uid == 2 else c for c in base.creatures))
    assert derive(FIXTURES, base)[1].strength == 5 and derive(FIXTURES, base)[3].strength == 3
    assert derive(FIXTURES, moved)[1].strength == 3 and derive(FIXTURES, moved)[3].strength == 5
