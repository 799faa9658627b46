"""Stratego Junior rules tests: options, data, setups and decks, actions and JSON, Quest and Victory
details, views and hidden information (rules/stratego_junior.md sections 1-6 and AMBIGUITIES)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import yaml

from app.games.core import (
    CHANCE,
    BadAction,
    BadOptions,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Outcome,
    Record,
    bot_levels,
    game_variants,
    get_rules,
    make_bot,
    play_out,
    replay,
    submit,
)
from app.games.stratego_junior import DATA as D
from app.games.stratego_junior import (
    SETUPS,
    Attack,
    DeclineReturn,
    Die,
    Move,
    Place,
    QuestRules,
    Roll,
    StrategoBot,
    StrategoState,
    TowerAttack,
    VictoryRules,
    random_setup,
    sensible_setup,
)
from app.games.stratego_junior.data import (
    ATTACKER,
    BOTH,
    DEFENDER,
    PIECES_FILE,
    PiecesDataError,
    load_pieces,
    parse_pieces,
)
from app.games.stratego_junior.state import with_castles

from .test_stratego_junior_golden import full_side

VICTORY = VictoryRules()
QUEST = QuestRules()
RULES = VICTORY  #: the default rules
RED, BLUE = 0, 1
VARIANTS = ("victory", "quest")


def sq(r: int, c: int) -> int:
    return D.sq(r, c)


def rules_for(options: dict | None):
    """The rules a match with ``options`` plays by."""
    return QUEST if (options or {}).get("variant") == "quest" else VICTORY


def rules_of(state: StrategoState):
    """The rules ``state`` is played by."""
    return QUEST if state.variant == "quest" else VICTORY


def walk(seed: int, options: dict | None = None, policies=None):
    """Every (state, events that led to it) of a seeded game; random actions unless ``policies``."""
    rules = rules_for(options)
    rng = random.Random(seed)
    state = rules.initial_state(2, rules.normalize_options(options or {}))
    yield state, []
    while rules.to_act(state):
        to_act = rules.to_act(state)
        if to_act == {CHANCE}:
            actions = {CHANCE: rules.sample_chance(state, rng)}
        else:
            actions = {}
            for seat in sorted(to_act):
                if policies and seat in policies:
                    actions[seat] = policies[seat](state, seat, rng)
                else:
                    actions[seat] = rng.choice(list(rules.legal_actions(state, seat)))
        state, events = rules.apply(state, actions)
        yield state, events


def final(seed: int, options: dict | None = None):
    state = None
    for state, _ in walk(seed, options):  # noqa: B007 - the last one is wanted
        pass
    return state


# ============================================================================ registry and options


def test_registered_with_bots_easiest_first():
    assert get_rules("stratego_junior").title == "Stratego Junior"
    assert bot_levels("stratego_junior") == ["random", "casual", "expert"]
    assert make_bot("stratego_junior").name == "expert"


def test_each_variant_is_its_own_rules_class():
    assert get_rules("stratego_junior") is get_rules("stratego_junior", {"variant": "victory"})
    assert isinstance(get_rules("stratego_junior"), VictoryRules)
    assert isinstance(get_rules("stratego_junior", {"variant": "quest"}), QuestRules)
    assert game_variants("stratego_junior").keys() == {"quest", "victory"}
    for rules in (QUEST, VICTORY):
        assert rules.name == "stratego_junior" and rules.information == "imperfect"
        # Either accepts the whole option set, so the service normalises with the default rules.
        for variant in VARIANTS:
            assert rules.normalize_options({"variant": variant})["variant"] == variant
        state = rules.initial_state(2, {})
        assert state.variant == rules.variant  # each defaults to itself
        other = "quest" if rules is VICTORY else "victory"
        with pytest.raises(BadOptions, match="rules"):
            rules.initial_state(2, {"variant": other})
        with pytest.raises(ValueError, match="snapshot"):
            rules.decode_state({**rules.encode_state(state), "config": {**state.config.to_json(), "variant": other}})


def test_default_options():
    assert RULES.normalize_options({}) == {
        "variant": "victory",
        "memory_aid": False,
        "move_cap": 0,
        "black_knight_returns_jester": True,
        "black_knight_return_optional": False,
    }


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "classic"},
        {"variant": 1},
        {"memory_aid": 1},
        {"move_cap": -1},
        {"move_cap": "9"},
        {"colour": "red"},
        {"black_knight_return_optional": "yes"},
    ],
)
def test_bad_options(options):
    with pytest.raises(BadOptions):
        RULES.initial_state(2, options)


@pytest.mark.parametrize("players", [1, 3])
def test_two_players_only(players):
    with pytest.raises(BadOptions):
        RULES.initial_state(players, {})


# ============================================================================ data


def test_packaged_data_matches_the_spec_defaults():
    counts = {D.kinds[k]: D.counts[k] for k in range(len(D.kinds))}
    assert counts == {
        "king": 1,
        "princess": 1,
        "knight": 3,
        "unicorn": 4,
        "dwarf": 4,
        "wizard": 1,
        "dragon": 2,
        "flag": 1,
        "black_knight": 1,
        "jester": 1,
    }
    strengths = {D.kinds[k]: D.strength[k] for k in range(len(D.kinds))}
    assert strengths["king"] == 6 and strengths["wizard"] == 1 and strengths["dragon"] is None
    assert [D.kinds[k] for k in D.die_faces] == ["king", "princess", "knight", "unicorn", "dwarf", "wizard"]
    assert (D.rows, D.columns, D.towers) == (9, 4, 3)
    assert len(D.small_pool) == 16
    assert D.back_row == (tuple(sq(8, c) for c in range(4)), tuple(sq(0, c) for c in (3, 2, 1, 0)))
    assert sorted(D.middle) == [sq(4, c) for c in range(4)]
    assert RULES.geometry()["formation_rows"] == [[5, 6, 7, 8], [3, 2, 1, 0]]


def test_combat_table():
    k = D.index
    assert D.combat[k["dwarf"]][k["dragon"]] == ATTACKER
    assert D.combat[k["king"]][k["dragon"]] == DEFENDER
    assert D.combat[k["wizard"]][k["king"]] == ATTACKER
    assert D.combat[k["king"]][k["wizard"]] == DEFENDER
    assert D.combat[k["wizard"]][k["dwarf"]] == DEFENDER
    assert D.combat[k["dwarf"]][k["wizard"]] == ATTACKER
    assert D.combat[k["princess"]][k["knight"]] == ATTACKER
    assert D.combat[k["unicorn"]][k["princess"]] == DEFENDER
    for kind in ("king", "princess", "knight", "unicorn", "dwarf", "wizard"):
        assert D.combat[k[kind]][k[kind]] == BOTH
    assert D.combat[k["dragon"]][k["king"]] == -1  # dragons never attack


def _raw():
    return yaml.safe_load(PIECES_FILE.read_text(encoding="utf-8"))


def _edit(raw, kind, **changes):
    for p in raw["pieces"]:
        if p["id"] == kind:
            p.update(changes)
    return raw


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: _edit(r, "knight", count=4), "must fill the 16 formation squares"),
        (lambda r: r.update(die_faces=["king", "dragon"]), "no dragon on the die"),
        (lambda r: r["board"].update(lakes_on_grid=[[3, 1]]), "middle row"),
        (lambda r: r["board"].update(lakes_on_grid=[[4, 1], [4, 1]]), "listed twice"),
        (lambda r: r["board"].update(lakes_on_grid=[[4, 0], [4, 1], [4, 2], [4, 3]]), "all lakes"),
        (lambda r: r["board"].update(red_rows=[4, 5, 6, 7]), "red_rows"),
        (lambda r: r.update(pieces=[p for p in r["pieces"] if p["id"] != "flag"]), "missing big castles"),
        (lambda r: _edit(r, "dwarf", beats=["goblin"]), "not a small castle"),
        (lambda r: _edit(r, "dragon", movable=True), "needs a strength"),
        (lambda r: _edit(r, "jester", count=2), "count 1"),
        (
            lambda r: r["pieces"].append({"id": "king", "strength": 6, "count": 0, "big": False, "movable": True}),
            "duplicate",
        ),
        (lambda r: _edit(r, "king", colour="gold"), "Extra inputs"),
    ],
)
def test_data_validation_names_the_problem(mutate, message):
    raw = _raw()
    mutate(raw)
    with pytest.raises(PiecesDataError, match=message):
        parse_pieces(raw, "test.yaml")


def test_data_with_lakes_and_other_counts_loads(tmp_path):
    raw = _raw()
    raw["board"]["lakes_on_grid"] = [[4, 1], [4, 2]]
    _edit(raw, "knight", count=2)
    _edit(raw, "unicorn", count=5)
    raw["die_faces"] = ["king", "king", "knight", "unicorn", "dwarf", "wizard"]
    path = tmp_path / "pieces.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    data = load_pieces(path)
    assert sorted(data.middle) == [sq(4, 0), sq(4, 3)]
    assert sq(4, 1) not in data.adj[sq(3, 1)] and data.adj[sq(4, 1)] == ()
    assert data.die_faces.count(data.index["king"]) == 2


def test_unreadable_data_file(tmp_path):
    with pytest.raises(PiecesDataError, match="cannot read"):
        load_pieces(tmp_path / "missing.yaml")


def test_catalog():
    pieces = RULES.catalog()["pieces"]
    assert [p["id"] for p in pieces][:2] == ["king", "princess"]
    assert next(p for p in pieces if p["id"] == "dragon")["on_die"] == 0
    assert next(p for p in pieces if p["id"] == "king")["on_die"] == 1


# ============================================================================ setup and decks


def test_setup_phase_both_seats_at_once_and_hidden():
    state = RULES.initial_state(2, {})
    assert RULES.to_act(state) == {0, 1}
    assert list(RULES.legal_actions(state, 0)) == list(SETUPS) == list(RULES.legal_actions(state, 1))
    assert len(SETUPS) >= 4
    for setup in SETUPS:
        assert RULES.is_legal(state, 0, setup)
        assert RULES.action_visible_to(state, 0, setup) == {0}
    view = RULES.observe(state, None)
    assert view["castles"] == [] and view["phase"] == "setup"
    step = submit(RULES, state, {}, 0, SETUPS[0])
    assert not step.applied
    assert RULES.observe(step.state, 1)["castles"] == []


def test_setup_orientation_is_the_owners():
    towers = ["jester", "flag", "black_knight"]
    rows = [[D.kinds[k] for k in D.small_pool[i * 4 : (i + 1) * 4]] for i in range(4)]
    setup = RULES.decode_action({"setup": {"towers": towers, "rows": rows}})
    state, events = RULES.apply(RULES.initial_state(2, {}), {0: setup, 1: setup})
    assert [e.kind for e in events] == ["setup_done"]
    assert events[0].data == {"seats": [0, 1], "first": 0}
    kind_at = {D.rc(s): D.kinds[state.kinds[u]] for s, u in enumerate(state.board) if u >= 0}
    # Red: front row first = row 5, left to right = columns 0..3; towers slots 0..2.
    assert [kind_at[(5, c)] for c in range(4)] == rows[0]
    assert [kind_at[(8, c)] for c in range(4)] == rows[3]
    assert [D.kinds[k] for k in state.towers[RED]] == towers
    # Blue (the board turned round): front row = row 3, its left is column 3; towers slots 2..0.
    assert [kind_at[(3, c)] for c in (3, 2, 1, 0)] == rows[0]
    assert [kind_at[(0, c)] for c in (3, 2, 1, 0)] == rows[3]
    assert [D.kinds[k] for k in reversed(state.towers[BLUE])] == towers
    # uids follow the squares, red's first: they say nothing about identities.
    assert [state.board[s] for s in sorted(D.formation_squares[RED])] == list(range(16))
    assert state.to_move == RED and RULES.to_act(state) == {RED}


def test_any_valid_placement_is_legal_and_invalid_ones_are_refused():
    state = RULES.initial_state(2, {})
    custom = random_setup(random.Random(12345))
    assert custom not in SETUPS
    assert RULES.is_legal(state, 1, custom)
    towers, rows = list(custom.towers), [list(r) for r in custom.rows]
    bad = [
        {"towers": towers[:2], "rows": rows},
        {"towers": ["flag", "flag", "jester"], "rows": rows},
        {"towers": towers, "rows": rows[:3]},
        {"towers": towers, "rows": [rows[0][:3], *rows[1:]]},
        {"towers": towers, "rows": [["king"] * 4, *rows[1:]]},
        {"towers": towers, "rows": [["goblin", *rows[0][1:]], *rows[1:]]},
        {"towers": towers, "rows": [["flag", *rows[0][1:]], *rows[1:]]},
    ]
    for payload in bad:
        action = RULES.decode_action({"setup": payload})
        assert not RULES.is_legal(state, 0, action)
        with pytest.raises(IllegalAction):
            submit(RULES, state, {}, 0, action)
        with pytest.raises(IllegalAction):
            RULES.apply(state, {0: action, 1: custom})


def test_validate_deck_normalises_and_explains():
    payload = {
        "towers": ["flag", "jester", "black_knight"],
        "rows": [[D.kinds[k] for k in D.small_pool[i * 4 : (i + 1) * 4]] for i in range(4)],
    }
    assert RULES.validate_deck(payload) == payload
    assert RULES.validate_deck({"setup": payload}) == payload
    assert (
        RULES.validate_deck({"towers": tuple(payload["towers"]), "rows": [tuple(r) for r in payload["rows"]]})
        == payload
    )
    with pytest.raises(BadAction, match="knight: 4 instead of 3") as refused:
        RULES.validate_deck({**payload, "rows": [["knight", *payload["rows"][0][1:]], *payload["rows"][1:]]})
    assert (
        refused.value.reason == "formation"
        and {"castle": "knight", "count": 4, "need": 3} in refused.value.params["castles"]
    )
    with pytest.raises(BadAction, match="towers") as refused:
        RULES.validate_deck({**payload, "towers": ["flag", "flag", "jester"]})
    assert refused.value.wire_params() == {
        "reason": "towers",
        "towers": 3,
        "castles": ["black_knight", "flag", "jester"],
    }
    with pytest.raises(BadAction, match="rows") as refused:
        RULES.validate_deck({**payload, "rows": payload["rows"][:2]})
    assert refused.value.wire_params() == {"reason": "rows", "rows": 4, "columns": 4}
    with pytest.raises(BadAction, match="unknown castle") as refused:
        RULES.validate_deck({**payload, "rows": [[1, 2, 3, 4], *payload["rows"][1:]]})
    assert refused.value.wire_params() == {"reason": "unknown_castle", "castle": "1"}
    for junk in (None, [], "deck", {"towers": []}, {"towers": [], "rows": [], "x": 1}):
        with pytest.raises(BadAction) as refused:
            RULES.validate_deck(junk)
        assert refused.value.reason == "shape"


def test_a_deck_works_for_either_colour():
    deck = RULES.validate_deck(RULES.encode_action(sensible_setup(random.Random(3)))["setup"])
    action = RULES.decode_action({"setup": deck})
    state, _ = RULES.apply(RULES.initial_state(2, {}), {0: action, 1: action})
    # The same castle stands at each side's mirrored square (front-left from its owner's view).
    assert state.kinds[state.board[sq(5, 0)]] == state.kinds[state.board[sq(3, 3)]]
    assert state.kinds[state.board[sq(8, 3)]] == state.kinds[state.board[sq(0, 0)]]


def test_setups_are_sensible_and_valid():
    for seed in range(30):
        for setup in (sensible_setup(random.Random(seed)), random_setup(random.Random(seed))):
            RULES.validate_deck(RULES.encode_action(setup)["setup"])
    setup = sensible_setup(random.Random(0))
    assert Counter(setup.rows[-1])["dragon"] == 2  # dragons guard the back row


# ============================================================================ actions and JSON


@pytest.mark.parametrize(
    "obj",
    [
        {"move": {"from": [5, 1], "to": [4, 1]}},
        {"attack": {"from": [4, 1], "to": [3, 1]}},
        {"attack_tower": {"from": [0, 2], "tower": 1}},
        {"attack_tower": {"tower": 0}},
        {"roll": True},
        {"flip": [3, 2]},
        {"place": [2, 1]},
        {"place": {"tower": 2}},
        {"decline_return": True},
        {"die": "wizard"},
    ],
)
def test_action_json_round_trip(obj):
    assert RULES.encode_action(RULES.decode_action(obj)) == obj


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "move",
        {},
        {"move": {}, "attack": {}},
        {"jump": [1, 2]},
        {"move": {"from": [5, 1]}},
        {"move": {"from": [9, 0], "to": [8, 0]}},
        {"move": {"from": [5, -1], "to": [4, 1]}},
        {"move": {"from": [5, True], "to": [4, 1]}},
        {"move": {"from": "a1", "to": [4, 1]}},
        {"attack_tower": {"tower": 3}},
        {"attack_tower": {"tower": "0"}},
        {"attack_tower": {"from": [0, 1]}},
        {"roll": 1},
        {"flip": [3]},
        {"place": {"tower": 9}},
        {"place": {"slot": 1}},
        {"decline_return": False},
        {"die": "dragon"},
        {"die": "goblin"},
        {"setup": {"towers": []}},
        {"setup": {"towers": [1], "rows": []}},
        {"setup": {"towers": "abc", "rows": []}},
        {"setup": {"towers": [], "rows": ["abcd"]}},
    ],
)
def test_malformed_actions_are_bad_actions(obj):
    with pytest.raises(BadAction):
        RULES.decode_action(obj)


def test_wrong_seat_and_after_the_end():
    state = final(3)
    with pytest.raises(GameOver):
        RULES.apply(state, {0: Roll()})
    start = VICTORY.position(full_side(RED) | full_side(BLUE))
    action = RULES.legal_actions(start, RED)[0]
    with pytest.raises(NotYourTurn):
        submit(RULES, start, {}, BLUE, action)
    with pytest.raises(IllegalAction):
        RULES.apply(start, {BLUE: action})
    with pytest.raises(IllegalAction):
        RULES.apply(start, {RED: Move(999, 0)})
    with pytest.raises(IllegalAction):
        RULES.apply(start, {RED: ["move", [], {}]})  # unhashable junk is refused, not crashed on
    with pytest.raises(IllegalAction):
        RULES.sample_chance(start, random.Random(0))


def test_state_json_round_trip_in_every_phase():
    seen = set()
    for options in ({"variant": "quest"}, {"variant": "victory"}):
        rules = rules_for(options)
        for seed in range(6):
            for state, _ in walk(seed, options):
                seen.add(state.phase)
                again = rules.decode_state(json.loads(json.dumps(rules.encode_state(state))))
                assert again == state
                assert rules.legal_actions(again, again.to_move) == rules.legal_actions(state, state.to_move)
    assert {"setup", "play", "roll", "flip", "over"} <= seen
    with pytest.raises(ValueError):
        RULES.decode_state({"phase": "lunch"})


# ============================================================================ Quest


def _quest_position(**kw):
    return QUEST.position(full_side(RED) | full_side(BLUE), **kw)


def test_quest_die_is_public_chance_and_rolls_at_once_without_access():
    state = _quest_position()
    assert QUEST.to_act(state) == {CHANCE}
    die = QUEST.sample_chance(state, random.Random(0))
    assert isinstance(die, Die) and die.face in D.die_faces
    assert QUEST.action_visible_to(state, CHANCE, die) is None
    faces = Counter(QUEST.sample_chance(state, random.Random(i)).face for i in range(600))
    assert set(faces) == set(D.die_faces)
    state, events = QUEST.apply(state, {CHANCE: die})
    assert state.phase == "flip" and events[0].view(None) == {
        "kind": "die_rolled",
        "seat": RED,
        "face": D.kinds[die.face],
    }
    assert QUEST.observe(state, BLUE)["die"] == D.kinds[die.face]
    with pytest.raises(IllegalAction):
        QUEST.apply(_quest_position(), {CHANCE: Die(D.index["dragon"])})


def test_quest_flip_reveals_to_both_and_memory_aid_keeps_it():
    for memory in (False, True):
        state = _quest_position(die="wizard", options={"memory_aid": memory})
        flip = QUEST.decode_action({"flip": [3, 0]})
        assert QUEST.action_visible_to(state, RED, flip) is None
        state, events = QUEST.apply(state, {RED: flip})
        assert events[0].visible_to is None and events[0].view(BLUE) == events[0].view(None)
        shown = events[0].data["castle"]
        for viewer in (RED, None):
            castle = next(p for p in QUEST.observe(state, viewer)["castles"] if p["sq"] == [3, 0])
            assert ("piece" in castle) is memory
            if memory:
                assert castle["piece"] == shown["piece"] and castle["known"] is True
        # A bot always remembers.
        castle = next(p for p in QUEST.bot_observation(state, RED)["castles"] if p["sq"] == [3, 0])
        assert castle["piece"] == shown["piece"]
        # The owner sees its castle is known.
        castle = next(p for p in QUEST.observe(state, BLUE)["castles"] if p["sq"] == [3, 0])
        assert castle["known"] is True and castle["piece"] == shown["piece"]


def test_quest_can_only_flip_attackable_castles():
    state = _quest_position(die="king")
    for obj in ({"flip": [2, 0]}, {"flip": [4, 0]}, {"flip": [5, 0]}, {"roll": True}, {"attack_tower": {"tower": 0}}):
        assert not QUEST.is_legal(state, RED, QUEST.decode_action(obj))
    assert QUEST.observe(state, None)["attackable"] == [[3, 0], [3, 1], [3, 2], [3, 3]]


def _quest_with_access(**kw):
    blue = full_side(BLUE, skip={(3, 1), (2, 1), (1, 1), (0, 1)})
    gone = [D.kinds[k] for k in D.small_pool]
    for text in blue.values():
        gone.remove(text.split()[1])
    removed = {BLUE: gone + list(kw.pop("extra_removed", []))}
    return QUEST.position(blue | full_side(RED), removed=removed, **kw)


def test_quest_with_access_may_still_roll():
    state = _quest_with_access()
    legal = [QUEST.encode_action(a) for a in QUEST.legal_actions(state, RED)]
    assert legal == [{"attack_tower": {"tower": t}} for t in range(3)] + [{"roll": True}]
    assert QUEST.observe(state, BLUE)["access"] == [True, False]
    state, events = QUEST.apply(state, {RED: Roll()})
    assert events == [] and QUEST.to_act(state) == {CHANCE}


def test_quest_black_knight_return_is_hidden_from_the_other_seat():
    state = _quest_with_access(
        towers=(("flag", "black_knight", "jester"), ("flag", "black_knight", None)), extra_removed=["jester"]
    )
    state, events = QUEST.apply(state, {RED: QUEST.decode_action({"attack_tower": {"tower": 1}})})
    assert QUEST.to_act(state) == {BLUE}
    red_view = QUEST.observe(state, RED)["returning"]
    assert red_view["owner"] == BLUE and red_view["count"] == 5 and "staged" not in red_view
    assert QUEST.observe(state, BLUE)["returning"]["next"] == "jester"
    placed = []
    while state.phase == "return":
        legal = QUEST.legal_actions(state, BLUE)
        assert len(legal) <= 17
        action = legal[-1]
        assert QUEST.action_visible_to(state, BLUE, action) == {BLUE}
        state, events = QUEST.apply(state, {BLUE: action})
        placed.append(action)
        for event in events:
            if event.kind == "castle_placed":
                assert event.view(RED) == {"kind": "castle_placed", "owner": BLUE, "redacted": True}
                assert "piece" in event.view(BLUE)
        if state.phase == "return":
            # Nothing of the placement shows to red or spectators until the end.
            for viewer in (RED, None):
                text = json.dumps(QUEST.observe(state, viewer), sort_keys=True)
                for secret in QUEST.secrets(state, viewer):
                    assert secret not in text
                assert all(state.board[s] < 0 for s in (sq(3, 1), sq(2, 1), sq(1, 1), sq(0, 1)))
            assert QUEST.observe(state, BLUE)["returning"]["staged"]
    done = events[[e.kind for e in events].index("castles_returned")]
    assert all("piece" not in c for c in done.view(RED)["castles"])
    assert all("piece" in c for c in done.view(BLUE)["castles"])
    assert done.view(RED)["towers"] == [{"owner": BLUE, "tower": placed[0].slot}]
    assert state.phase == "roll" and state.to_move == BLUE
    # Returned castles get new numbers: the old ones (whose identities red saw) are not reused.
    returned = [state.board[s] for s in (sq(3, 1), sq(2, 1), sq(1, 1), sq(0, 1))]
    assert min(returned) >= 32 and not set(returned) & state.revealed


def test_quest_black_knight_options():
    base = {"towers": (("flag", "black_knight", "jester"), ("flag", "black_knight", None)), "extra_removed": ["jester"]}
    state = _quest_with_access(options={"black_knight_returns_jester": False}, **base)
    state, events = QUEST.apply(state, {RED: TowerAttack(-1, 1)})
    assert "jester" not in events[-1].data["pieces"] and events[-1].data["count"] == 4
    assert all(isinstance(a, Place) for a in QUEST.legal_actions(state, BLUE))

    state = _quest_with_access(options={"black_knight_return_optional": True}, **base)
    state, _ = QUEST.apply(state, {RED: TowerAttack(-1, 1)})
    assert DeclineReturn() in QUEST.legal_actions(state, BLUE)
    declined, events = QUEST.apply(state, {BLUE: DeclineReturn()})
    assert events[0].kind == "return_declined"
    assert declined.phase == "roll" and len(declined.removed[BLUE]) == 4
    placed, _ = QUEST.apply(state, {BLUE: QUEST.legal_actions(state, BLUE)[0]})
    assert DeclineReturn() not in QUEST.legal_actions(placed, BLUE)  # only before the first


def test_quest_black_knight_with_nothing_removed_just_leaves():
    state = QUEST.position({(3, 0): "blue king", (8, 0): "red king"})
    assert QUEST.to_act(state) == {RED}
    state, events = QUEST.apply(state, {RED: TowerAttack(-1, 1)})
    assert [e.kind for e in events] == ["tower_attacked", "removed"]
    assert state.to_move == BLUE


def test_quest_games_end_and_move_cap_draws():
    for seed in range(10):
        state = final(seed, {"variant": "quest"})
        assert QUEST.outcome(state).reason == "flag_captured"
    state = final(1, {"variant": "quest", "move_cap": 5})
    assert QUEST.outcome(state).results == ("draw", "draw") and QUEST.outcome(state).reason == "move_cap"
    assert state.turn == 5


# ============================================================================ Victory


def test_victory_back_row_attack_only_from_the_opponents_back_row():
    state = VICTORY.position({(0, 1): "red unicorn", (8, 2): "red knight", (8, 1): "blue knight", (4, 0): "blue dwarf"})
    towers = [a for a in VICTORY.legal_actions(state, RED) if isinstance(a, TowerAttack)]
    assert towers == [TowerAttack(sq(0, 1), t) for t in range(3)]
    assert not VICTORY.is_legal(state, RED, TowerAttack(sq(8, 2), 0))  # its own back row
    assert not VICTORY.is_legal(state, RED, TowerAttack(-1, 0))  # Quest's form: no attacker
    state, _ = VICTORY.apply(state, {RED: TowerAttack(sq(0, 1), 2)})  # the jester
    blue = [a for a in VICTORY.legal_actions(state, BLUE) if isinstance(a, TowerAttack)]
    assert blue == [TowerAttack(sq(8, 1), t) for t in range(3)]
    state, _ = VICTORY.apply(state, {BLUE: Move(sq(4, 0), sq(4, 1))})
    assert sorted(a.slot for a in VICTORY.legal_actions(state, RED) if isinstance(a, TowerAttack)) == [0, 1]
    assert not VICTORY.is_legal(state, RED, TowerAttack(sq(0, 1), 2))  # the jester's slot is empty


def test_victory_tower_attack_events_and_views():
    state = VICTORY.position({(0, 1): "red unicorn", (4, 0): "blue dwarf"})
    state, events = VICTORY.apply(state, {RED: TowerAttack(sq(0, 1), 1)})
    attacked, removed = events
    assert attacked.data == {
        "seat": RED,
        "owner": BLUE,
        "tower": 1,
        "piece": "black_knight",
        "attacker": {"owner": RED, "sq": [0, 1], "uid": 0},
    }
    assert removed.data == {
        "cause": "black_knight",
        "castles": [{"owner": BLUE, "piece": "black_knight", "tower": 1}, {"owner": RED, "sq": [0, 1], "uid": 0}],
    }
    # Blue never learns what the lost castle was; red sees its own.
    assert VICTORY.observe(state, BLUE)["removed"][RED] == [{"owner": RED, "uid": 0}]
    assert VICTORY.observe(state, RED)["removed"][RED] == [{"owner": RED, "piece": "unicorn", "uid": 0}]
    assert VICTORY.observe(state, RED)["removed"][BLUE] == [{"known": True, "owner": BLUE, "piece": "black_knight"}]
    assert VICTORY.observe(state, RED)["towers"][BLUE][1] == {"empty": True, "owner": BLUE, "tower": 1}


def test_victory_move_cap_draw():
    for seed in range(3):
        state = final(seed, {"move_cap": 12})
        assert VICTORY.outcome(state).results == ("draw", "draw")
        assert VICTORY.outcome(state).reason == "move_cap" and state.turn == 12


def test_victory_combat_reveals_both_and_memory():
    castles = {
        (4, 1): "red knight",
        (3, 1): "blue unicorn",
        (3, 2): "blue wizard",
        (8, 0): "red king",
        (0, 0): "blue king",
    }
    state = VICTORY.position(castles)
    state, events = VICTORY.apply(state, {RED: Attack(sq(4, 1), sq(3, 1))})
    assert [e.kind for e in events] == ["combat", "removed"]
    assert events[0].data["attacker"] == {"owner": RED, "piece": "knight", "sq": [4, 1], "uid": 3}
    assert events[0].data["defender"] == {"owner": BLUE, "piece": "unicorn", "sq": [3, 1], "uid": 1}
    assert events[1].data == {"cause": "combat", "castles": [events[0].data["defender"]]}
    # Blue saw the knight; without the memory aid its view does not keep it, a bot's does.
    knight = next(p for p in VICTORY.observe(state, BLUE)["castles"] if p["uid"] == 3)
    assert knight == {"moved": True, "owner": RED, "sq": [3, 1], "uid": 3}
    knight = next(p for p in VICTORY.bot_observation(state, BLUE)["castles"] if p["uid"] == 3)
    assert knight == {"known": True, "moved": True, "owner": RED, "piece": "knight", "sq": [3, 1], "uid": 3}


def test_victory_random_games_end_by_the_rules():
    reasons = Counter(VICTORY.outcome(final(seed)).reason for seed in range(20))
    assert set(reasons) <= {"flag_captured", "no_legal_action"}
    assert reasons["flag_captured"] > 0


def test_apply_never_changes_its_input():
    for variant in VARIANTS:
        rules = rules_for({"variant": variant})
        for state, _ in walk(5, {"variant": variant}):
            if not rules.to_act(state) or rules.to_act(state) == {0, 1}:
                continue
            before = rules.encode_state(state)
            seat = next(iter(rules.to_act(state)))
            if seat == CHANCE:
                rules.apply(state, {CHANCE: rules.sample_chance(state, random.Random(0))})
            else:
                for action in rules.legal_actions(state, seat)[:3]:
                    rules.apply(state, {seat: action})
            assert rules.encode_state(state) == before


def _all_candidate_actions():
    """Every move, attack and tower attack on the board, legal or not, and some junk."""
    out = [Move(a, b) for a in range(D.squares) for b in range(D.squares)]
    out += [Attack(a, b) for a in range(D.squares) for b in range(D.squares)]
    out += [TowerAttack(a, t) for a in range(-1, D.squares) for t in range(D.towers + 1)]
    return [*out, Roll(), DeclineReturn(), Move(-1, 0), Move(D.squares, 0), "move", None]


def test_victory_legality_is_checked_exactly_as_listed():
    """``is_legal`` accepts exactly the listed actions (equal values too, not only the listed
    objects), the seat not to move has none, and ``legal_actions`` is what
    :func:`~app.games.stratego_junior.victory.victory_actions` lists."""
    from app.games.stratego_junior.victory import victory_actions

    candidates = _all_candidate_actions()
    checked = 0
    for seed in (1, 2):
        for state, _ in walk(seed, {"variant": "victory"}):
            if state.phase != "play" or state.turn % 9:
                continue
            listed = VICTORY.legal_actions(state, state.to_move)
            assert listed == victory_actions(state, state.to_move) and listed
            legal = set(listed)
            accepted = {a for a in candidates if VICTORY.is_legal(state, state.to_move, a)}
            assert accepted == legal
            assert not any(VICTORY.is_legal(state, 1 - state.to_move, a) for a in legal)
            checked += 1
    assert checked > 20


def test_a_victory_seat_without_actions_loses_when_its_turn_starts():
    castles = {(0, 0): "blue dragon", (0, 1): "blue dragon", (8, 0): "red king"}
    assert VICTORY.position(castles, to_move=RED).phase == "play"
    over = VICTORY.position(castles, to_move=BLUE)
    assert over.phase == "over" and over.outcome == Outcome(("win", "loss"), reason="no_legal_action")
    assert VICTORY.legal_actions(over, BLUE) == () and over.legal == ()


def test_quest_flip_check_matches_the_attackable_squares():
    from app.games.stratego_junior.board import attackable, is_attackable

    checked = 0
    for seed in (3, 4):
        for state, _ in walk(seed, {"variant": "quest"}):
            if state.phase == "setup":
                continue
            for opponent in (0, 1):
                found = attackable(state.board, opponent)
                assert [s for s in range(D.squares) if is_attackable(state.board, opponent, s)] == found
            if state.phase == "flip":
                legal = set(QUEST.legal_actions(state, state.to_move))
                assert {a for a in _flips() if QUEST.is_legal(state, state.to_move, a)} == legal
            checked += 1
    assert checked > 50


def _flips():
    from app.games.stratego_junior import Flip

    return [Flip(s) for s in range(D.squares)]


def test_derived_fields_are_kept_by_every_transition_and_never_stored():
    """``movers`` and ``legal`` (:mod:`app.games.stratego_junior.state`) are what they derive from
    in every state reached, a decoded snapshot derives them again (so it equals the state), and the
    JSON has neither."""
    from app.games.stratego_junior.state import movers_of
    from app.games.stratego_junior.victory import victory_actions

    checked = 0
    for variant, seed in (("victory", 5), ("quest", 6), ("quest", 7)):
        for state, _ in walk(seed, {"variant": variant}):
            rules = rules_of(state)
            assert state.movers == movers_of(state.kinds, state.owners)
            if state.phase in ("play", "flip", "return"):
                assert state.legal == rules._list(state)
                if variant == "victory":
                    assert state.legal == victory_actions(state, state.to_move)
            else:
                assert state.legal == ()
            encoded = rules.encode_state(state)
            assert not {"movers", "legal"} & set(encoded)
            assert rules.decode_state(json.loads(json.dumps(encoded))) == state
            checked += 1
    assert checked > 100


# ============================================================================ whole games, every option


OPTION_SETS = [
    {"variant": "victory"},
    {"variant": "victory", "memory_aid": True},
    {"variant": "quest"},
    {"variant": "quest", "memory_aid": True},
    {"variant": "quest", "black_knight_returns_jester": False, "black_knight_return_optional": True},
]


@pytest.mark.parametrize("options", OPTION_SETS)
def test_invariants_and_replay_for_every_option_set(options):
    rules = rules_for(options)
    for seed in range(3):
        rng = random.Random(seed)
        state = rules.initial_state(2, rules.normalize_options(options))
        pending: dict = {}
        log, events = [], []
        while rules.to_act(state):
            to_act = rules.to_act(state)
            for seat in range(2):
                assert bool(rules.legal_actions(state, seat)) == (seat in to_act)
            seat = min(s for s in to_act if s not in pending)
            action = (
                rules.sample_chance(state, rng)
                if seat == CHANCE
                else rng.choice(list(rules.legal_actions(state, seat)))
            )
            log.append(Record(seat, json.loads(json.dumps(rules.encode_action(action)))))
            step = submit(rules, state, pending, seat, action)
            state, pending = step.state, step.pending
            events.extend(step.events)
        again, again_events = replay(rules, 2, options, log)
        assert again == state
        assert [e.to_json() for e in again_events] == [e.to_json() for e in events]


# ============================================================================ hidden information


def _dicts(value):
    """Every dict inside a JSON value."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _dicts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _dicts(v)


def _unrevealed(state: StrategoState, viewer):
    """uids of castles ``viewer`` has not seen (another seat's, never revealed)."""
    return {u for u in range(len(state.kinds)) if state.owners[u] != viewer and u not in state.revealed}


def _permuted(state: StrategoState, viewer, rng: random.Random) -> StrategoState:
    """``state`` with the identities ``viewer`` has not seen shuffled among themselves, per owner,
    towers included: what ``viewer`` may see must not change."""
    kinds = list(state.kinds)
    for owner in (0, 1):
        if owner == viewer:
            continue
        hidden = [u for u in _unrevealed(state, viewer) if state.owners[u] == owner]
        values = [kinds[u] for u in hidden]
        rng.shuffle(values)
        for u, k in zip(hidden, values, strict=True):
            kinds[u] = k
    towers = list(state.towers)
    for owner in (0, 1):
        if owner != viewer:
            slots = [t for t, k in enumerate(towers[owner]) if k >= 0]
            values = [towers[owner][t] for t in slots]
            rng.shuffle(values)
            row = list(towers[owner])
            for t, k in zip(slots, values, strict=True):
                row[t] = k
            towers[owner] = tuple(row)
    staged = state.staged
    if staged and viewer != state.to_move:
        targets = [t for _, t in staged if t >= 0]
        rng.shuffle(targets)
        it = iter(targets)
        staged = tuple((k, next(it) if t >= 0 else t) for k, t in staged)
    return with_castles(state, tuple(kinds), state.owners, towers=(towers[0], towers[1]), staged=staged)


def _check_frame(state, events, viewer, rng):
    """No unrevealed identity of another seat in ``viewer``'s observation or events."""
    rules = rules_of(state)
    view = rules.observe(state, viewer)
    text = json.dumps(view, sort_keys=True)
    shown_events = [e.view(viewer) for e in events]
    events_text = json.dumps(shown_events, sort_keys=True)
    for secret in rules.secrets(state, viewer):
        assert secret not in text, (viewer, secret)
        assert secret not in events_text, (viewer, secret)
    if state.phase == "over":
        return
    hidden = _unrevealed(state, viewer)
    for d in _dicts([view, shown_events]):
        if "piece" in d and "uid" in d:
            assert d["owner"] == viewer or d["uid"] not in hidden, (viewer, d)
        if "piece" in d and "tower" in d and d.get("owner") != viewer:
            assert state.towers[d["owner"]][d["tower"]] < 0, (viewer, d)  # shown only once it is gone
    # The view does not depend on what the viewer has not seen.
    assert rules.observe(_permuted(state, viewer, rng), viewer) == view
    if viewer is not None:
        assert rules.bot_observation(_permuted(state, viewer, rng), viewer) == rules.bot_observation(state, viewer)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_no_frame_carries_an_unrevealed_identity(options):
    """Whole seeded games (random play and bots): for every state and every viewer, the
    observation and the events it may see hold no identity of the other seat it has not seen, and
    are the same whatever those identities are."""
    rng = random.Random(7)
    expert = StrategoBot()
    rules = rules_for(options)

    def bot(state, seat, r):
        return expert.choose(rules.bot_observation(state, seat), rules.legal_actions(state, seat), r)

    phases, kinds = set(), set()
    for seed, policies in ((11, None), (13, None), (12, {0: bot, 1: bot})):
        for state, events in walk(seed, options, policies):
            phases.add(state.phase)
            kinds.update(e.kind for e in events)
            for viewer in (None, 0, 1):
                _check_frame(state, events, viewer, rng)
    # The walks cover the phases and reveals that matter.
    if options["variant"] == "quest":
        assert {"setup", "roll", "flip", "return", "over"} <= phases
        assert {"flip", "castle_placed", "tower_attacked"} <= kinds
    else:
        assert {"combat", "moved", "tower_attacked", "removed"} <= kinds


def test_setup_events_and_frames_carry_no_identity():
    state = RULES.initial_state(2, {})
    state, events = RULES.apply(state, {0: SETUPS[0], 1: SETUPS[1]})
    for viewer in (None, 0, 1):
        assert events[0].view(viewer) == {"kind": "setup_done", "seats": [0, 1], "first": 0}
        view = RULES.observe(state, viewer)
        for castle in view["castles"]:
            assert ("piece" in castle) == (castle["owner"] == viewer)
        for row in view["towers"]:
            for tower in row:
                assert ("piece" in tower) == (tower["owner"] == viewer)


def test_everything_is_shown_once_over():
    state = final(4)
    assert RULES.secrets(state, None) == []
    view = RULES.observe(state, None)
    assert all("piece" in c for c in view["castles"])
    assert all("piece" in t for row in view["towers"] for t in row if not t.get("empty"))


def test_observation_shape():
    state = VICTORY.position(full_side(RED) | full_side(BLUE))
    view = VICTORY.observe(state, RED)
    assert set(view) == {
        "game",
        "variant",
        "seat",
        "colour",
        "phase",
        "to_act",
        "to_move",
        "turn",
        "geometry",
        "castles",
        "towers",
        "removed",
        "die",
        "access",
        "attackable",
        "returning",
        "restricted",
        "memory_aid",
        "over",
        "outcome",
        "options",
    }
    assert view["colour"] == "red" and view["to_act"] == [RED] and len(view["castles"]) == 32
    assert view["castles"][0] == {"owner": BLUE, "sq": [0, 0], "uid": 0}  # position(): uids follow the squares
    json.dumps(view)
    assert RULES.observe(state, None)["colour"] is None


def test_timeout_action_from_the_seats_view():
    state = RULES.initial_state(2, {})
    action = RULES.timeout_action(state, 0, random.Random(1))
    assert RULES.is_legal(state, 0, action)
    state, _ = RULES.apply(state, {0: SETUPS[0], 1: SETUPS[2]})
    action = RULES.timeout_action(state, 0, random.Random(1))
    assert action in RULES.legal_actions(state, 0)


def test_play_out_through_the_driver_both_variants():
    for variant in VARIANTS:
        rules = rules_for({"variant": variant})
        state, log = play_out(rules, 2, {"variant": variant}, rng=random.Random(2))
        assert rules.outcome(state) is not None and state.variant == variant
        assert log[0].seat in (0, 1) and "setup" in log[0].action
