"""Every GOLDEN CASE (1-20) of rules/stratego_junior.md, each as its own test with exactly the
stated result. Coordinates are (row, column); seat 0 is red (the spec's P unless stated), seat 1
blue. Positions are built with ``position`` of the variant's rules (:class:`QuestRules`,
:class:`VictoryRules`) or reached through ``apply``.
"""

from __future__ import annotations

import pytest

from app.games.core import CHANCE, IllegalAction
from app.games.stratego_junior import DATA as D
from app.games.stratego_junior import Flip, Move, PlaceTower, QuestRules, TowerAttack, VictoryRules
from app.games.stratego_junior.board import attackable, has_access

QUEST = QuestRules()
VICTORY = VictoryRules()
RED, BLUE = 0, 1
FACES = [D.kinds[k] for k in D.die_faces]


def sq(r: int, c: int) -> int:
    return D.sq(r, c)


def full_side(
    seat: int, fixed: dict[tuple[int, int], str] | None = None, skip: set[tuple[int, int]] = frozenset()
) -> dict[tuple[int, int], str]:
    """``seat``'s whole formation (minus ``skip``) with ``fixed`` kinds where given and the rest of
    the side's castles spread over the other squares in board order."""
    colour = ("red", "blue")[seat]
    fixed = dict(fixed or {})
    pool = [D.kinds[k] for k in D.small_pool]
    for kind in fixed.values():
        pool.remove(kind)
    squares = sorted(D.rc(s) for s in D.formation_squares[seat])
    out = {}
    for r, c in squares:
        if (r, c) in fixed:
            out[(r, c)] = f"{colour} {fixed[(r, c)]}"
        elif (r, c) not in skip:
            out[(r, c)] = f"{colour} {pool.pop(0)}"
    return out


def setup_action(
    seat: int,
    fixed: dict[tuple[int, int], str] | None = None,
    towers_by_slot: tuple[str, str, str] = ("flag", "black_knight", "jester"),
):
    """A setup action for ``seat`` in its own orientation, putting ``fixed`` on those board squares."""
    board = {rc: text.split()[1] for rc, text in full_side(seat, fixed).items()}
    rows = [[board[D.rc(s)] for s in row] for row in D.formation[seat]]
    towers = [towers_by_slot[slot] for slot in D.tower_order[seat]]
    return QUEST.decode_action({"setup": {"towers": towers, "rows": rows}})


def quest_started(blue_fixed=None, red_fixed=None):
    """A Quest game right after both setups: red's die is about to roll."""
    state = QUEST.initial_state(2, {"variant": "quest"})
    state, _ = QUEST.apply(state, {RED: setup_action(RED, red_fixed), BLUE: setup_action(BLUE, blue_fixed)})
    return state


def rules_of(state):
    """The rules ``state`` is played by."""
    return QUEST if state.variant == "quest" else VICTORY


def roll(state, face: str):
    assert QUEST.to_act(state) == {CHANCE}
    state, events = QUEST.apply(state, {CHANCE: QUEST.decode_action({"die": face})})
    assert [e.kind for e in events] == ["die_rolled"]
    assert events[0].data == {"seat": state.to_move, "face": face}
    return state


def act(state, seat: int, obj):
    rules = rules_of(state)
    action = rules.decode_action(obj)
    assert action in rules.legal_actions(state, seat), obj
    assert rules.is_legal(state, seat, action), obj
    return rules.apply(state, {seat: action})


def flips(state) -> set[tuple[int, int]]:
    return {tuple(QUEST.encode_action(a)["flip"]) for a in QUEST.legal_actions(state, state.to_move)}


def blue_at(state, r: int, c: int) -> str | None:
    uid = state.board[sq(r, c)]
    return None if uid < 0 else D.kinds[state.kinds[uid]]


def tower_slots(state, seat: int) -> list[str | None]:
    return [None if k < 0 else D.kinds[k] for k in state.towers[seat]]


# ================================================================================== Quest


def test_case_01_initial_targets_are_the_front_row():
    state = roll(quest_started(), "king")
    assert flips(state) == {(3, 0), (3, 1), (3, 2), (3, 3)}
    assert sorted(D.rc(s) for s in attackable(state.board, BLUE)) == [(3, 0), (3, 1), (3, 2), (3, 3)]


def test_case_02_removal_opens_a_path_orthogonally_only():
    state = roll(quest_started(blue_fixed={(3, 1): "knight"}), "knight")
    state, events = act(state, RED, {"flip": [3, 1]})
    assert events[0].kind == "flip" and events[0].data["falls"] is True
    assert events[0].data["castle"]["piece"] == "knight"
    assert blue_at(state, 3, 1) is None
    # Blue's turn passes (it rolls and flips something of red's, which does not fall).
    assert state.to_move == BLUE
    state = roll(state, "wizard")  # red's wizard is not in its front row
    state, events = act(state, BLUE, {"flip": list(sorted(flips(state))[0])})
    assert events[0].data["falls"] is False
    # Red's next turn.
    state = roll(state, "dwarf")
    assert flips(state) == {(3, 0), (3, 2), (3, 3), (2, 1)}
    assert (2, 0) not in flips(state) and (2, 2) not in flips(state)


def test_case_03_miss():
    state = roll(quest_started(blue_fixed={(3, 0): "unicorn"}), "king")
    state, events = act(state, RED, {"flip": [3, 0]})
    assert [e.kind for e in events] == ["flip"]
    assert events[0].data["castle"] == {"owner": BLUE, "piece": "unicorn", "sq": [3, 0], "uid": state.board[sq(3, 0)]}
    assert events[0].data["falls"] is False
    assert blue_at(state, 3, 0) == "unicorn"  # not removed
    # Turned back: hidden again in red's view (memory aid off), and the turn passes to blue.
    view = QUEST.observe(state, RED)
    castle = next(p for p in view["castles"] if p["sq"] == [3, 0])
    assert "piece" not in castle
    assert state.to_move == BLUE and QUEST.to_act(state) == {CHANCE}


@pytest.mark.parametrize("face", FACES)
def test_case_04_a_dragon_never_falls_and_blocks(face):
    blue = full_side(BLUE, {(3, 2): "dragon"})
    state = QUEST.position({**blue, **full_side(RED)}, die=face)
    assert (3, 2) in flips(state) and (2, 2) not in flips(state)
    state, events = act(state, RED, {"flip": [3, 2]})
    assert events[0].data["falls"] is False and events[0].data["castle"]["piece"] == "dragon"
    assert blue_at(state, 3, 2) == "dragon"
    # (2, 2) can only be reached through (3, 2) while (3, 1) and (3, 3) stand: never attackable.
    assert sq(2, 2) not in attackable(state.board, BLUE)
    # Red's next turn (blue's flip misses): still the same, whatever red rolls next.
    state = roll(state, "wizard")
    state, _ = act(state, BLUE, {"flip": list(sorted(flips(state))[0])})
    state = roll(state, face)
    assert (2, 2) not in flips(state) and (3, 2) in flips(state)


def test_case_05_back_row_access_is_used_on_the_next_turn():
    path = {(3, 1), (2, 1), (1, 1)}
    blue = full_side(BLUE, {(0, 1): "unicorn"}, skip=path)
    gone = [D.kinds[k] for k in D.small_pool]
    for text in blue.values():
        gone.remove(text.split()[1])
    state = QUEST.position({**blue, **full_side(RED)}, die="unicorn", removed={BLUE: gone})
    # Turn t: no tower attack is offered, only the flip after the roll.
    assert all(isinstance(a, Flip) for a in QUEST.legal_actions(state, RED))
    state, events = act(state, RED, {"flip": [0, 1]})
    assert events[0].data["falls"] is True
    assert has_access(state.board, BLUE)
    assert state.to_move == BLUE  # the turn ended: no big-castle attack on turn t
    # Blue's turn: roll and flip (blue has no access to red).
    state = roll(state, "wizard")
    state, _ = act(state, BLUE, {"flip": list(sorted(flips(state))[0])})
    # Red's next turn: any of the 3 big castles, without rolling (no chance step first).
    assert state.to_move == RED and QUEST.to_act(state) == {RED}
    legal = [QUEST.encode_action(a) for a in QUEST.legal_actions(state, RED)]
    assert {"attack_tower": {"tower": 0}} in legal
    assert {"attack_tower": {"tower": 1}} in legal
    assert {"attack_tower": {"tower": 2}} in legal
    assert {"roll": True} in legal
    state, events = act(state, RED, {"attack_tower": {"tower": 2}})
    assert events[0].kind == "tower_attacked" and events[0].data["piece"] == "jester"


def _quest_access_position(blue_towers=("flag", "black_knight", "jester"), removed_blue=(), extra_skip=()):
    """Red to move in Quest with access down column 1 (blue's (3..0, 1) empty)."""
    path = {(3, 1), (2, 1), (1, 1), (0, 1), *extra_skip}
    blue = full_side(BLUE, skip=path)
    gone = [D.kinds[k] for k in D.small_pool]
    for text in blue.values():
        gone.remove(text.split()[1])
    removed = {BLUE: [*gone, *removed_blue]}
    towers = (("flag", "black_knight", "jester"), blue_towers)
    return QUEST.position({**blue, **full_side(RED)}, towers=towers, removed=removed)


def test_case_06_jester():
    state = _quest_access_position()
    assert QUEST.to_act(state) == {RED}
    state, events = act(state, RED, {"attack_tower": {"tower": 2}})
    assert [e.kind for e in events] == ["tower_attacked", "removed"]
    assert events[0].data["piece"] == "jester"
    assert tower_slots(state, BLUE) == ["flag", "black_knight", None]
    assert state.to_move == BLUE  # the turn ends
    state = roll(state, "wizard")
    state, _ = act(state, BLUE, {"flip": list(sorted(flips(state))[0])})
    towers = [a for a in QUEST.legal_actions(state, RED) if isinstance(a, TowerAttack)]
    assert sorted(QUEST.encode_action(a)["attack_tower"]["tower"] for a in towers) == [0, 1]


def test_case_07_black_knight_in_quest_returns_every_removed_castle():
    state = _quest_access_position(blue_towers=("flag", "black_knight", None), removed_blue=("jester",))
    removed_before = sorted(D.kinds[state.kinds[u]] for u in state.removed[BLUE])
    assert len(removed_before) == 4
    state, events = act(state, RED, {"attack_tower": {"tower": 1}})
    assert [e.kind for e in events] == ["tower_attacked", "removed", "castles_returning"]
    assert events[0].data["piece"] == "black_knight"
    assert sorted(events[2].data["pieces"]) == sorted([*removed_before, "jester"])
    # Blue places each returned castle: the jester in an empty tower slot, then the small ones.
    assert state.phase == "return" and QUEST.to_act(state) == {BLUE}
    legal = QUEST.legal_actions(state, BLUE)
    assert all(isinstance(a, PlaceTower) for a in legal) and sorted(a.slot for a in legal) == [1, 2]  # empty slots
    state, _ = act(state, BLUE, {"place": {"tower": 1}})
    empties = [(3, 1), (2, 1), (1, 1), (0, 1)]
    for i, square in enumerate(empties):
        assert sorted(QUEST.encode_action(a)["place"] for a in QUEST.legal_actions(state, BLUE)) == sorted(
            [list(s) for s in empties[i:]]
        )
        state, events = act(state, BLUE, {"place": list(square)})
    assert events[-1].kind == "castles_returned"
    # The Black Knight is gone for good; the jester is back; the formation is full again.
    assert tower_slots(state, BLUE) == ["flag", "jester", None]
    assert D.black_knight in state.big_out[BLUE] and D.jester not in state.big_out[BLUE]
    assert all(state.board[s] >= 0 for s in D.formation_squares[BLUE])
    assert sorted(blue_at(state, *s) for s in empties) == removed_before
    assert state.removed[BLUE] == ()
    # Red has no back-row access until it reopens a path.
    assert not has_access(state.board, BLUE)
    assert state.to_move == BLUE  # then blue plays its own turn
    state = roll(state, "wizard")
    state, _ = act(state, BLUE, {"flip": list(sorted(flips(state))[0])})
    assert QUEST.to_act(state) == {CHANCE}  # red must roll: no tower attack on offer


def test_case_08_flag_wins():
    state = _quest_access_position()
    state, events = act(state, RED, {"attack_tower": {"tower": 0}})
    assert events[0].data["piece"] == "flag"
    outcome = QUEST.outcome(state)
    assert outcome.results == ("win", "loss") and outcome.reason == "flag_captured"
    assert events[-1].kind == "game_over" and events[-1].data["winner"] == RED
    assert QUEST.to_act(state) == frozenset()


# ================================================================================== Victory


def victory(castles: dict[tuple[int, int], str], to_move: int = RED, **kw):
    """A Victory position; each side also gets a far-away spare castle so nobody is out of moves."""
    base = {(8, 3): "red knight", (0, 3): "blue knight"}
    base = {k: v for k, v in base.items() if k not in castles}
    return VICTORY.position({**base, **castles}, to_move=to_move, **kw)


def at(state, r: int, c: int) -> str | None:
    uid = state.board[sq(r, c)]
    return None if uid < 0 else f"{('red', 'blue')[state.owners[uid]]} {D.kinds[state.kinds[uid]]}"


def combat(state, seat, a, b):
    state, events = act(state, seat, {"attack": {"from": list(a), "to": list(b)}})
    assert events[0].kind == "combat"
    return state, events[0].data


def test_case_09_dwarf_beats_dragon():
    state = victory({(4, 1): "red dwarf", (3, 1): "blue dragon"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "attacker"
    assert data["attacker"]["piece"] == "dwarf" and data["defender"]["piece"] == "dragon"
    assert at(state, 3, 1) == "red dwarf" and at(state, 4, 1) is None


def test_case_10_others_lose_to_a_dragon():
    state = victory({(4, 1): "red king", (3, 1): "blue dragon"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "defender"
    assert at(state, 4, 1) is None and at(state, 3, 1) == "blue dragon"


def test_case_11_wizard_beats_king_in_both_directions():
    state = victory({(4, 1): "red wizard", (3, 1): "blue king"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "attacker"
    assert at(state, 3, 1) == "red wizard" and at(state, 4, 1) is None

    state = victory({(4, 1): "red wizard", (3, 1): "blue king"}, to_move=BLUE)
    state, data = combat(state, BLUE, (3, 1), (4, 1))
    assert data["winner"] == "defender"
    assert at(state, 3, 1) is None and at(state, 4, 1) == "red wizard"


def test_case_12_wizard_against_other_pieces():
    state = victory({(4, 1): "red wizard", (3, 1): "blue dwarf"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "defender"
    assert at(state, 4, 1) is None and at(state, 3, 1) == "blue dwarf"

    state = victory({(4, 1): "red wizard", (3, 1): "blue dwarf"}, to_move=BLUE)
    state, data = combat(state, BLUE, (3, 1), (4, 1))
    assert data["winner"] == "attacker"
    assert at(state, 4, 1) == "blue dwarf" and at(state, 3, 1) is None


@pytest.mark.parametrize("kind", ["knight", "unicorn", "dwarf", "wizard"])
def test_case_13_equal_strength_removes_both(kind):
    state = victory({(4, 1): f"red {kind}", (3, 1): f"blue {kind}"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "none"
    assert at(state, 4, 1) is None and at(state, 3, 1) is None


def test_case_14_higher_wins():
    state = victory({(4, 1): "red princess", (3, 1): "blue knight"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "attacker"
    assert at(state, 3, 1) == "red princess" and at(state, 4, 1) is None

    state = victory({(4, 1): "red unicorn", (3, 1): "blue princess"})
    state, data = combat(state, RED, (4, 1), (3, 1))
    assert data["winner"] == "defender"
    assert at(state, 4, 1) is None and at(state, 3, 1) == "blue princess"


def test_case_15_dragons_are_immobile():
    state = victory({(4, 1): "red dragon", (3, 1): "blue knight"})
    dragon = sq(4, 1)
    assert not [a for a in VICTORY.legal_actions(state, RED) if a.from_square == dragon]
    for obj in (
        {"move": {"from": [4, 1], "to": [4, 0]}},
        {"move": {"from": [4, 1], "to": [5, 1]}},
        {"move": {"from": [4, 1], "to": [4, 2]}},
        {"attack": {"from": [4, 1], "to": [3, 1]}},
    ):
        action = VICTORY.decode_action(obj)
        assert not VICTORY.is_legal(state, RED, action)
        with pytest.raises(IllegalAction):
            VICTORY.apply(state, {RED: action})


def test_case_16_no_diagonal_play():
    state = victory({(4, 1): "red king", (3, 0): "blue unicorn", (3, 2): "blue unicorn"})
    for obj in ({"attack": {"from": [4, 1], "to": [3, 0]}}, {"attack": {"from": [4, 1], "to": [3, 2]}}):
        assert not VICTORY.is_legal(state, RED, VICTORY.decode_action(obj))
    empty = victory({(4, 1): "red king"})
    for obj in ({"move": {"from": [4, 1], "to": [3, 0]}}, {"move": {"from": [4, 1], "to": [3, 2]}}):
        assert not VICTORY.is_legal(empty, RED, VICTORY.decode_action(obj))
    targets = {
        tuple(VICTORY.encode_action(a)["move"]["to"])
        for a in VICTORY.legal_actions(empty, RED)
        if isinstance(a, Move) and a.from_square == sq(4, 1)
    }
    assert targets == {(3, 1), (5, 1), (4, 0), (4, 2)}


def _blue_waits(state, step: int):
    """Blue moves its spare knight without ever tripping its own back-and-forth rule."""
    square = [(0, 3), (1, 3), (1, 2), (0, 2)]
    a, b = square[step % 4], square[(step + 1) % 4]
    state, _ = act(state, BLUE, {"move": {"from": list(a), "to": list(b)}})
    return state


def test_case_17_back_and_forth():
    start = victory({(5, 1): "red knight", (7, 2): "red unicorn"})
    state, _ = act(start, RED, {"move": {"from": [5, 1], "to": [4, 1]}})  # Red's turn 1
    state = _blue_waits(state, 0)
    state, _ = act(state, RED, {"move": {"from": [4, 1], "to": [5, 1]}})  # Red's turn 2
    state = _blue_waits(state, 1)
    # Red's turn 3: (5,1)->(4,1) with that knight is illegal ...
    again = VICTORY.decode_action({"move": {"from": [5, 1], "to": [4, 1]}})
    assert not VICTORY.is_legal(state, RED, again)
    with pytest.raises(IllegalAction):
        VICTORY.apply(state, {RED: again})
    assert VICTORY.observe(state, BLUE)["restricted"] == {"from": [5, 1], "to": [4, 1]}
    # ... (5,1)->(5,0) is legal, and so is moving any other piece.
    assert VICTORY.is_legal(state, RED, VICTORY.decode_action({"move": {"from": [5, 1], "to": [5, 0]}}))
    assert VICTORY.is_legal(state, RED, VICTORY.decode_action({"move": {"from": [7, 2], "to": [6, 2]}}))
    # If Red moves another piece on turn 3, the knight may go to (4,1) on turn 4.
    state, _ = act(state, RED, {"move": {"from": [7, 2], "to": [6, 2]}})
    state = _blue_waits(state, 2)
    assert VICTORY.is_legal(state, RED, again)
    state, _ = act(state, RED, {"move": {"from": [5, 1], "to": [4, 1]}})
    assert at(state, 4, 1) == "red knight"


def _unicorn_on_blue_back_row():
    """Turn t: a red unicorn steps onto (0,2); returns the state after blue's reply (turn t+1)."""
    state = victory({(1, 2): "red unicorn", (3, 0): "blue knight", (6, 0): "red knight"})
    assert not [a for a in VICTORY.legal_actions(state, RED) if isinstance(a, TowerAttack)]
    state, _ = act(state, RED, {"move": {"from": [1, 2], "to": [0, 2]}})
    assert state.to_move == BLUE  # turn t is over: no big-castle attack on it
    state, _ = act(state, BLUE, {"move": {"from": [3, 0], "to": [4, 0]}})
    return state


def test_case_18_back_row_attack():
    state = _unicorn_on_blue_back_row()
    towers = [a for a in VICTORY.legal_actions(state, RED) if isinstance(a, TowerAttack)]
    assert towers == [TowerAttack(sq(0, 2), t) for t in range(3)]

    jester, events = act(state, RED, {"attack_tower": {"from": [0, 2], "tower": 2}})
    assert events[0].data["piece"] == "jester"
    assert tower_slots(jester, BLUE) == ["flag", "black_knight", None]
    assert at(jester, 0, 2) == "red unicorn"  # the unicorn stays

    knight, events = act(state, RED, {"attack_tower": {"from": [0, 2], "tower": 1}})
    assert events[0].data["piece"] == "black_knight"
    assert at(knight, 0, 2) is None  # both removed
    assert tower_slots(knight, BLUE) == ["flag", None, "jester"]
    assert knight.removed[BLUE] == () and knight.removed[RED] == (state.board[sq(0, 2)],)
    assert [e.kind for e in events] == ["tower_attacked", "removed"]  # nothing returns

    flag, events = act(state, RED, {"attack_tower": {"from": [0, 2], "tower": 0}})
    assert events[0].data["piece"] == "flag"
    assert VICTORY.outcome(flag).results == ("win", "loss")
    assert VICTORY.outcome(flag).reason == "flag_captured"


def test_case_19_the_two_black_knight_rules_differ():
    # Quest (case 7): the defender's removed castles come back.
    quest = _quest_access_position()
    removed = len(quest.removed[BLUE])
    quest, events = act(quest, RED, {"attack_tower": {"tower": 1}})
    assert events[-1].kind == "castles_returning" and events[-1].data["count"] == removed
    assert quest.phase == "return" and quest.to_move == BLUE
    for _ in range(removed):
        quest, _ = QUEST.apply(quest, {BLUE: QUEST.legal_actions(quest, BLUE)[0]})
    assert all(quest.board[s] >= 0 for s in D.formation_squares[BLUE])
    # Victory (case 18): nothing returns, and the attacker is lost.
    state = _unicorn_on_blue_back_row()
    attacker = state.board[sq(0, 2)]
    state, events = act(state, RED, {"attack_tower": {"from": [0, 2], "tower": 1}})
    assert "castles_returning" not in [e.kind for e in events]
    assert state.pos[attacker] == -1
    assert state.phase == "play" and state.to_move == BLUE


def test_case_20_no_legal_action_loses():
    # At the start of blue's turn, blue has only its 2 dragons: blue loses.
    castles = {
        (4, 1): "red princess",
        (3, 1): "blue knight",
        (0, 0): "blue dragon",
        (0, 1): "blue dragon",
        (8, 0): "red king",
    }
    state = VICTORY.position(castles, to_move=RED)
    assert VICTORY.outcome(state) is None
    state, events = act(state, RED, {"attack": {"from": [4, 1], "to": [3, 1]}})
    outcome = VICTORY.outcome(state)
    assert outcome.results == ("win", "loss") and outcome.reason == "no_legal_action"
    assert events[-1].kind == "game_over"
    # The same position given directly at the start of blue's turn.
    direct = VICTORY.position({(0, 0): "blue dragon", (0, 1): "blue dragon", (8, 0): "red king"}, to_move=BLUE)
    assert VICTORY.outcome(direct).results == ("win", "loss")
    assert VICTORY.to_act(direct) == frozenset()
