"""The shared conformance suite: every registered game against the core contract (DESIGN.md
section 2), in the spirit of OpenSpiel's ``api_test.py``. New games get it for free.

A game may define ``secrets(state, viewer) -> list[str]``: JSON fragments that must never appear in
``viewer``'s serialised observation (deck orders, hidden hands, unrevealed pieces).
"""

from __future__ import annotations

import json
import random

import pytest

from app.games.core import (
    CHANCE,
    GameOver,
    NotYourTurn,
    Record,
    all_games,
    play_out,
    replay,
    submit,
)

GAMES = all_games()
SEEDS = range(4)
MAX_STEPS = 20_000


class WithOptions:
    """A game's rules with some match options fixed, so one variant (Stratego Junior's Quest,
    Scratch Wars' level 1) runs through the whole suite. Everything else is the game's own."""

    def __init__(self, rules, options):
        self._rules, self._options = rules, dict(options)

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def normalize_options(self, options):
        return self._rules.normalize_options({**self._options, **options})


#: (game id, options): every game with default options, plus each of its ``conformance_variants``
VARIANTS = [
    (name, dict(options))
    for name in sorted(GAMES)
    for options in [{}, *getattr(GAMES[name], "conformance_variants", ())]
]


@pytest.fixture(params=VARIANTS, ids=[f"{n}{''.join(f'-{k}={v}' for k, v in o.items())}" for n, o in VARIANTS])
def rules(request):
    name, options = request.param
    return WithOptions(GAMES[name], options) if options else GAMES[name]


def _round_trip_json(value):
    return json.loads(json.dumps(value))


def _secrets(rules, state, viewer) -> list[str]:
    secrets = getattr(rules, "secrets", None)
    return list(secrets(state, viewer)) if secrets else []


def _check_state(rules, state, num_players: int) -> None:
    """Invariants that hold at every state of every game."""
    to_act = rules.to_act(state)
    assert (rules.outcome(state) is None) == bool(to_act), "over exactly when nobody is to act"
    for seat in range(num_players):
        legal = list(rules.legal_actions(state, seat))
        assert bool(legal) == (seat in to_act), f"seat {seat}: legal actions iff it is to act"
        for action in legal:
            assert rules.decode_action(_round_trip_json(rules.encode_action(action))) == action
    assert rules.decode_state(_round_trip_json(rules.encode_state(state))) == state
    viewers = [None, *range(num_players)]
    everything = {s for v in viewers for s in _secrets(rules, state, v)}
    for viewer in viewers:
        text = json.dumps(rules.observe(state, viewer))
        forbidden = everything if viewer is None else set(_secrets(rules, state, viewer))
        for secret in forbidden:
            assert secret not in text, f"viewer {viewer} sees a secret: {secret[:60]}"


def _random_walk(rules, seed: int, check: bool):
    """A random game through the driver: returns (final state, log, events, states)."""
    num_players = rules.min_players
    options = rules.normalize_options({})
    rng = random.Random(seed)
    state = rules.initial_state(num_players, options)
    pending: dict = {}
    log: list[Record] = []
    events = []
    states = [state]
    for _ in range(MAX_STEPS):
        if check and not pending:
            _check_state(rules, state, num_players)
        to_act = rules.to_act(state)
        if not to_act:
            return state, log, events, states
        seat = min(s for s in to_act if s not in pending)
        if seat == CHANCE:
            action = rules.sample_chance(state, rng)
            assert rules.decode_action(_round_trip_json(rules.encode_action(action))) == action
        else:
            action = rng.choice(list(rules.legal_actions(state, seat)))
        log.append(Record(seat, rules.encode_action(action)))
        step = submit(rules, state, pending, seat, action)
        state, pending = step.state, step.pending
        events.extend(step.events)
        if step.applied:
            states.append(state)
    raise AssertionError(f"{rules.name}: no end within {MAX_STEPS} inputs")


# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_random_playouts_end(rules, seed):
    state, log = play_out(rules, rules.min_players, rng=random.Random(seed), max_steps=MAX_STEPS)
    assert rules.outcome(state) is not None
    assert rules.to_act(state) == frozenset()
    assert len(rules.outcome(state).results) == rules.min_players


@pytest.mark.parametrize("seed", SEEDS)
def test_invariants_at_every_state(rules, seed):
    state, log, events, states = _random_walk(rules, seed, check=True)
    assert rules.outcome(state) is not None
    assert len(states) > 2


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_equals_live(rules, seed):
    state, log, events, _ = _random_walk(rules, seed, check=False)
    stored = [Record(r.seat, _round_trip_json(r.action)) for r in log]
    replayed, replayed_events = replay(rules, rules.min_players, {}, stored)
    assert rules.encode_state(replayed) == rules.encode_state(state)
    assert rules.outcome(replayed) == rules.outcome(state)
    assert [e.to_json() for e in replayed_events] == [e.to_json() for e in events]
    for event in events:
        json.dumps(event.to_json())
        for viewer in [None, *range(rules.min_players)]:
            json.dumps(event.view(viewer))


def test_events_never_leak_secrets_to_other_viewers(rules):
    """Every event as a viewer sees it, checked against that viewer's secrets at that moment."""
    num_players = rules.min_players
    rng = random.Random(99)
    state = rules.initial_state(num_players, rules.normalize_options({}))
    while rules.to_act(state):
        to_act = rules.to_act(state)
        if to_act == {CHANCE}:
            actions = {CHANCE: rules.sample_chance(state, rng)}
        else:
            actions = {s: rng.choice(list(rules.legal_actions(state, s))) for s in to_act}
        state, events = rules.apply(state, actions)
        viewers = [None, *range(num_players)]
        everything = {s for v in viewers for s in _secrets(rules, state, v)}
        for viewer in viewers:
            forbidden = everything if viewer is None else set(_secrets(rules, state, viewer))
            for event in events:
                shown = json.dumps(event.view(viewer))
                assert not any(secret in shown for secret in forbidden), (event.kind, viewer)


def test_driver_refusals(rules):
    num_players = rules.min_players
    state, log, events, states = _random_walk(rules, 7, check=False)
    final = state

    # A seat (or chance) that is not to act.
    refused = False
    any_action = rules.decode_action(log[-1].action)
    for s in states[:-1]:
        outsiders = [seat for seat in (CHANCE, *range(num_players)) if seat not in rules.to_act(s)]
        if outsiders:
            with pytest.raises(NotYourTurn):
                submit(rules, s, {}, outsiders[0], any_action)
            refused = True
            break
    assert refused, "every state had everyone to act"

    # After the end.
    with pytest.raises(GameOver):
        submit(rules, final, {}, 0, any_action)
    with pytest.raises(GameOver):
        submit(rules, final, {}, CHANCE, any_action)

    # A second choice from a seat that already chose (simultaneous games only).
    for s in states[:-1]:
        seats = sorted(seat for seat in rules.to_act(s) if seat != CHANCE)
        if len(seats) >= 2:
            action = rules.legal_actions(s, seats[0])[0]
            step = submit(rules, s, {}, seats[0], action)
            assert not step.applied and step.pending == {seats[0]: action}
            with pytest.raises(NotYourTurn):
                submit(rules, s, step.pending, seats[0], action)
            break
    else:
        pytest.skip(f"{rules.name} has no simultaneous choices")
