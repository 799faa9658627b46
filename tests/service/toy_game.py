"""A test-only game, "tally", for the match service's tests: 2-4 seats take turns adding 1 or 2 to
their own tally until one reaches the target; the highest tally wins. It has two variants
(``plain`` and ``double``, where every addition counts twice) and a bot level ``slow`` that
burns two seconds of CPU per move.

The bot workers import this module (``BOT_WORKER_IMPORTS``), so it registers the game when
imported; tests call :func:`install` and :func:`uninstall` so the rest of the suite never sees it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from app.games.core import Action, ActionCodec, BaseRules, Event, Outcome, register, registry
from app.games.core.errors import IllegalAction

NAME = "tally_test"
SLOW_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Add(Action):
    """Add ``n`` (1 or 2) to your tally."""

    key: ClassVar[str] = "add"
    n: int

    def to_value(self) -> Any:
        return self.n

    @classmethod
    def from_value(cls, value: Any) -> Add:
        if value not in (1, 2) or isinstance(value, bool):
            raise ValueError(f"add takes 1 or 2, got {value!r}")
        return cls(value)


@dataclass(frozen=True, slots=True)
class TallyState:
    num_players: int
    target: int
    turn: int = 0
    points: tuple[int, ...] = ()


class Tally(BaseRules[TallyState, Add]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Tally (tests)"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_options: ClassVar[Mapping[str, Any]] = {"target": 6, "variant": "plain"}
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {"variant": ("plain", "double")}
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {"target": (1, 1000)}
    information: ClassVar[str] = "perfect"
    actions: ClassVar[ActionCodec[Any]] = ActionCodec(NAME, Add)
    factor: ClassVar[int] = 1

    def initial_state(self, num_players: int, options: Mapping[str, Any]) -> TallyState:
        self.check_players(num_players)
        return TallyState(num_players, int(options.get("target", 6)), 0, (0,) * num_players)

    def over(self, state: TallyState) -> bool:
        return max(state.points) >= state.target

    def to_act(self, state: TallyState) -> frozenset[int]:
        return frozenset() if self.over(state) else frozenset({state.turn % state.num_players})

    def legal_actions(self, state: TallyState, seat: int) -> Sequence[Add]:
        return [Add(1), Add(2)] if seat in self.to_act(state) else []

    def sample_chance(self, state: TallyState, rng: random.Random) -> Add:
        raise IllegalAction("tally has no chance")

    def apply(self, state: TallyState, actions: Mapping[int, Add]) -> tuple[TallyState, Sequence[Event]]:
        ((seat, action),) = actions.items()
        points = list(state.points)
        points[seat] += action.n * self.factor
        return TallyState(state.num_players, state.target, state.turn + 1, tuple(points)), [
            Event("added", {"seat": seat, "points": points[seat]})
        ]

    def outcome(self, state: TallyState) -> Outcome | None:
        if not self.over(state):
            return None
        best = max(state.points)
        order = sorted(set(state.points), reverse=True)
        return Outcome(
            results=tuple("win" if p == best else "loss" for p in state.points),
            scores=tuple(float(p) for p in state.points),
            reason="target",
            ranks=tuple(order.index(p) + 1 for p in state.points),
        )

    def observe(self, state: TallyState, viewer: int | None) -> dict[str, Any]:
        return {"seat": viewer, "turn": state.turn, "points": list(state.points), "target": state.target}

    def timeout_action(self, state: TallyState, seat: int, rng: random.Random) -> Add:
        return Add(1)

    def encode_state(self, state: TallyState) -> Any:
        return {"n": state.num_players, "target": state.target, "turn": state.turn, "points": list(state.points)}

    def decode_state(self, obj: Any) -> TallyState:
        return TallyState(obj["n"], obj["target"], obj["turn"], tuple(obj["points"]))


class DoubleTally(Tally):
    """The ``double`` variant: every addition counts twice."""

    factor: ClassVar[int] = 2


class RandomBot:
    name: ClassVar[str] = "random"

    def choose(
        self, observation: Mapping[str, Any], legal: Sequence[Any], rng: random.Random, budget_ms: int = 50
    ) -> Any:
        return legal[rng.randrange(len(legal))]


class SlowBot:
    """Thinks for :data:`SLOW_SECONDS` of CPU, then adds 2."""

    name: ClassVar[str] = "slow"

    def choose(
        self, observation: Mapping[str, Any], legal: Sequence[Any], rng: random.Random, budget_ms: int = 50
    ) -> Any:
        end = time.process_time() + SLOW_SECONDS
        n = 0
        while time.process_time() < end:
            n += 1
        return legal[-1]


def install() -> None:
    """Register the game (and its variants and bots) unless it is registered."""
    if NAME not in registry._GAMES:
        plain = Tally()
        register(
            plain,
            bots={"random": RandomBot, "slow": SlowBot},
            variant_option="variant",
            variants={"plain": plain, "double": DoubleTally()},
        )


def uninstall() -> None:
    """Forget the game, so tests that list every game never see it."""
    registry._GAMES.pop(NAME, None)


install()
