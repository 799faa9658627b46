"""Stored Battle Runes matches replay to the same states (issue 8: stored formats stay compatible).

``fixtures/battle_runes_replays.json`` was recorded with the engine of commit 227f582, before the
engine kit: per match its options, the log of wire actions in submission order (seat -1 is chance;
some picks were sent in reverse order, as a client may), the encoded state at checkpoints and at the
end. Today's engine must decode every action, reach the same states (a stored state decodes to the
state its log replays to), and encode them to the same JSON but for the last turn's steps: those were
stored with an English ``note``, today they carry ``code`` and ``params`` (issue 8 item 7).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games.battle_runes import RULES, Pick, Shuffle, sort_runes
from app.games.core import CHANCE, Record, replay, submit

FIXTURE = Path(__file__).with_name("fixtures") / "battle_runes_replays.json"
GAMES = json.loads(FIXTURE.read_text(encoding="utf-8"))["games"]


def without_step_words(encoded: dict) -> dict:
    """An encoded state without the words of its last turn's steps (``note``, or ``code`` and ``params``)."""
    if encoded["last"] is None:
        return encoded
    steps = [
        {k: v for k, v in step.items() if k not in ("note", "code", "params")} for step in encoded["last"]["steps"]
    ]
    return {**encoded, "last": {**encoded["last"], "steps": steps}}


def test_the_fixture_covers_options_reshuffles_and_every_end():
    reasons = {game["final_state"]["outcome"]["reason"] for game in GAMES}
    assert reasons == {"score_50", "score_0", "turn_cap"}
    assert any(cp["state"]["phase"] == "reshuffle" for game in GAMES for cp in game["checkpoints"])
    assert any(game["options"].get("r2p5_bonus_kind") == "construction" for game in GAMES)
    assert any(game["options"].get("zero_blocks_swap_all") is False for game in GAMES)


@pytest.mark.parametrize("game", GAMES, ids=[f"seed{g['seed']}" for g in GAMES])
def test_stored_match_replays_to_the_same_encoded_states(game):
    state = RULES.initial_state(2, RULES.normalize_options(game["options"]))
    checkpoints = {cp["after"]: cp["state"] for cp in game["checkpoints"]}
    pending: dict = {}
    for count, (seat, wire) in enumerate(game["log"], start=1):
        action = RULES.decode_action(wire)
        assert isinstance(action, Shuffle if seat == CHANCE else Pick)
        step = submit(RULES, state, pending, seat, action)
        state, pending = step.state, step.pending
        if count in checkpoints:
            assert RULES.decode_state(checkpoints[count]) == state, f"after {count} inputs"
            assert without_step_words(RULES.encode_state(state)) == without_step_words(checkpoints[count])
    assert pending == {}
    assert RULES.to_act(state) == frozenset()
    assert RULES.decode_state(game["final_state"]) == state
    assert without_step_words(RULES.encode_state(state)) == without_step_words(game["final_state"])


def test_the_fixture_holds_steps_stored_as_english_notes():
    steps = [step for game in GAMES for step in game["final_state"]["last"]["steps"]]
    assert steps and all("note" in step and "code" not in step for step in steps)


@pytest.mark.parametrize("game", GAMES[:4], ids=[f"seed{g['seed']}" for g in GAMES[:4]])
def test_stored_actions_keep_their_wire_form(game):
    for seat, wire in game["log"]:
        encoded = RULES.encode_action(RULES.decode_action(wire))
        if seat == CHANCE:
            assert encoded == wire
        else:  # a pick is written in catalog order whatever order it was sent in
            assert encoded == {"runes": list(sort_runes(wire["runes"]))}
    final, _ = replay(RULES, 2, game["options"], [Record(seat, wire) for seat, wire in game["log"]])
    assert RULES.decode_state(game["final_state"]) == final
    assert without_step_words(RULES.encode_state(final)) == without_step_words(game["final_state"])
