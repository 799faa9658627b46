"""The shared conformance suite: every registered game, variant and option set against the engine
contract (DESIGN.md section 2, ``app/games/core``), in the spirit of OpenSpiel's ``api_test.py``.
New games get it for free.

What runs, per case (a game with the options of one variant or level, see :func:`registry_cases`)
and per player count from ``min_players`` to ``max_players`` (fewer seeds for the larger counts):

* seeded random playouts through the driver to the end, with the invariants of :func:`check_state`
  along the way (the cheap ones at every state; the full ones at every state for seed 0 at the
  smallest count, on a sample otherwise); the log replays to the same state and events; actions,
  states, events, outcomes and observations survive JSON;
* hidden information: a game whose ``information`` is ``"imperfect"`` must declare non-empty
  ``secrets`` at some state of its playouts, and no viewer's observation, bot observation or event
  view contains what is secret from that viewer; a ``"perfect"`` game gives every seat and the
  spectator the same observation apart from whose view it is;
* a finished match reveals everything: ``observe_finished`` shows every viewer each fragment
  that ``secrets`` hid from anyone (:func:`check_finished_reveals`);
* ``resign(state, seat)`` at random points returns ``None`` or an :class:`Outcome` with one entry per
  seat where the resigning seat loses (and a team shares one result);
* no caches: the registered rules object is unchanged by a playout and memoises no method; states
  are frozen dataclasses without ``compare=False`` fields or mutable containers.

The check functions take any :class:`Case`, so ``test_core_conformance_checks.py`` runs them on
deliberately broken toy games to show that each one fails when it should.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.games.core import (
    CHANCE,
    Event,
    GameOver,
    NotYourTurn,
    Outcome,
    Record,
    all_games,
    game_variants,
    get_rules,
    play_out,
    replay,
    submit,
)

MAX_STEPS = 20_000
#: chance per applied state of checking ``resign`` for every seat there
RESIGN_RATE = 0.15
#: the full checks run at every state with seed 0 at the smallest player count, otherwise on every
#: SAMPLE_EVERY-th state (and the last)
SAMPLE_EVERY = 5


@dataclass(frozen=True, eq=False)
class Case:
    """One game under test: ``rules`` (as the registry gives them for ``options``) and the match
    options of the variant or level. Hashed by identity."""

    id: str
    rules: Any
    options: Mapping[str, Any] = field(default_factory=dict)

    def player_counts(self) -> range:
        """Every player count the game allows."""
        return range(self.rules.min_players, self.rules.max_players + 1)

    def seeds(self, num_players: int) -> range:
        """4 seeds at the smallest count, 2 up to 4 players, 1 beyond (keeps the suite fast)."""
        if num_players == self.rules.min_players:
            return range(4)
        return range(2) if num_players <= 4 else range(1)


def _variant_option(name: str, default: Any, variants: Mapping[str, Any]) -> str:
    """The match option that picks ``name``'s variant (it must be one of the game's options)."""
    for key in default.default_options:
        if all(get_rules(name, {key: value}) is rules for value, rules in variants.items()):
            return key
    raise AssertionError(f"{name}: none of the options {sorted(default.default_options)} picks {sorted(variants)}")


@functools.cache
def registry_cases() -> tuple[Case, ...]:
    """Every registered game: each variant (``game_variants``), each with its defaults and each of its
    ``conformance_variants`` (levels and other option sets); option sets that normalise alike once."""
    cases: list[Case] = []
    seen: set[tuple[str, str]] = set()
    for name, default in sorted(all_games().items()):
        variants = game_variants(name)
        bases: list[dict[str, Any]] = [{}]
        if variants:
            key = _variant_option(name, default, variants)
            bases = [{key: value} for value in variants]
        for base in bases:
            for extra in [{}, *get_rules(name, base).conformance_variants]:
                options = {**base, **extra}
                rules = get_rules(name, options)
                normal = json.dumps(rules.normalize_options(options), sort_keys=True, default=repr)
                if (name, normal) not in seen:
                    seen.add((name, normal))
                    cases.append(Case(name + "".join(f"-{k}={v}" for k, v in options.items()), rules, options))
    return tuple(cases)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize by ``case`` (and ``num_players``, ``seed`` where a test takes them)."""
    if "case" not in metafunc.fixturenames:
        return
    names = [n for n in ("case", "num_players", "seed") if n in metafunc.fixturenames]
    rows = []
    for case in registry_cases():
        counts = case.player_counts() if "num_players" in names else [None]
        for n in counts:
            for seed in case.seeds(n) if "seed" in names else [None]:
                row = {"case": case, "num_players": n, "seed": seed}
                rows.append(
                    pytest.param(
                        *(row[k] for k in names),
                        id="-".join(
                            [
                                case.id,
                                *([f"{n}p"] if n is not None else []),
                                *([f"s{seed}"] if seed is not None else []),
                            ]
                        ),
                    )
                )
    metafunc.parametrize(names, rows)


# ------------------------------------------------------------------------------------------ checks


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _viewers(num_players: int) -> list[int | None]:
    return [None, *range(num_players)]


def hidden_from(rules: Any, state: Any, num_players: int) -> dict[int | None, set[str]]:
    """Per viewer, the fragments it must not see: its own ``secrets``; for a spectator, everyone's."""
    hidden: dict[int | None, set[str]] = {v: set(rules.secrets(state, v)) for v in _viewers(num_players)}
    hidden[None] = set().union(*hidden.values())
    return hidden


def check_state(rules: Any, state: Any, num_players: int, full: bool) -> bool:
    """The invariants of every state; with ``full`` also JSON round trips, observations and
    hidden information. :returns: whether any viewer has secrets here."""
    to_act = rules.to_act(state)
    assert (rules.outcome(state) is None) == bool(to_act), "over exactly when nobody is to act"
    for seat in range(num_players):
        legal = list(rules.legal_actions(state, seat))
        assert bool(legal) == (seat in to_act), f"seat {seat}: legal actions iff it is to act"
        if full:
            for action in legal:
                assert rules.decode_action(_json(rules.encode_action(action))) == action
    if not full:
        return False
    assert rules.decode_state(_json(rules.encode_state(state))) == state, "state JSON round trip"
    hidden = hidden_from(rules, state, num_players)
    observations = {}
    for viewer in _viewers(num_players):
        observations[viewer] = obs = _json(rules.observe(state, viewer))
        text = json.dumps(obs)
        bot_text = "" if viewer is None else json.dumps(rules.bot_observation(state, viewer))
        for secret in hidden[viewer]:
            assert secret not in text, f"viewer {viewer} sees a secret: {secret[:60]}"
            assert secret not in bot_text, f"seat {viewer}'s bot sees a secret: {secret[:60]}"
        check_finished_reveals(rules, state, viewer, hidden[None])
    if rules.information == "perfect":
        check_same_observations(observations)
    return any(hidden.values())


def check_finished_reveals(rules: Any, state: Any, viewer: int | None, secrets: set[str]) -> None:
    """Issue 16: once a match has ended (by any ending, so at any state), ``observe_finished``
    shows ``viewer`` everything: every fragment that was secret from anyone."""
    text = json.dumps(_json(rules.observe_finished(state, viewer)))
    missing = [s for s in secrets if s not in text]
    assert not missing, f"a finished match hides from viewer {viewer}: {missing[0][:60]}"


def check_same_observations(observations: Mapping[int | None, Any]) -> None:
    """Perfect information: the observations agree once the keys that name the viewer (a top-level
    key whose value is the viewer in every observation, such as ``"seat"``) are left out."""
    objects = [o for o in observations.values() if isinstance(o, dict)]
    keys = set().union(*objects) if len(objects) == len(observations) else set()
    own = {k for k in keys if all(o.get(k, ...) == v for v, o in observations.items())}
    shown = {
        v: json.dumps({k: x for k, x in o.items() if k not in own} if isinstance(o, dict) else o, sort_keys=True)
        for v, o in observations.items()
    }
    differing = [v for v in shown if shown[v] != shown[None]]
    assert not differing, f"a perfect-information game shows viewers {differing} other content than the spectator"


def check_outcome(outcome: Outcome, num_players: int) -> None:
    """One entry per seat in results, ranks and teams; a team shares one result and one rank."""
    assert len(outcome.results) == len(outcome.ranks) == len(outcome.teams) == num_players, (
        f"not one entry per seat of {num_players}: {outcome}"
    )
    assert _json(outcome.to_json()) == outcome.to_json()
    assert Outcome.from_json(_json(outcome.to_json())) == outcome
    for s in range(num_players):
        for t in range(num_players):
            if outcome.teams[s] == outcome.teams[t]:
                assert (outcome.results[s], outcome.ranks[s]) == (outcome.results[t], outcome.ranks[t]), (
                    f"seats {s} and {t} of one team differ: {outcome}"
                )


def check_resign(rules: Any, state: Any, num_players: int) -> None:
    """``resign`` for every seat: ``None`` (play goes on) or an end where that seat loses."""
    before = rules.encode_state(state)
    for seat in range(num_players):
        outcome = rules.resign(state, seat)
        if outcome is None:
            continue
        assert isinstance(outcome, Outcome), f"resign returned {outcome!r}"
        check_outcome(outcome, num_players)
        assert outcome.results[seat] == "loss", f"seat {seat} resigned and got {outcome.results[seat]!r}"
    assert rules.encode_state(state) == before, "resign changed the state"


_MUTABLE = (list, dict, set, bytearray)


def check_state_values(state: Any) -> None:
    """A state is a frozen dataclass whose fields are compared (no ``compare=False`` caches) and
    hold no mutable containers, down through nested dataclasses, tuples and frozensets."""
    assert dataclasses.is_dataclass(state) and not isinstance(state, type), f"{type(state).__name__} is not a dataclass"
    seen: set[int] = set()

    def visit(value: Any, path: str) -> None:
        if id(value) in seen or isinstance(value, str | int | float | bool | type(None) | bytes):
            return
        seen.add(id(value))
        assert not isinstance(value, _MUTABLE), f"{path} is a mutable {type(value).__name__}"
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            cls = type(value)
            frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
            assert frozen, f"{path}: {cls.__name__} is not frozen"
            for f in dataclasses.fields(value):
                assert f.compare, f"{path}.{f.name}: a field with compare=False (a cache?) in {cls.__name__}"
                visit(getattr(value, f.name), f"{path}.{f.name}")
        elif isinstance(value, tuple | frozenset):
            for i, item in enumerate(value):
                visit(item, f"{path}[{i}]")

    visit(state, type(state).__name__)


def rules_fingerprint(rules: Any) -> tuple[Any, ...]:
    """What a rules object holds, by identity, four levels deep: its attributes (``vars`` and slots)
    and the non-callable attributes of its classes. Any cache that fills, any attribute set after
    construction changes it."""
    seen: set[int] = set()

    def graph(value: Any, depth: int) -> Any:
        if depth == 0 or id(value) in seen or isinstance(value, str | int | float | bool | type(None) | bytes | type):
            return id(value)
        seen.add(id(value))
        if isinstance(value, dict):
            children = [x for item in value.items() for x in item]
        elif isinstance(value, list | tuple):
            children = list(value)
        elif isinstance(value, set | frozenset):
            children = sorted(value, key=id)
        else:
            children = [getattr(value, n) for n in _attribute_names(value) if hasattr(value, n)]
        return (id(value), type(value).__name__, len(children), tuple(graph(c, depth - 1) for c in children[:5000]))

    own = {n: getattr(rules, n) for n in _attribute_names(rules) if hasattr(rules, n)}
    shared = {
        f"{cls.__name__}.{n}": v
        for cls in type(rules).__mro__
        if cls.__module__ not in ("builtins", "typing")
        for n, v in vars(cls).items()
        if not n.startswith("__") and not callable(v) and not isinstance(v, property | classmethod | staticmethod)
    }
    return tuple((name, graph(value, 4)) for name, value in sorted({**own, **shared}.items()))


def _attribute_names(obj: Any) -> list[str]:
    names = list(vars(obj)) if hasattr(obj, "__dict__") else []
    for cls in type(obj).__mro__:
        slots = vars(cls).get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [s for s in slots if s not in ("__dict__", "__weakref__")]
    return sorted(set(names))


def check_no_memoised_methods(rules: Any) -> None:
    """No method of the rules is wrapped in ``functools.cache``/``lru_cache`` (a cache on the rules)."""
    for cls in type(rules).__mro__:
        for name, value in vars(cls).items():
            assert not hasattr(value, "cache_info"), f"{cls.__name__}.{name} is memoised on the rules object"
    for name in _attribute_names(rules):
        assert not hasattr(getattr(rules, name, None), "cache_info"), f"attribute {name} is a memoised function"


# ------------------------------------------------------------------------------------------ playouts


@dataclass
class Walk:
    """A finished random playout: its log, events, and what the checks saw."""

    final: Any
    log: list[Record]
    events: list[Event]
    applied: int
    secrets_seen: bool
    resigns_checked: int


@functools.cache
def walk(case: Case, num_players: int, seed: int) -> Walk:
    """A seeded random game through the driver, checked along the way (see the module docstring).
    The checks draw from their own RNG, so they never change the game."""
    rules = case.rules
    rng, check_rng = random.Random(seed), random.Random(f"checks-{seed}")
    state = rules.initial_state(num_players, rules.normalize_options(case.options))
    check_state_values(state)
    pending: dict[int, Any] = {}
    log: list[Record] = []
    events: list[Event] = []
    applied = resigns = 0
    secrets_seen = False
    every_state = seed == 0 and num_players == rules.min_players
    for _ in range(MAX_STEPS):
        to_act = rules.to_act(state)
        if not pending:
            full = every_state or applied % SAMPLE_EVERY == 0 or not to_act
            secrets_seen |= check_state(rules, state, num_players, full)
            if full:
                check_state_values(state)
            if to_act and (resigns == 0 or check_rng.random() < RESIGN_RATE):
                check_resign(rules, state, num_players)
                resigns += 1
        if not to_act:
            outcome = rules.outcome(state)
            check_outcome(outcome, num_players)
            return Walk(state, log, events, applied, secrets_seen, resigns)
        seat = min(s for s in to_act if s not in pending)
        if seat == CHANCE:
            action = rules.sample_chance(state, rng)
        else:
            action = rng.choice(list(rules.legal_actions(state, seat)))
        wire = rules.encode_action(action)
        assert rules.decode_action(_json(wire)) == action, f"action JSON round trip: {wire!r}"
        log.append(Record(seat, _json(wire)))
        step = submit(rules, state, pending, seat, action)
        state, pending = step.state, step.pending
        if step.applied:
            applied += 1
            check_events(rules, state, num_players, step.events)
            events.extend(step.events)
    raise AssertionError(f"{case.id}: no end within {MAX_STEPS} inputs")


def check_events(rules: Any, state: Any, num_players: int, new_events: list[Event]) -> None:
    """Events are JSON-safe and no viewer's view of them holds what is secret from it after them."""
    if not new_events:
        return
    hidden = hidden_from(rules, state, num_players)
    for event in new_events:
        json.dumps(event.to_json())
        for viewer, secrets in hidden.items():
            shown = json.dumps(event.view(viewer))
            leaked = [s for s in secrets if s in shown]
            assert not leaked, f"event {event.kind!r} shows viewer {viewer} a secret: {leaked[0][:60]}"


# ------------------------------------------------------------------------------------------ tests


def test_random_playouts_end_and_replay_equals_live(case, num_players, seed):
    played = walk(case, num_players, seed)
    rules = case.rules
    assert rules.outcome(played.final) is not None and rules.to_act(played.final) == frozenset()
    assert played.applied >= 1
    replayed, replayed_events = replay(rules, num_players, case.options, played.log)
    assert rules.encode_state(replayed) == rules.encode_state(played.final)
    assert rules.outcome(replayed) == rules.outcome(played.final)
    assert [e.to_json() for e in replayed_events] == [e.to_json() for e in played.events]


def test_hidden_information_is_declared(case, num_players):
    rules = case.rules
    assert rules.information in ("perfect", "imperfect"), f"information = {rules.information!r}"
    walks = [walk(case, num_players, seed) for seed in case.seeds(num_players)]
    declared = any(w.secrets_seen for w in walks)
    if rules.information == "imperfect":
        assert declared, (
            f"{case.id}: an imperfect-information game that declares no hidden-information fragments "
            f"(secrets) in {len(walks)} playouts of {num_players} players"
        )
    else:
        assert not declared, f"{case.id}: a perfect-information game declares secrets"


def test_play_out_through_the_driver(case, num_players):
    state, log = play_out(
        case.rules, num_players, case.options, rng=random.Random(1000 + num_players), max_steps=MAX_STEPS
    )
    assert case.rules.to_act(state) == frozenset() and log
    check_outcome(case.rules.outcome(state), num_players)


def test_rules_object_keeps_no_cache(case):
    rules = case.rules
    check_no_memoised_methods(rules)
    before = rules_fingerprint(rules)
    for n in case.player_counts():
        state, _ = play_out(rules, n, case.options, rng=random.Random(77), max_steps=MAX_STEPS)
        for viewer in _viewers(n):
            rules.observe(state, viewer)
    assert rules_fingerprint(rules) == before, f"{case.id}: the rules object changed during a playout (a cache?)"


def _random_action(rules: Any, state: Any, seat: int, rng: random.Random) -> Any:
    return rules.sample_chance(state, rng) if seat == CHANCE else rng.choice(list(rules.legal_actions(state, seat)))


def test_driver_refusals(case):
    rules = case.rules
    num_players = rules.min_players
    rng = random.Random(7)
    state = rules.initial_state(num_players, rules.normalize_options(case.options))
    refused_outsider = checked_second_choice = False
    any_action = None
    while rules.to_act(state):
        to_act = rules.to_act(state)
        actions = {s: _random_action(rules, state, s, rng) for s in sorted(to_act)}
        any_action = next(iter(actions.values()))
        outsiders = [s for s in (CHANCE, *range(num_players)) if s not in to_act]
        if outsiders and not refused_outsider:
            with pytest.raises(NotYourTurn):
                submit(rules, state, {}, outsiders[0], any_action)
            refused_outsider = True
        seats = sorted(s for s in to_act if s != CHANCE)
        if len(seats) >= 2 and not checked_second_choice:  # simultaneous: a second choice is refused
            step = submit(rules, state, {}, seats[0], actions[seats[0]])
            assert not step.applied and step.pending == {seats[0]: actions[seats[0]]} and step.state is state
            with pytest.raises(NotYourTurn):
                submit(rules, state, step.pending, seats[0], actions[seats[0]])
            checked_second_choice = True
        state, _ = rules.apply(state, actions)
    assert refused_outsider, "every state had everyone to act"
    for seat in (CHANCE, *range(num_players)):
        with pytest.raises(GameOver):
            submit(rules, state, {}, seat, any_action)


def test_registry_cases_cover_every_game_and_variant():
    cases = registry_cases()
    names = {case.rules.name for case in cases}
    assert names == set(all_games())
    for name in names:
        for value, rules in game_variants(name).items():
            assert any(case.rules is rules for case in cases), f"{name}: variant {value!r} is not run"
    assert len({case.id for case in cases}) == len(cases)
