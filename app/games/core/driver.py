"""The pure driver: one step of a match, seeded playouts, and replay from a log.

The match service and the replay viewer both go through :func:`submit`, so "replay equals live"
holds by construction and is checked by the conformance suite.

A *log* is a list of :class:`Record`, one per input: a seat's action (or hidden simultaneous
choice) or a chance outcome. Simultaneous seats' choices are held in ``pending`` until every seat in
``to_act`` has chosen; then they are applied together.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import GameOver, IllegalAction, NotYourTurn
from .rules import CHANCE, Event

JSON = Any


@dataclass(frozen=True, slots=True)
class Record:
    """One logged input: ``seat`` (or :data:`CHANCE`) and its action in JSON form."""

    seat: int
    action: JSON


@dataclass(slots=True)
class Step:
    """The result of :func:`submit`: the new state, choices still pending, and the events."""

    state: Any
    pending: dict[int, Any]
    events: list[Event] = field(default_factory=list)
    applied: bool = False  #: True when the engine's ``apply`` ran (the state changed)


class LegalMemo:
    """The legal actions of the last state asked about, per seat: the driver's memo, so one step
    of a playout or a write lists a state's legal actions once (for the policy, the legality check
    and the snapshot), while states and rules stay free of caches.

    Holds a reference to the state it remembers, so an ``id`` is never reused while it is kept.
    """

    __slots__ = ("_legal", "_state")

    def __init__(self) -> None:
        self._state: Any = None
        self._legal: dict[int, Sequence[Any]] = {}

    def legal(self, rules: Any, state: Any, seat: int) -> Sequence[Any]:
        """``rules.legal_actions(state, seat)``, listed once per state and seat."""
        if state is not self._state:
            self._state, self._legal = state, {}
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = rules.legal_actions(state, seat)
        return found

    def is_legal(self, rules: Any, state: Any, seat: int, action: Any) -> bool:
        """Listed, or accepted by ``rules.is_legal`` (choices too many to list, such as setups).

        The listed object itself is looked for first: an action a policy or bot picked from the
        list is found without comparing fields (``in`` calls a dataclass ``__eq__``, in Python, on
        each action listed before it; twice when their classes differ).
        """
        legal = self.legal(rules, state, seat)
        for listed in legal:
            if listed is action:
                return True
        return action in legal or rules.is_legal(state, seat, action)


def submit(
    rules: Any, state: Any, pending: Mapping[int, Any], seat: int, action: Any, memo: LegalMemo | None = None
) -> Step:
    """Submit ``seat``'s ``action`` (a game value, already decoded).

    :param memo: where the legal actions of ``state`` may already be listed (optional).

    :returns: a :class:`Step`; when other simultaneous seats have still to choose, the state is
        unchanged and the choice is kept in ``pending``.
    :raises GameOver: the game has ended.
    :raises NotYourTurn: ``seat`` is not in ``to_act`` or has already chosen.
    :raises IllegalAction: ``rules.is_legal(state, seat, action)`` is false.
    """
    if rules.outcome(state) is not None:
        raise GameOver("the game is over")
    to_act = rules.to_act(state)
    if seat not in to_act:
        raise NotYourTurn(f"seat {seat} is not to act (to act: {sorted(to_act)})")
    if seat in pending:
        raise NotYourTurn(f"seat {seat} has already chosen this turn")
    if seat != CHANCE and not (
        rules.is_legal(state, seat, action) if memo is None else memo.is_legal(rules, state, seat, action)
    ):
        raise IllegalAction(f"{rules.encode_action(action)!r} is not a legal action for seat {seat}")
    chosen = {**pending, seat: action}
    if set(chosen) != set(to_act):
        return Step(state, chosen)
    new_state, events = rules.apply(state, chosen)
    return Step(new_state, {}, list(events), applied=True)


def chance_rng(seed: str, version: int) -> random.Random:
    """The RNG for the chance node reached at ``version`` of a match with secret ``seed``.

    Derived with SHA-256 so that a published seed lets anyone recompute every draw.
    """
    digest = hashlib.sha256(f"{seed}:{version}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


Policy = Callable[[Any, int, random.Random], Any]


def random_policy(rules: Any, memo: LegalMemo | None = None) -> Policy:
    """A policy that picks uniformly among the legal actions."""
    memo = memo or LegalMemo()

    def policy(state: Any, seat: int, rng: random.Random) -> Any:
        return rng.choice(memo.legal(rules, state, seat))

    return policy


def play_out(
    rules: Any,
    num_players: int,
    options: Mapping[str, JSON] | None = None,
    rng: random.Random | None = None,
    policies: Mapping[int, Policy] | None = None,
    max_steps: int = 100_000,
    state: Any = None,
) -> tuple[Any, list[Record]]:
    """Play a game to its end: chance drawn with ``rng``, seats by ``policies`` (default random).

    :returns: the final state and the log of inputs.
    :raises RuntimeError: the game did not end within ``max_steps`` inputs.
    """
    rng = rng or random.Random(0)
    if state is None:
        state = rules.initial_state(num_players, rules.normalize_options(options or {}))
    memo = LegalMemo()
    default = random_policy(rules, memo)
    policies = policies or {}
    log: list[Record] = []
    pending: dict[int, Any] = {}
    for _ in range(max_steps):
        to_act = rules.to_act(state)
        if not to_act:
            return state, log
        for seat in sorted(to_act):
            if seat in pending:
                continue
            if seat == CHANCE:
                action = rules.sample_chance(state, rng)
            else:
                action = policies.get(seat, default)(state, seat, rng)
            log.append(Record(seat, rules.encode_action(action)))
            step = submit(rules, state, pending, seat, action, memo)
            state, pending = step.state, step.pending
            if step.applied:
                break
    raise RuntimeError(f"{rules.name}: no end after {max_steps} inputs")


def replay(
    rules: Any, num_players: int, options: Mapping[str, JSON], log: Iterable[Record], state: Any = None
) -> tuple[Any, list[Event]]:
    """Re-apply a log from the initial state; needs no RNG.

    :returns: the final state and every event produced.
    :raises IllegalAction: the log does not fit the rules.
    """
    if state is None:
        state = rules.initial_state(num_players, rules.normalize_options(options))
    pending: dict[int, Any] = {}
    events: list[Event] = []
    for record in log:
        step = submit(rules, state, pending, record.seat, rules.decode_action(record.action))
        state, pending = step.state, step.pending
        events.extend(step.events)
    return state, events
