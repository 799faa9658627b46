"""The engine kit itself (``app/games/core``): the action codec, ``evolve``, ``Outcome`` with teams
and resignations, the registry with variants, the driver's ``LegalMemo`` and the ``BaseRules``
defaults. Toy games only: these tests do not depend on any real game."""

from __future__ import annotations

import dataclasses
import importlib
import random
from dataclasses import dataclass
from typing import ClassVar

import pytest

from app.games.core import (
    CHANCE,
    Action,
    ActionCodec,
    BadAction,
    BadOptions,
    BaseRules,
    LegalMemo,
    Outcome,
    evolve,
    registry,
)

# ------------------------------------------------------------------------------------------ toy actions


@dataclass(frozen=True, slots=True)
class Roll(Action):
    key: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Move(Action):
    key: ClassVar[str] = "move"

    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class Say(Action):
    """Custom wire value: a bare string of at most 5 letters."""

    key: ClassVar[str] = "say"

    text: str

    def to_value(self) -> str:
        return self.text

    @classmethod
    def from_value(cls, value: object) -> Say:
        if not isinstance(value, str):
            raise BadAction(f"'say' takes a string, got {value!r}")
        if len(value) > 5:
            raise ValueError("too long")  # the codec turns it into BadAction
        return cls(value)


@dataclass(frozen=True, slots=True)
class Other(Action):
    key: ClassVar[str] = "roll"  # same key as Roll, but another game's class


CODEC = ActionCodec("toy", Roll, Move, Say)


# ------------------------------------------------------------------------------------------ ActionCodec


def test_codec_encodes_by_type():
    assert CODEC.encode(Roll()) == {"roll": True}
    assert CODEC.encode(Move(1, 2)) == {"move": {"frm": 1, "to": 2}}
    assert CODEC.encode(Say("hi")) == {"say": "hi"}
    assert Move(3, 4).to_json() == {"move": {"frm": 3, "to": 4}}


def test_codec_decodes_by_key_and_round_trips():
    for action in (Roll(), Move(0, 5), Say("abc")):
        decoded = CODEC.decode(CODEC.encode(action))
        assert decoded == action and type(decoded) is type(action)
    assert CODEC.decode({"move": {"to": 2, "frm": 1}}) == Move(1, 2)


@pytest.mark.parametrize("obj", [{"jump": True}, {"Roll": True}, {1: True}])
def test_codec_refuses_an_unknown_key(obj):
    with pytest.raises(BadAction, match=r"toy: unknown action") as info:
        CODEC.decode(obj)
    assert "move" in str(info.value)  # the message lists the known keys


@pytest.mark.parametrize("obj", [{}, {"roll": True, "say": "x"}, None, [["roll", True]], "roll", 7])
def test_codec_refuses_anything_but_one_key(obj):
    with pytest.raises(BadAction, match="one key"):
        CODEC.decode(obj)


@pytest.mark.parametrize(
    "obj",
    [
        {"roll": False},  # a field-less action takes true
        {"roll": {}},
        {"move": {"frm": 1}},  # a field missing
        {"move": {"frm": 1, "to": 2, "via": 3}},  # an extra field
        {"move": [1, 2]},
        {"say": 5},  # the class's own check (BadAction)
        {"say": "toolong"},  # the class raised ValueError
    ],
)
def test_codec_refuses_a_bad_value(obj):
    with pytest.raises(BadAction, match=r"^toy: "):
        CODEC.decode(obj)


@pytest.mark.parametrize("action", [Other(), ("move", 1, 2), "roll", None])
def test_codec_refuses_a_foreign_action(action):
    with pytest.raises(BadAction, match="not an action of this game"):
        CODEC.encode(action)


def test_codec_refuses_two_classes_with_one_key():
    with pytest.raises(ValueError, match="'roll'"):
        ActionCodec("toy", Roll, Other)


# ------------------------------------------------------------------------------------------ evolve


@dataclass(frozen=True, slots=True)
class Position:
    turn: int
    scores: tuple[int, int]
    log: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.turn < 0:
            raise ValueError("negative turn")


def test_evolve_changes_fields_and_leaves_the_original_untouched():
    before = Position(1, (10, 20), ("a",))
    after = evolve(before, turn=2, log=("a", "b"))
    assert after == Position(2, (10, 20), ("a", "b"))
    assert type(after) is Position and after is not before
    assert before == Position(1, (10, 20), ("a",))
    assert after.scores is before.scores  # unchanged fields are shared, not copied
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.turn = 3  # type: ignore[misc]


def test_evolve_without_changes_is_an_equal_copy():
    before = Position(4, (1, 2))
    copy = evolve(before)
    assert copy == before and copy is not before and hash(copy) == hash(before)


def test_evolve_refuses_an_unknown_field():
    before = Position(1, (0, 0))
    with pytest.raises(TypeError, match="'score'"):
        evolve(before, score=(1, 1))
    assert before == Position(1, (0, 0))


def test_the_compiled_evolve_refuses_unknown_fields_and_leaves_the_original_untouched():
    """The evolver generated for a class checks every name before it copies anything, also when
    known fields come with the unknown one, and names the first unknown one (sorted)."""
    scores, log = (3, 4), ("a",)
    before = Position(2, scores, log)
    evolve(before, turn=3)  # the class's evolver exists before the refusals below
    for changes in ({"score": (1, 1)}, {"turn": 9, "zeta": 1, "log": ("b",)}, {"scores": (0, 0), "alpha": 0}):
        with pytest.raises(TypeError, match=r"Position has no field '(score|alpha|zeta)'"):
            evolve(before, **changes)
    with pytest.raises(TypeError, match="'alpha'"):
        evolve(before, zeta=1, alpha=2)
    assert before == Position(2, (3, 4), ("a",))
    assert before.scores is scores and before.log is log


@dataclass(frozen=True)
class Unslotted:
    turn: int
    name: str = "x"


def test_evolve_works_on_dataclasses_without_slots_and_refuses_other_values():
    before = Unslotted(1)
    after = evolve(before, name="y")
    assert after == Unslotted(1, "y") and before == Unslotted(1)
    with pytest.raises(TypeError, match="'nope'"):
        evolve(before, nope=1)
    with pytest.raises(TypeError, match="dataclass"):
        evolve((1, 2), turn=1)


def test_evolve_skips_post_init_like_its_docstring_says():
    assert evolve(Position(1, (0, 0)), turn=-1).turn == -1  # the caller keeps the invariants
    assert dataclasses.replace(Position(1, (0, 0)), turn=2) == evolve(Position(1, (0, 0)), turn=2)


# ------------------------------------------------------------------------------------------ Outcome


def test_resignation_of_two_seats():
    outcome = Outcome.resignation(1, 2)
    assert outcome.results == ("win", "loss")
    assert outcome.ranks == (1, 2) and outcome.teams == (0, 1)
    assert outcome.resigned == frozenset({1}) and outcome.reason == "resigned"
    assert outcome.winners == (0,)


def test_resignation_with_teams_loses_for_the_whole_team():
    outcome = Outcome.resignation(2, 4, teams=(0, 1, 0, 1))
    assert outcome.results == ("loss", "win", "loss", "win")
    assert outcome.ranks == (2, 1, 2, 1)
    assert outcome.teams == (0, 1, 0, 1)
    assert outcome.resigned == frozenset({2})


def test_resignation_free_for_all_of_more_seats():
    outcome = Outcome.resignation(0, 3)
    assert outcome.results == ("loss", "win", "win") and outcome.teams == (0, 1, 2)


def test_outcome_defaults_and_checks():
    outcome = Outcome(("draw", "win", "loss"))
    assert outcome.ranks == (2, 1, 3) and outcome.teams == (0, 1, 2) and outcome.resigned == frozenset()
    with pytest.raises(ValueError):
        Outcome(("win", "lose"))
    with pytest.raises(ValueError):
        Outcome(("win", "loss"), teams=(0, 1, 2))
    with pytest.raises(ValueError):
        Outcome(("win", "loss"), ranks=(1,))


def test_outcome_json_round_trip():
    outcome = Outcome(
        ("loss", "win", "loss", "win"), (3, 9, 1, 9), "treasure", teams=(0, 1, 0, 1), resigned=frozenset({2})
    )
    data = outcome.to_json()
    assert data == {
        "results": ["loss", "win", "loss", "win"],
        "scores": [3, 9, 1, 9],
        "reason": "treasure",
        "ranks": [2, 1, 2, 1],
        "teams": [0, 1, 0, 1],
        "resigned": [2],
    }
    assert Outcome.from_json(data) == outcome


def test_outcome_from_old_json_without_teams():
    old = {"results": ["win", "loss"], "scores": [53, 29], "reason": "score_50", "ranks": [1, 2]}
    outcome = Outcome.from_json(old)
    assert outcome == Outcome(("win", "loss"), (53, 29), "score_50")
    assert outcome.teams == (0, 1) and outcome.resigned == frozenset()
    assert Outcome.from_json({"results": ["draw", "draw"]}).ranks == (1, 1)


# ------------------------------------------------------------------------------------------ toy rules


@dataclass(frozen=True, slots=True)
class Count:
    """A toy game: seat 0 adds 1 or 2 until the total reaches ``target``."""

    total: int
    target: int


class CountRules(BaseRules[Count, Move]):
    name: ClassVar[str] = "toy_count"
    title: ClassVar[str] = "Count"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    default_options: ClassVar[dict[str, object]] = {"target": 5, "mode": "plain"}
    option_choices: ClassVar[dict[str, tuple[object, ...]]] = {"mode": ("plain", "fancy")}
    option_ranges: ClassVar[dict[str, tuple[float, float]]] = {"target": (1, 100)}
    actions: ClassVar[ActionCodec[Move]] = ActionCodec("toy_count", Move)

    def initial_state(self, num_players: int, options: dict[str, object]) -> Count:
        return Count(0, int(options.get("target", 5)))  # type: ignore[call-overload]

    def to_act(self, state: Count) -> frozenset[int]:
        return frozenset() if state.total >= state.target else frozenset({0})

    def legal_actions(self, state: Count, seat: int) -> list[Move]:
        if seat != 0 or state.total >= state.target:
            return []
        return [Move(state.total, state.total + 1), Move(state.total, state.total + 2)]

    def apply(self, state: Count, actions: dict[int, Move]) -> tuple[Count, list[object]]:
        return evolve(state, total=actions[0].to), []

    def outcome(self, state: Count) -> Outcome | None:
        return Outcome(("win", "loss")) if state.total >= state.target else None


class FancyCount(CountRules):
    pass


def test_base_rules_normalize_options():
    rules = CountRules()
    assert rules.normalize_options({}) == {"target": 5, "mode": "plain"}
    assert rules.normalize_options({"mode": "fancy", "target": 7}) == {"target": 7, "mode": "fancy"}
    for bad in ({"colour": 1}, {"target": "5"}, {"target": True}, {"mode": "odd"}, {"target": 0}):
        with pytest.raises(BadOptions):
            rules.normalize_options(bad)


def test_base_rules_resign_visibility_and_codec():
    rules = CountRules()
    state = Count(0, 5)
    assert rules.resign(state, 0) == Outcome.resignation(0, 2)  # two seats: the other wins
    assert rules.action_visible_to(state, CHANCE, Move(0, 1)) == frozenset()
    assert rules.action_visible_to(state, 0, Move(0, 1)) is None  # one seat to act: public
    assert rules.decode_action(rules.encode_action(Move(0, 2))) == Move(0, 2)
    assert rules.secrets(state, None) == ()
    with pytest.raises(BadAction):
        rules.decode_action({"roll": True})
    with pytest.raises(BadAction) as refused:
        rules.validate_deck({})
    assert refused.value.wire_params() == {"reason": "no_decks"}

    @dataclass(frozen=True, slots=True)
    class Three:
        num_players: int = 3

    assert rules.resign(Three(), 1) is None  # more seats: the game goes on


# ------------------------------------------------------------------------------------------ registry


@pytest.fixture
def empty_registry(monkeypatch):
    """A registry holding only what a test registers (the real games are not loaded)."""
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_loaded", True)


class _Bot:
    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, observation, legal, rng, budget_ms=50):
        return legal[0]


def test_registry_variants(empty_registry):
    plain, fancy = CountRules(), FancyCount()
    bots = {"easy": lambda: _Bot("easy"), "hard": lambda: _Bot("hard")}
    assert registry.register(plain, bots, variant_option="mode", variants={"plain": plain, "fancy": fancy}) is plain
    assert registry.get_rules("toy_count") is plain
    assert registry.get_rules("toy_count", {}) is plain
    assert registry.get_rules("toy_count", {"target": 9}) is plain  # no variant option: the default
    assert registry.get_rules("toy_count", {"mode": "fancy", "target": 9}) is fancy
    assert registry.get_rules("toy_count", {"mode": "plain"}) is plain
    assert registry.game_variants("toy_count") == {"plain": plain, "fancy": fancy}
    assert registry.all_games() == {"toy_count": plain}
    assert registry.bot_levels("toy_count") == ["easy", "hard"]
    assert registry.make_bot("toy_count").name == "hard"  # strongest last
    assert registry.make_bot("toy_count", "easy").name == "easy"


@pytest.mark.parametrize("options", [{"mode": "odd"}, {"mode": ["fancy"]}, {"mode": None}])
def test_registry_refuses_an_unknown_variant(empty_registry, options):
    registry.register(CountRules(), variant_option="mode", variants={"plain": CountRules(), "fancy": FancyCount()})
    with pytest.raises(BadOptions, match="unknown mode"):
        registry.get_rules("toy_count", options)


def test_registry_errors(empty_registry):
    rules = CountRules()
    registry.register(rules)
    assert registry.game_variants("toy_count") == {}
    assert registry.get_rules("toy_count", {"mode": "fancy"}) is rules  # no variants registered
    with pytest.raises(ValueError, match="twice"):
        registry.register(CountRules())
    with pytest.raises(BadOptions, match="unknown game"):
        registry.get_rules("chess")
    with pytest.raises(BadOptions, match="no computer player"):
        registry.make_bot("toy_count")

    class Renamed(CountRules):
        name: ClassVar[str] = "toy_other"

    with pytest.raises(ValueError, match="variant of 'toy_other' is named 'toy_count'"):
        registry.register(Renamed(), variant_option="mode", variants={"x": CountRules()})
    registry.register(Renamed(), {"easy": lambda: _Bot("easy")})
    with pytest.raises(BadOptions, match="unknown bot level"):
        registry.make_bot("toy_other", "hard")


def test_registry_load_failure_is_not_forgotten(monkeypatch):
    """A game package that fails to import fails every call, not only the first one (a registry
    that silently lacks games would let the conformance suite skip them)."""
    monkeypatch.setattr(registry, "_GAMES", {})
    monkeypatch.setattr(registry, "_loaded", False)

    def broken(name, package=None):
        raise ImportError(f"broken {name}")

    monkeypatch.setattr(importlib, "import_module", broken)
    for _ in range(2):
        with pytest.raises(ImportError, match=r"broken app\.games\."):
            registry.all_games()


# ------------------------------------------------------------------------------------------ LegalMemo


class _Counting(CountRules):
    def __init__(self) -> None:
        self.calls: list[tuple[Count, int]] = []

    def legal_actions(self, state: Count, seat: int) -> list[Move]:
        self.calls.append((state, seat))
        return super().legal_actions(state, seat)

    def is_legal(self, state: Count, seat: int, action: Move) -> bool:
        return seat == 0 and action.frm == state.total and action.to == state.total + 3  # unlisted but fine


def test_legal_memo_lists_a_state_once_per_seat():
    rules, memo = _Counting(), LegalMemo()
    state = Count(0, 5)
    first = memo.legal(rules, state, 0)
    assert memo.legal(rules, state, 0) is first
    assert memo.legal(rules, state, 1) == []
    assert rules.calls == [(state, 0), (state, 1)]
    assert memo.is_legal(rules, state, 0, Move(0, 1)) and len(rules.calls) == 2  # from the memo
    assert memo.is_legal(rules, state, 0, Move(0, 3))  # not listed: asks rules.is_legal
    assert not memo.is_legal(rules, state, 0, Move(0, 4))
    other = Count(1, 5)  # equal values are not enough: a new state object is listed again
    memo.legal(rules, other, 0)
    memo.legal(rules, state, 0)
    assert rules.calls[2:] == [(other, 0), (state, 0)]


_COMPARED: list[Spy] = []


@dataclass(frozen=True, slots=True, eq=False)
class Spy(Action):
    """An action whose ``==`` is counted (``in`` on a list calls it on every item before a match)."""

    key: ClassVar[str] = "spy"
    n: int

    def __eq__(self, other: object) -> bool:
        _COMPARED.append(self)
        return isinstance(other, Spy) and other.n == self.n

    def __hash__(self) -> int:
        return hash(self.n)


class _Spies(BaseRules[Count, Spy]):
    name = "spies"
    min_players = max_players = 1

    def legal_actions(self, state: Count, seat: int) -> list[Spy]:
        return [Spy(n) for n in range(5)]

    def is_legal(self, state: Count, seat: int, action: Spy) -> bool:
        return False


def test_legal_memo_finds_the_listed_object_without_comparing_fields():
    rules, memo = _Spies(), LegalMemo()
    state = Count(0, 5)
    listed = memo.legal(rules, state, 0)
    _COMPARED.clear()
    assert memo.is_legal(rules, state, 0, listed[-1]) and _COMPARED == []
    assert memo.is_legal(rules, state, 0, Spy(3)) and _COMPARED  # an equal value: found by ==
    assert not memo.is_legal(rules, state, 0, Spy(9))


def test_legal_memo_in_play_out():
    from app.games.core import play_out

    rules = _Counting()
    final, log = play_out(rules, 2, rng=random.Random(3))
    assert final.total >= 5 and log
    assert len(rules.calls) == len(log)  # one listing per decision, for the policy and the check


@dataclass(frozen=True, slots=True)
class SlottedBase:
    turn: int


@dataclass(frozen=True, slots=True)
class SlottedChild(SlottedBase):
    name: str = "x"


def test_evolve_fills_a_slotted_state_through_its_twin_and_the_copy_is_a_true_instance():
    """A class that keeps exactly its fields in its own slots is copied through a mutable twin of
    the same layout (``state._twin``); the copy is of the class itself, frozen, equal and hashable
    like one made by ``__init__``. A subclass whose fields live in two classes' slots falls back to
    the slot setters and gives the same result."""
    from app.games.core.state import _twin

    assert _twin(Position, [f.name for f in dataclasses.fields(Position)]) is not None
    assert _twin(SlottedChild, ["turn", "name"]) is None  # its fields are in two classes' slots
    before = Position(2, (3, 4), ("a",))
    after = evolve(before, turn=5, log=())
    assert type(after) is Position and after == Position(5, (3, 4), ()) and hash(after) == hash(Position(5, (3, 4), ()))
    assert before == Position(2, (3, 4), ("a",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.turn = 6  # type: ignore[misc]
    child = evolve(SlottedChild(1, "a"), name="b")
    assert type(child) is SlottedChild and child == SlottedChild(1, "b")
    assert evolve(child, turn=2) == SlottedChild(2, "b")
