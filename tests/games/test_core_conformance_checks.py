"""The conformance suite's checks (``test_conformance.py``) on toy games: a correct toy passes every
check, and each deliberately broken toy fails the check meant to catch it.

The toy: 2-3 seats, chance deals each seat 2 of 12 numbered cards (hidden hands), then the seats play
one card each in turn onto a public pile; the highest card played wins.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from app.games.core import Action, ActionCodec, BadAction, BaseRules, Event, IllegalAction, Outcome, evolve
from tests.games.test_conformance import (
    Case,
    check_no_memoised_methods,
    check_resign,
    check_state_values,
    rules_fingerprint,
    walk,
)
from tests.games.test_conformance import test_hidden_information_is_declared as hidden_information_check
from tests.games.test_conformance import test_random_playouts_end_and_replay_equals_live as playout_check
from tests.games.test_conformance import test_rules_object_keeps_no_cache as no_cache_check

CARDS = tuple(f"c{i}" for i in range(12))


@dataclass(frozen=True, slots=True)
class Deal(Action):
    key: ClassVar[str] = "deal"

    hands: tuple[tuple[str, ...], ...]

    def to_value(self) -> Any:
        return [list(h) for h in self.hands]

    @classmethod
    def from_value(cls, value: Any) -> Deal:
        if not isinstance(value, list):
            raise BadAction("'deal' takes a list of hands")
        return cls(tuple(tuple(h) for h in value))


@dataclass(frozen=True, slots=True)
class Play(Action):
    key: ClassVar[str] = "play"

    card: str

    def to_value(self) -> Any:
        return self.card

    @classmethod
    def from_value(cls, value: Any) -> Play:
        if value not in CARDS:
            raise BadAction(f"unknown card {value!r}")
        return cls(value)


@dataclass(frozen=True, slots=True)
class Table:
    num_players: int
    hands: tuple[tuple[str, ...], ...] = ()
    pile: tuple[str, ...] = ()
    turn: int = -1  # -1: the deal is due
    outcome: Outcome | None = None


class Toy(BaseRules[Any, Any]):
    """The correct toy game."""

    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    information: ClassVar[str] = "imperfect"
    actions: ClassVar[ActionCodec[Any]] = ActionCodec("toy", Deal, Play)

    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> Any:
        self.check_players(num_players)
        return Table(num_players)

    def to_act(self, state: Any) -> frozenset[int]:
        if state.outcome is not None:
            return frozenset()
        return frozenset({-1 if state.turn < 0 else state.turn})

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        if state.outcome is not None or seat != state.turn:
            return []
        return [Play(card) for card in state.hands[seat]]

    def sample_chance(self, state: Any, rng: random.Random) -> Deal:
        cards = list(CARDS)
        rng.shuffle(cards)
        return Deal(tuple(tuple(sorted(cards[2 * s : 2 * s + 2])) for s in range(state.num_players)))

    def apply(self, state: Any, actions: Mapping[int, Any]) -> tuple[Any, list[Event]]:
        if state.turn < 0:
            return evolve(state, hands=actions[-1].hands, turn=0), [Event("dealt")]
        seat, card = state.turn, actions[state.turn].card
        if card not in state.hands[seat]:
            raise IllegalAction(f"{card} is not in the hand")
        hands = tuple(tuple(c for c in h if c != card) if s == seat else h for s, h in enumerate(state.hands))
        pile = (*state.pile, card)
        new = evolve(state, hands=hands, pile=pile, turn=(seat + 1) % state.num_players)
        events = [Event("played", {"seat": seat, "card": card})]
        if not any(hands):
            best = max(range(len(pile)), key=lambda i: int(pile[i][1:])) % state.num_players
            new = evolve(new, outcome=Outcome(tuple("win" if s == best else "loss" for s in range(state.num_players))))
        return new, events

    def outcome(self, state: Any) -> Outcome | None:
        return state.outcome

    def observe(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {
            "seat": viewer,
            "hand": None if viewer is None or not state.hands else list(state.hands[viewer]),
            "hand_sizes": [len(h) for h in state.hands],
            "pile": list(state.pile),
            "turn": state.turn,
        }

    def secrets(self, state: Any, viewer: int | None) -> list[str]:
        return [json.dumps(list(h)) for s, h in enumerate(state.hands) if s != viewer and h]

    def observe_finished(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {**self.observe(state, viewer), "hands": [list(h) for h in state.hands]}

    def encode_state(self, state: Any) -> Any:
        return {
            "n": state.num_players,
            "hands": [list(h) for h in state.hands],
            "pile": list(state.pile),
            "turn": state.turn,
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def decode_state(self, obj: Any) -> Any:
        return Table(
            obj["n"],
            tuple(tuple(h) for h in obj["hands"]),
            tuple(obj["pile"]),
            obj["turn"],
            None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
        )


def run_all_checks(rules: Any) -> None:
    """Every check of the suite for ``rules``, at every player count."""
    case = Case(f"toy-{type(rules).__name__}", rules)
    for n in case.player_counts():
        for seed in case.seeds(n):
            playout_check(case, n, seed)
        hidden_information_check(case, n)
    no_cache_check(case)


def test_the_correct_toy_passes_every_check():
    run_all_checks(Toy())


class OpenToy(Toy):
    """A correct perfect-information variant: every hand is shown."""

    information: ClassVar[str] = "perfect"

    def observe(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {"seat": viewer, "hands": [list(h) for h in state.hands], "pile": list(state.pile)}

    def secrets(self, state: Any, viewer: int | None) -> list[str]:
        return []


def test_a_correct_perfect_information_toy_passes():
    run_all_checks(OpenToy())


# ------------------------------------------------------------------------------------------ broken toys


class LeakyObservation(Toy):
    def observe(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {**super().observe(state, viewer), "all": [list(h) for h in state.hands]}


class LeakyBotObservation(Toy):
    def bot_observation(self, state: Any, seat: int) -> dict[str, Any]:
        peek = list(state.hands[(seat + 1) % state.num_players]) if state.hands else []
        return {**self.observe(state, seat), "peek": peek}


class LeakyEvent(Toy):
    def apply(self, state: Any, actions: Mapping[int, Any]) -> tuple[Any, list[Event]]:
        new, events = super().apply(state, actions)
        return new, [*events, Event("spy", {"hands": [list(h) for h in new.hands]})]


class HidesWhenFinished(Toy):
    def observe_finished(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return self.observe(state, viewer)


class UndeclaredSecrets(Toy):
    def secrets(self, state: Any, viewer: int | None) -> list[str]:
        return []


class NotReallyPerfect(UndeclaredSecrets):
    information: ClassVar[str] = "perfect"


class SecretivePerfect(Toy):
    information: ClassVar[str] = "perfect"

    def observe(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return {"seat": viewer, "pile": list(state.pile)}


@pytest.mark.parametrize(
    "rules, message",
    [
        (LeakyObservation(), "viewer .* sees a secret"),
        (LeakyBotObservation(), "bot sees a secret"),
        (LeakyEvent(), "event 'spy' shows viewer"),
        (HidesWhenFinished(), "a finished match hides from viewer"),
        (UndeclaredSecrets(), "declares no hidden-information fragments"),
        (NotReallyPerfect(), "perfect-information game shows viewers"),
        (SecretivePerfect(), "perfect-information game declares secrets"),
    ],
)
def test_hidden_information_checks_fail_broken_toys(rules, message):
    with pytest.raises(AssertionError, match=message):
        run_all_checks(rules)


class WinningResignation(Toy):
    def resign(self, state: Any, seat: int) -> Outcome | None:
        return Outcome.resignation((seat + 1) % state.num_players, state.num_players)


class ShortResignation(Toy):
    def resign(self, state: Any, seat: int) -> Outcome | None:
        return Outcome.resignation(seat, 2)


class SplitTeam(Toy):
    def resign(self, state: Any, seat: int) -> Outcome | None:
        n = state.num_players
        return Outcome(tuple("loss" if s == seat else "win" for s in range(n)), teams=(0,) * n)


@pytest.mark.parametrize(
    "rules, message",
    [
        (WinningResignation(), "resigned and got 'win'"),
        (ShortResignation(), "not one entry per seat of 3"),
        (SplitTeam(), "of one team differ"),
    ],
)
def test_resign_check_fails_broken_toys(rules, message):
    with pytest.raises(AssertionError, match=message):
        for n in (2, 3):
            state = rules.initial_state(n, {})
            check_resign(rules, rules.apply(state, {-1: rules.sample_chance(state, random.Random(0))})[0], n)


def test_the_toy_resigns_by_the_default():
    toy = Toy()
    state = toy.initial_state(3, {})
    check_resign(toy, state, 3)  # three seats: None, the game goes on
    assert toy.resign(state, 0) is None and toy.resign(Table(2), 1) == Outcome.resignation(1, 2)


class CachingRules(Toy):
    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        key = (state, seat)
        if key not in self.memo:
            self.memo[key] = super().legal_actions(state, seat)
        return self.memo[key]  # type: ignore[no-any-return]


class LazyAttribute(Toy):
    def observe(self, state: Any, viewer: int | None) -> dict[str, Any]:
        self.last_seen = state  # an attribute set after construction
        return super().observe(state, viewer)


class SharedClassCache(Toy):
    seen: ClassVar[set[Any]] = set()

    def to_act(self, state: Any) -> frozenset[int]:
        self.seen.add(state)
        return super().to_act(state)


class MemoisedMethod(Toy):
    @functools.cache  # noqa: B019 - the point of this toy
    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        return super().legal_actions(state, seat)


@pytest.mark.parametrize("rules", [CachingRules(), LazyAttribute(), SharedClassCache()], ids=lambda r: type(r).__name__)
def test_no_cache_check_fails_rules_that_remember(rules):
    with pytest.raises(AssertionError, match="the rules object changed"):
        no_cache_check(Case("toy", rules))
    assert rules_fingerprint(Toy()) == rules_fingerprint(Toy())  # while the check is stable


def test_no_cache_check_fails_memoised_methods():
    with pytest.raises(AssertionError, match="memoised on the rules object"):
        check_no_memoised_methods(MemoisedMethod())


@dataclass(frozen=True, slots=True)
class CachedTable(Table):
    memo: tuple[Any, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class ListTable:
    hands: list[str]


@dataclass
class LooseTable:
    turn: int


@dataclass(frozen=True)
class Inner:
    cache: dict[str, int]


@pytest.mark.parametrize(
    "state, message",
    [
        (CachedTable(2), "compare=False"),
        (ListTable(["c1"]), "mutable list"),
        (LooseTable(0), "not frozen"),
        (Table(2, pile=(Inner({}),)), r"pile\[0\].cache is a mutable dict"),  # type: ignore[arg-type]
        ({"turn": 0}, "not a dataclass"),
    ],
)
def test_state_value_check_fails_states_that_hide_caches(state, message):
    with pytest.raises(AssertionError, match=message):
        check_state_values(state)


def test_a_state_with_compare_false_fails_the_whole_walk():
    class CachedToy(Toy):
        def initial_state(self, num_players: int, options: Mapping[str, Any]) -> Any:
            return CachedTable(num_players)

    with pytest.raises(AssertionError, match="compare=False"):
        walk(Case("toy-cached", CachedToy()), 2, 0)
