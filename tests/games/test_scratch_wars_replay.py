"""Scratch Wars on the engine kit: recorded matches replay to the same states, the wire forms stay,
the quick legality checks agree with the listed choices, and nothing is cached on rules or states.

``fixtures/scratch_wars_replays.json`` holds duels at levels 1, 2a, 2b and 3 (random, greedy,
expectimax and custom-loadout players, random loadouts) recorded with the engine before the kit
(commit 227f582): each log in its wire form, the encoded final state, the SHA-256 of every state
after every input and of the events, and a few mid-game snapshots with an attack pending.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from pathlib import Path

import pytest

from app.games.core import CHANCE, Record, replay, submit
from app.games.scratch_wars import RULES, ScratchWars
from app.games.scratch_wars.actions import (
    CODEC,
    AddCombo,
    Cancel,
    Detonate,
    EndTurn,
    KeepCombos,
    Repair,
    Skip,
    SpendShield,
    SpinWeapon,
    Starter,
    StartWeapon,
    TakeHit,
    Target,
    Use,
)
from app.games.scratch_wars.state import Config, Slot, State, evolve

FIXTURE = json.loads((Path(__file__).parent / "fixtures" / "scratch_wars_replays.json").read_text())
DUELS = FIXTURE["duels"]


def _options(duel: dict) -> dict:
    """The duel's options as the rules read them: recorded before the ``permanent_order`` option,
    so with the rule of that time, permanent attacks in loadout order (what
    ``ScratchWars.initial_state`` gives a stored match whose options lack the key)."""
    return {**duel["options"], "permanent_order": "loadout"}


def _digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_the_fixture_covers_every_level_and_every_kind_of_action():
    levels = {(d["options"]["level"], d["options"].get("effects", "distinguished")) for d in DUELS}
    assert levels == {(1, "distinguished"), (2, "every_effect_attacks"), (2, "distinguished"), (3, "distinguished")}
    kinds = {next(iter(action)) for d in DUELS for _seat, action in d["log"]}
    # every wire key appears in some log, but "fire": the owner's order of permanent attacks came
    # after these duels were recorded (their matches fire in loadout order)
    assert kinds == set(CODEC.by_key) - {"fire"}
    assert any(action == {"loadout": "random"} for d in DUELS for _seat, action in d["log"])
    assert any("slot" in action for d in DUELS for _seat, action in d["log"] if "target" in action)


@pytest.mark.parametrize("duel", DUELS, ids=lambda d: d["name"])
def test_recorded_duels_replay_to_the_same_states_and_events(duel):
    log = [Record(seat, action) for seat, action in duel["log"]]
    state, events = replay(RULES, 2, _options(duel), log)
    assert RULES.encode_state(state) == duel["final_state"]
    assert RULES.outcome(state) is not None
    assert len(events) == duel["events"]
    assert _digest([e.to_json() for e in events]) == duel["events_sha256"]


@pytest.mark.parametrize("duel", DUELS, ids=lambda d: d["name"])
def test_every_intermediate_state_and_stored_snapshot_matches(duel):
    state = RULES.initial_state(2, RULES.normalize_options(_options(duel)))
    pending: dict = {}
    digest = hashlib.sha256()
    snapshots = {sample["after"]: sample["state"] for sample in duel["samples"]}
    for i, (seat, action) in enumerate(duel["log"], 1):
        step = submit(RULES, state, pending, seat, RULES.decode_action(action))
        state, pending = step.state, step.pending
        encoded = RULES.encode_state(state)
        digest.update(json.dumps(encoded, sort_keys=True, separators=(",", ":")).encode())
        if i in snapshots:
            assert encoded == snapshots[i]
            assert RULES.decode_state(snapshots[i]) == state  # an old snapshot decodes to the same state
    assert digest.hexdigest() == duel["states_sha256"]


def test_stored_actions_keep_their_wire_form():
    for duel in DUELS:
        for _seat, action in duel["log"]:
            assert RULES.encode_action(RULES.decode_action(action)) == action


# ------------------------------------------------------------------------- legality without listing


def _candidates(state: State) -> list:
    slots = range(6)
    return [
        *(SpinWeapon(j) for j in slots),
        *(Repair(j) for j in slots),
        *(Cancel(j) for j in slots),
        EndTurn(),
        *(Use(b) for b in range(-1, 4)),
        Skip(),
        *(SpendShield(j) for j in slots),
        TakeHit(),
        *(AddCombo(j) for j in slots),
        *(Detonate(b) for b in range(-1, 3)),
        KeepCombos(),
        Target("hero"),
        *(Target(k, j) for k in ("weapon", "effect") for j in slots),
        Starter(0),
        Starter(1),
        *(StartWeapon(j) for j in slots),
    ]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_is_legal_agrees_with_the_listed_choices(level):
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = RULES.initial_state(2, {"level": level})
        while RULES.to_act(state):
            to_act = RULES.to_act(state)
            if to_act == {CHANCE}:
                state, _ = RULES.apply(state, {CHANCE: RULES.sample_chance(state, rng)})
                continue
            for seat in (0, 1):
                legal = RULES.legal_actions(state, seat)
                if state.phase == "loadout":
                    continue
                for action in _candidates(state):
                    assert RULES.is_legal(state, seat, action) == (action in legal), (state.phase, seat, action)
                    checked += 1
            state, _ = RULES.apply(state, {s: rng.choice(RULES.legal_actions(state, s)) for s in to_act})
    assert checked > 1000


# ------------------------------------------------------------------------------ one state idiom


def test_rules_and_states_hold_no_caches():
    rules = ScratchWars()
    state, _log = replay(rules, 2, _options(DUELS[0]), [Record(s, a) for s, a in DUELS[0]["log"]])
    assert set(vars(rules)) == {"book"}  # nothing remembered between calls
    for value in (state, state.config, state.seat(0), state.seat(0).slots[0]):
        assert not hasattr(value, "__dict__")  # slotted: every attribute is a declared field
        assert dataclasses.is_dataclass(value)
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)


def test_evolve_copies_with_changes_and_refuses_unknown_fields():
    slot = Slot("SW")
    held = evolve(slot, held=6, value=3)
    assert held == dataclasses.replace(slot, held=6, value=3) and slot == Slot("SW")
    state = RULES.position(("BRAM", "GORM"), (("IRON",), ("THND",)))
    assert evolve(state, actions=1, used=2) == dataclasses.replace(state, actions=1, used=2)
    assert evolve(state) == state and evolve(state) is not state
    with pytest.raises(TypeError, match="no field 'colour'"):
        evolve(slot, colour="red")


def test_config_switches_follow_the_level():
    assert (Config.of(1).distinguished, Config.of(1).bonuses, Config.of(1).energy) == (False, False, False)
    assert Config.of(2, "every_effect_attacks").distinguished is False and Config.of(2).distinguished is True
    assert Config.of(2).energy is False and Config.of(3).energy is True and Config.of(2).day_cycle is True
    assert Config() == Config.of(3)
    with pytest.raises(ValueError, match=r"Config\.of"):
        Config(level=1)
