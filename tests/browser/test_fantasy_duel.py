"""Fantasy súboj in Chromium: a player creates a 3-seat match against two computers from the lobby
and plays it on a phone-sized screen through the page's buttons and clickable units (attacker,
target with its exact odds, prison or recruit, Tactics draws) until the result is shown.

Screenshots go to ``BROWSER_SCREENSHOTS`` (default ``/tmp/fantasy_duel``).
"""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.helpers import signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS") or "/tmp/fantasy_duel")
PHONE = {"width": 390, "height": 844}
MATCH_SECONDS = 420  # a random 3-seat game is ~100 decisions; the machine may be slow
#: which offered choice the test player takes first (the rest: a random one of the kind)
PREFERENCE = ("target", "attacker", "imprison", "recruit", "draw", "defer", "back")
ACTIONS_JS = "() => [...document.querySelectorAll('#fd-actions button.fd-act')].map((b) => b.dataset.action)"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def pick(actions: list[dict], rng: random.Random) -> dict:
    def rank(action: dict) -> float:
        kind = next(iter(action))
        return (PREFERENCE.index(kind) if kind in PREFERENCE else len(PREFERENCE)) + rng.random() * 0.5

    return min(actions, key=rank)


def create_from_lobby(page: Page) -> int:
    """Fantasy súboj, 3 players, the computer (random) for both other seats, 30 s a turn, and a
    short stalemate guard so the end comes sooner."""
    page.goto("/lobby")
    page.select_option("#create-game", "fantasy_duel")
    expect(page.locator("#opt-packs")).to_be_visible()
    expect(page.locator("#opt-recruit_swap_prison")).to_be_visible()
    page.select_option("#create-players", "3")
    page.check('input[name="opponent"][value="computer"]')
    expect(page.locator("#create-level option")).to_have_count(2)  # random, heuristic
    page.select_option("#create-level", "random")
    page.select_option("#create-turn", "30")
    page.fill("#opt-stalemate_rounds", "3")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def test_three_seats_against_two_computers_to_the_result(new_page):
    rng = random.Random(10)
    page = new_page(PHONE)
    w = watch(page)
    signup(page, unique_name("fd"))
    match_id = create_from_lobby(page)
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["num_players"] == 3 and [s["bot"] for s in info["seats"]] == [None, "random", "random"]
    assert info["options"]["stalemate_rounds"] == 3

    # the table: three armies of three units, with their numbers, the deck and the scores
    expect(page.locator(".fd-seat")).to_have_count(3, timeout=30000)
    expect(page.locator(".fd-seat[data-seat='0'] .fd-unit").first).to_be_visible()
    expect(page.locator("#fd-deck")).to_contain_text("Deck:")
    expect(page.locator(".fd-seat[data-seat='0'] .badge-you")).to_be_visible()

    clicks = 0
    kinds: set[str] = set()
    clicked_unit = saw_odds = saw_dice = False
    deadline = time.monotonic() + MATCH_SECONDS
    while time.monotonic() < deadline:
        if page.locator("#result").count():
            break
        offered = [json.loads(a) for a in page.evaluate(ACTIONS_JS)]
        if not offered:
            if not saw_dice and page.locator("#fd-dice .fd-die").count():
                saw_dice = True
            page.wait_for_timeout(60)
            continue
        action = pick(offered, rng)
        kind = next(iter(action))
        key = json.dumps(action, separators=(",", ":"))
        try:
            if kind == "target" and not saw_odds:
                # before confirming, each target shows its exact chances
                expect(page.locator("#fd-actions .fd-act-target .fd-act-odds").first).to_contain_text("win")
                saw_odds = True
                shot(page, "fd_choose_target_phone")
            if kind in ("attacker", "target") and not clicked_unit:
                # the unit itself is clickable, carrying the same action
                page.locator(f"#fd-table button.fd-unit[data-action='{key}']").first.click(timeout=3000)
                clicked_unit = True
            else:
                page.locator(f"#fd-actions button.fd-act[data-action='{key}']").first.click(timeout=3000)
        except PlaywrightError:
            continue  # a newer snapshot replaced the buttons meanwhile
        clicks += 1
        kinds.add(kind)
    else:
        shot(page, "fd_timeout")
        pytest.fail(f"no result after {MATCH_SECONDS} s ({clicks} clicks, kinds {sorted(kinds)})")

    expect(page.locator("#result")).to_be_visible()
    shot(page, "fd_result_phone")
    assert clicks >= 2 and {"attacker", "target"} <= kinds and clicked_unit and saw_odds
    results = page.locator("#result").get_attribute("data-results").split(",")
    assert len(results) == 3 and set(results) <= {"win", "loss", "draw"}
    expect(page.locator("#result .fd-ranking li")).to_have_count(3)
    headline = {"win": "You win!", "loss": "You lose.", "draw": "A draw: you share first place."}[results[0]]
    expect(page.locator(".result-headline")).to_have_text(headline)
    # the dice of the last attack and the story in the log, from codes
    expect(page.locator("#fd-dice .fd-die").first).to_be_visible()
    log = page.locator("#log").inner_text()
    assert "attacks" in log and "Dice" in log and "Game over" in log, log[-2000:]
    assert "fd.ev." not in log and "fd.act." not in page.locator("#game-root").inner_text()
    # usable at 390 px: nothing of the table sticks out sideways
    width = page.evaluate("() => document.getElementById('game-root').scrollWidth")
    assert width <= PHONE["width"], width
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "finished" and info["result"]["results"] == results
    assert not w.errors, w.errors
