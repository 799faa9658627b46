"""Resolution steps stored before steps carried codes still decode (issue 8 item 7).

The resolver of commit 227f582 wrote each step's English ``note``; today's writes ``code`` and
``params``. ``Step.from_json`` reads an old step through ``old_notes.parse_old_note``. Here the old
resolver itself (read from git, not from the work tree) resolves thousands of random turns with every
option, and each old breakdown must decode to exactly what today's resolver gives for the same turn.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from types import ModuleType

import pytest

from app.games.battle_runes import RULES, Resolution, Step, resolve_turn
from app.games.battle_runes.data import RUNE_IDS
from app.games.battle_runes.old_notes import CONDITION_TEXT, parse_old_note
from app.games.core import play_out
from app.settings import ROOT

OLD_COMMIT = "227f582"
CODES = {
    "enables",
    "annulled",
    "zero_no_effect",
    "swap_all_annulled",
    "points",
    "cross",
    "doubled",
    "equal",
    "leads",
    "swap_self",
    "swap_opp",
    "swap_s",
    "swap_r",
    "swap_all",
    "swap_all_no_effect",
}
OPTIONS = [
    {"r2p5_bonus_kind": kind, "zero_blocks_swap_all": blocks}
    for kind in ("destruction", "construction")
    for blocks in (True, False)
]


@pytest.fixture(scope="module")
def old_resolve() -> ModuleType:
    """``app/games/battle_runes/resolve.py`` as it was at commit 227f582, imported beside today's."""
    try:
        source = subprocess.run(
            ["git", "show", f"{OLD_COMMIT}:app/games/battle_runes/resolve.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:  # no git, or a shallow clone without that commit
        pytest.skip(f"the resolver of commit {OLD_COMMIT} is not readable from git: {exc}")
    name = "app.games.battle_runes._resolve_227f582"
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "app.games.battle_runes"  # its `from .data import ...` reads today's rune table
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    try:
        exec(compile(source, f"{OLD_COMMIT}:resolve.py", "exec"), module.__dict__)
    finally:
        del sys.modules[name]
    return module


def random_turn(rng: random.Random) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], tuple[int, int], dict]:
    picks = (tuple(rng.sample(RUNE_IDS, 3)), tuple(rng.sample(RUNE_IDS, 3)))
    return picks, (rng.randint(-30, 90), rng.randint(-30, 90)), rng.choice(OPTIONS)


def test_every_old_note_decodes_to_todays_step(old_resolve):
    rng = random.Random(20261130)
    codes: set[str] = set()
    conditions: set[str | int] = set()
    leaders: set[str | int] = set()
    for _ in range(2000):
        picks, scores, options = random_turn(rng)
        old = json.loads(json.dumps(old_resolve.resolve_turn(picks, scores, options).to_json()))
        new = resolve_turn(picks, scores, options)
        assert all("note" in step and "code" not in step for step in old["steps"])
        for old_step, new_step in zip(old["steps"], new.steps, strict=True):
            assert parse_old_note(old_step["note"]) == (new_step.code, new_step.params), (picks, scores, options)
            assert Step.from_json(old_step) == new_step
        assert Resolution.from_json(old) == new  # the whole stored breakdown equals today's
        for step in new.steps:
            codes.add(step.code)
            params = dict(step.params)
            if "condition" in params:
                conditions.add(params["condition"])
            if step.code == "leads":
                leaders.add(params["seat"])
    assert codes == CODES  # every form the old resolver could write was met
    assert conditions == set(CONDITION_TEXT)
    assert leaders == {0, 1}


@pytest.mark.parametrize("options", OPTIONS)
def test_an_old_stored_state_decodes_to_the_state_replaying_gives_today(old_resolve, options):
    for seed in range(5):
        state, _ = play_out(RULES, 2, options, rng=random.Random(seed))
        last = state.last
        assert last is not None
        old_last = old_resolve.resolve_turn(last.picks, last.scores_before, options).to_json()
        stored = json.loads(json.dumps({**RULES.encode_state(state), "last": old_last}))
        assert stored != RULES.encode_state(state)
        assert RULES.decode_state(stored) == state


@pytest.mark.parametrize(
    ("note", "code", "params"),
    [
        ("enables bonuses", "enables", {}),
        ("turn annulled: Fire or Water was played", "annulled", {}),
        ("no effect: no Fire or Water played", "zero_no_effect", {}),
        ("no effect: the turn is annulled", "swap_all_annulled", {}),
        ("+2 construction", "points", {"base": 2, "what": "S"}),
        (
            "+1 construction, +5 construction (Water was played)",
            "points",
            {"base": 1, "what": "S", "bonus": 5, "bonus_what": "S", "condition": "water_any"},
        ),
        (
            "+2 destruction, +5 construction (opponent played no construction)",
            "points",
            {"base": 2, "what": "R", "bonus": 5, "bonus_what": "S", "condition": "opp_base_construction_zero"},
        ),
        (
            "+1 destruction, +11 destruction (opponent's Fire)",
            "points",
            {"base": 1, "what": "R", "bonus": 11, "bonus_what": "R", "condition": "fire_opp"},
        ),
        ("+0 construction (own destruction)", "cross", {"gain": 0, "what": "S", "source": "R"}),
        ("+14 destruction (own construction)", "cross", {"gain": 14, "what": "R", "source": "S"}),
        ("own construction doubled to 12", "doubled", {"what": "S", "value": 12}),
        ("own destruction doubled to 0", "doubled", {"what": "R", "value": 0}),
        ("equal destruction: no effect", "equal", {"what": "R"}),
        ("seat 1 leads in destruction: +3", "leads", {"seat": 1, "what": "R", "gain": 3}),
        ("seat 0 leads in construction: +36", "leads", {"seat": 0, "what": "S", "gain": 36}),
        ("own construction and destruction swapped", "swap_self", {}),
        ("opponent's construction and destruction swapped", "swap_opp", {}),
        ("construction swapped between the seats", "swap_s", {}),
        ("destruction swapped between the seats", "swap_r", {}),
        ("whole scores swapped: now -4 / 61", "swap_all", {"a": -4, "b": 61}),
        ("no effect: Fire and Water were not both played", "swap_all_no_effect", {}),
    ],
)
def test_each_old_note_form(note, code, params):
    assert parse_old_note(note) == (code, tuple(sorted(params.items())))
    old = {"rune": "S1", "seat": 0, "order": 1, "S": [1, 0], "R": [0, 0], "note": note}
    step = Step.from_json(old)
    assert (step.code, dict(step.params)) == (code, params)
    again = json.loads(json.dumps(step.to_json()))
    assert again == {**{k: v for k, v in old.items() if k != "note"}, "code": code, "params": params}
    assert Step.from_json(again) == step


@pytest.mark.parametrize(
    "note",
    [
        "",
        "+1 construction (Water was played)",
        "+1 construction, +5 construction (it rained)",
        "seat 2 leads in construction: +3",
        "own score doubled to 4",
        "Turn annulled: Fire or Water was played",
    ],
)
def test_a_sentence_the_old_resolver_never_wrote_is_refused(note):
    with pytest.raises(ValueError):
        parse_old_note(note)
    with pytest.raises(ValueError):
        Step.from_json({"rune": "S1", "seat": 0, "order": 1, "S": [1, 0], "R": [0, 0], "note": note})


def test_todays_steps_carry_codes_and_json_safe_params():
    res = resolve_turn((("S1P5", "WATER", "DIFF_S"), ("DIFF_S", "R1", "R2")), (25, 25))
    for step in res.steps:
        obj = step.to_json()
        assert "note" not in obj and obj["code"] in CODES
        assert json.loads(json.dumps(obj)) == obj
        assert all(isinstance(v, int | str) and not isinstance(v, bool) for v in obj["params"].values())
        assert Step.from_json(obj) == step
