"""Issue 16: "every finished match's replay can reveal everything to everybody (the seed is public
then too)". A match of every game between two people, played a few steps through the HTTP API and
ended by a resignation (so the game itself is not over), is replayed by a logged-out visitor:

* the seed is there, and its SHA-256 is the hash shown from the start;
* every stored input is shown (no hidden action: the pending simultaneous choices included);
* every step's view holds every fragment the game's hidden-information declaration
  (``Rules.secrets``) kept from anybody at that step: hands, packs, castles, deck orders.

The engine side of the same rule (``observe_finished`` at every state of every game) is checked by
the conformance suite, ``tests/games/test_conformance.py::check_finished_reveals``.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from app.games.core import get_rules
from tests.service.test_gateway import _user
from tests.service.test_hidden_frames import _states_by_version

#: game -> (options, inputs played before the resignation: enough to be past the hidden choices)
GAMES = {
    "battle_runes": ({}, 5),
    "stratego_junior": ({"variant": "quest"}, 6),
    "scratch_wars": ({"level": 3}, 4),
    "fantasy_duel": ({}, 6),
    "treasure_beasts": ({}, 6),
}


def _play(client, match_id: int, seats: dict[int, dict], steps: int, rng: random.Random) -> int:
    """Send ``steps`` random legal actions (each from a seat that still has to choose) through
    ``POST /act``. :returns: how many were sent before the match stopped needing any."""
    sent = 0
    for _ in range(steps):
        snaps = {s: client.get(f"/api/matches/{match_id}/snapshot", headers=h).json() for s, h in seats.items()}
        if snaps[0]["status"] != "active":
            break
        waiting = [s for s in snaps[0]["to_act"] if s not in snaps[0]["chosen"]]
        if not waiting:
            break
        seat = waiting[0]
        r = client.post(
            f"/api/matches/{match_id}/act",
            json={"action": rng.choice(snaps[seat]["legal"]), "version": snaps[seat]["version"]},
            headers=seats[seat],
        )
        assert r.status_code == 200, r.text
        sent += 1
    return sent


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_resigned_match_replays_everything_to_a_visitor(client, game):
    options, steps = GAMES[game]
    a, b = _user(client, f"{game[:8]}a"), _user(client, f"{game[:8]}b")
    for _attempt in range(10):  # the deal is random: a match may end within the steps; play another
        r = client.post("/api/matches", json={"game": game, "options": {**options, "turn_seconds": 600}}, headers=a)
        assert r.status_code == 201, r.text
        match_id = r.json()["id"]
        assert client.post(f"/api/matches/{match_id}/join", headers=b).json()["status"] == "active"
        assert _play(client, match_id, {0: a, 1: b}, steps, random.Random(16)) >= 1
        if client.get(f"/api/matches/{match_id}").json()["status"] == "active":
            break
    # before the end, a visitor's replay is the spectators' view so far: not complete, no seed
    client.cookies.clear()
    early = client.get(f"/api/matches/{match_id}/replay").json()
    assert early["match"]["status"] == "active", early["match"]
    assert early["complete"] is False and early["seat"] is None and "seed" not in early["match"]
    assert "seed" not in client.get(f"/api/matches/{match_id}").json()
    assert client.post(f"/api/matches/{match_id}/resign", headers=a).status_code == 200

    client.cookies.clear()  # a logged-out visitor
    r = client.get(f"/api/matches/{match_id}/replay")
    assert r.status_code == 200, r.text
    replay = r.json()
    info = replay["match"]
    assert info["status"] == "finished" and info["result"]["reason"] == "resigned"
    assert hashlib.sha256(info["seed"].encode()).hexdigest() == info["seed_hash"]
    steps_shown = replay["steps"]
    assert not [step["version"] for step in steps_shown if step["hidden"]]
    inputs = [step for step in steps_shown if step["kind"] in ("action", "chance")]
    assert len(inputs) >= 2 and all(step["action"] is not None for step in inputs)

    rules = get_rules(game)
    _, states = _states_by_version(client, match_id)
    hidden_somewhere = 0
    for step in steps_shown:
        state = states[step["version"]]
        text = json.dumps(step["view"])
        secrets = set(rules.secrets(state, None))
        hidden_somewhere += bool(secrets)
        missing = [s for s in secrets if s not in text]
        assert not missing, (step["version"], missing[0][:80])
    if rules.information == "imperfect":
        assert hidden_somewhere, f"{game}: nothing was hidden at any step; the test shows nothing"
