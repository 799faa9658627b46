"""The example bot (``examples/random_bot.py``) plays a whole Battle Runes match against the
server's own computer player, through the public API on a live server: over the websocket, and
over the server-sent event stream with HTTP acts."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import httpx
import pytest

from tests.servers import ROOT, ServerProcess, migrate, server_env

pytestmark = pytest.mark.slow

PASSWORD = "runes runes runes"


def token_for(base: str, name: str, *, bot: bool = False) -> str:
    """A new account ``name`` (marked as a bot account with ``bot``) and an API token of it."""
    with httpx.Client(base_url=base) as c:
        assert c.post("/api/auth/register", json={"name": name, "password": PASSWORD}).status_code == 201
        r = c.post("/api/auth/token", json={"name": name, "password": PASSWORD, "label": "example bot"})
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        if bot:
            r = c.post("/api/users/me/bot", headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 200 and r.json()["is_bot"] is True, r.text
        return token


@pytest.fixture
def server(tmp_path):
    env = server_env(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", BOT_POOL="thread")
    migrate(env)
    srv = ServerProcess(env, tmp_path / "server.log").start()
    yield srv
    srv.stop()


@pytest.mark.parametrize("transport", ["websocket", "sse"])
def test_example_bot_plays_the_computer_to_the_end(server, transport):
    token = token_for(server.base_url, "runebot", bot=True)
    args = ["--server", server.base_url, "--computer", "greedy", "--seed", "7", "--transport", transport]
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "random_bot.py"), *args],
        env={"ARENA_TOKEN": token, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr + server.log()
    line = json.loads(done.stdout.strip().splitlines()[-1])
    assert line["status"] == "finished" and line["seat"] == 0
    # every end spec section 4 allows: one winner, both at 50 (both win), both at 0 (both lose),
    # the turn cap (a draw); the server's deck shuffle is not seeded, so any of them can come
    assert sorted(line["result"]["results"]) in (["draw", "draw"], ["loss", "win"], ["win", "win"], ["loss", "loss"])

    with httpx.Client(base_url=server.base_url, headers={"Authorization": f"Bearer {token}"}) as c:
        match = c.get(f"/api/matches/{line['match']}").json()
        assert match["status"] == "finished" and match["game"] == "battle_runes"
        bot_seat, computer_seat = match["seats"]
        assert bot_seat["user"]["name"] == "runebot" and bot_seat["user"]["is_bot"] is True
        assert computer_seat["bot"] == "greedy" and computer_seat["user"] is None
        events = c.get(f"/api/matches/{line['match']}/events").json()["events"]
    kinds = Counter((e["kind"], e["seat"]) for e in events)
    # every turn: the example bot's pick came through the protocol, the computer's through the sweeper
    assert kinds[("action", 0)] >= 1 and kinds[("action", 0)] == kinds[("bot", 1)]
    assert kinds[("timeout", 0)] == 0  # the bot never let its clock run out
    assert events[-1]["kind"] == "end"
