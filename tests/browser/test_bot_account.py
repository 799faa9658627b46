"""A person in Chromium challenges the example bot (``examples/random_bot.py``, a bot account)
and plays a whole Battle Runes match against it: the bot accepts the challenge from the lobby
API, plays over the websocket, and the page shows its name with the "BOT" mark."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import httpx
import pytest
from playwright.sync_api import expect

from tests.browser.helpers import create_match, pick_three, signup, unique_name, wait_turn_or_result
from tests.servers import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_TURNS = 60
PASSWORD = "bot password 1"


def bot_token(base: str, name: str) -> str:
    """A new bot account ``name`` and an API token of it."""
    with httpx.Client(base_url=base) as c:
        assert c.post("/api/auth/register", json={"name": name, "password": PASSWORD}).status_code == 201
        token = c.post("/api/auth/token", json={"name": name, "password": PASSWORD}).json()["token"]
        r = c.post("/api/users/me/bot", headers={"Authorization": f"Bearer {token}"})
        assert r.json()["is_bot"] is True
        return token


def test_person_plays_the_example_bot_to_the_end(new_page, server):
    person = unique_name("alice")
    bot = unique_name("bot")
    token = bot_token(server.base_url, bot)
    page = new_page()
    signup(page, person)
    match_id = create_match(page, turn_seconds=120, options={"win_score": 40})
    expect(page.locator("#waiting-for-players")).to_be_visible()

    args = ["--server", server.base_url, "--challenger", person, "--poll", "0.2", "--seed", "11"]
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "random_bot.py"), *args],
        env={"ARENA_TOKEN": token, "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # the bot accepted the challenge: the page shows it, marked as a bot account
        expect(page.locator(".seat-name", has_text=f"BOT {bot}")).to_be_visible(timeout=30000)
        rng = random.Random(5)
        over = False
        for turn in range(1, MAX_TURNS + 1):
            if wait_turn_or_result(page, turn, timeout=30000):
                over = True
                break
            pick_three(page, rng, check=False)
        assert over, f"no result after {MAX_TURNS} turns"
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 0, err
    line = json.loads(out.strip().splitlines()[-1])
    assert line == {**line, "match": match_id, "seat": 1, "status": "finished"}
    expect(page.locator("#result")).to_be_visible()
    with httpx.Client(base_url=server.base_url) as c:
        match = c.get(f"/api/matches/{match_id}").json()
    assert match["status"] == "finished"
    assert [s["user"]["is_bot"] for s in match["seats"]] == [False, True]
    # any end of spec section 4: one winner, both win (both at 50), both lose (both at 0), a draw
    ends = (["draw", "draw"], ["loss", "win"], ["win", "win"], ["loss", "loss"])
    assert sorted(s["result"] for s in match["seats"]) in ends
