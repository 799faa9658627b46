"""Treasure Beasts in Chromium: two people in two browser contexts (one at 1280 px, one on a
390 px phone) and one computer seat (the strongest level) play a 3-seat match from the draft to
the result through the page's controls only: picking from the pack, deploying, moving, taking
and stealing treasure, building attacks step by step, choosing losses, discarding, passing.

Screenshots go to ``BROWSER_SCREENSHOTS`` (default ``/tmp/treasure_beasts``).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.browser.helpers import Watcher, join_from_lobby, signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS") or "/tmp/treasure_beasts")
PHONE = {"width": 390, "height": 844}
MATCH_SECONDS = 480  # 3 seats x at most 6 rounds, each a handful of clicks; the machine may be slow
#: which offered kind a test player takes first (the rest: a random one); never "pass" while
#: anything else is offered, so games move on
PREFERENCE = ("take", "steal", "strike", "lose", "join", "target", "pick", "discard", "move", "deploy", "attach")
#: every legal action on the page: the action panel's buttons and those on cards (pack, hand, field)
ACTIONS_JS = """() => [...new Set([...document.querySelectorAll('#game-root button[data-action]')]
    .map((b) => b.dataset.action))]"""


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def choose(actions: list[dict], rng: random.Random) -> dict:
    def rank(action: dict) -> float:
        kind = next(iter(action))
        if kind == "move" and action["move"]["zone"] == "start":
            return 50.0  # backwards: rarely
        if kind == "pass":
            return 100.0
        return (PREFERENCE.index(kind) if kind in PREFERENCE else len(PREFERENCE)) + rng.random() * 1.5

    return min(actions, key=rank)


def create_from_lobby(page: Page) -> int:
    """Treasure Beasts, 3 players: seat 2 a person, seat 3 the computer at its strongest level,
    60 s a turn, at most 6 rounds."""
    page.goto("/lobby")
    page.select_option("#create-game", "treasure_beasts")
    expect(page.locator("#opt-max_rounds")).to_be_visible()
    page.select_option("#create-players", "3")
    page.check('input[name="opponent"][value="custom"]')
    expect(page.locator("#seat-kind-1")).to_be_visible()
    page.select_option("#seat-kind-1", "person")
    page.select_option("#seat-kind-2", "planner")
    page.select_option("#create-turn", "60")
    page.fill("#opt-max_rounds", "6")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def check_hidden(w: Watcher, seat: int) -> int:
    """No snapshot ``seat`` received holds another seat's pack, hand or drawn cards. Returns how
    many snapshots were checked."""
    snaps = w.snapshots()
    for snap in snaps:
        assert snap["seat"] == seat
        view = snap.get("view") or {}
        if view.get("pack"):
            assert view["pack"]["seat"] == seat
        if view.get("hand"):
            assert view["hand"]["seat"] == seat
        for entry in snap.get("events") or []:
            for ev in entry.get("events") or []:
                private = ev.get("kind") in ("dealt", "picked", "drew")
                if private and ev.get("seat") != seat and snap.get("status") != "finished":
                    assert "pack" not in ev and "cards" not in ev and "card" not in ev, ev
    return len(snaps)


def test_two_people_and_the_computer_play_from_the_draft_to_a_winner(new_page):
    rng = random.Random(11)
    host = new_page()
    guest = new_page(PHONE)
    wh, wg = watch(host), watch(guest)
    signup(host, unique_name("tbh"))
    signup(guest, unique_name("tbg"))
    match_id = create_from_lobby(host)
    info = host.request.get(f"/api/matches/{match_id}").json()
    assert info["num_players"] == 3 and [s["bot"] for s in info["seats"]] == [None, None, "planner"]
    assert info["options"]["max_rounds"] == 6
    expect(host.locator("#waiting-for-players")).to_be_visible()
    join_from_lobby(guest, match_id)

    # the draft: your own pack of six to pick from, no picks yet, the packs' sizes
    for page in (host, guest):
        expect(page.locator("#tb-pack")).to_be_visible(timeout=30000)
        expect(page.locator("#tb-pack .tb-hand-card")).not_to_have_count(0)
        expect(page.locator("#tb-picks")).to_have_attribute("data-count", "0")
        expect(page.locator("#tb-passing")).to_contain_text("Packs pass to the left")
    assert host.locator("#tb-pack").get_attribute("data-count") == "6"
    shot(host, "tb_draft_desktop")
    shot(guest, "tb_draft_phone")
    # the pick is a button on the card itself too
    # (the picks are simultaneous: a seat's pick stays hidden until every seat has picked)
    host.locator("#tb-pack button.tb-act-pick").first.click()
    expect(host.locator("#tb-status")).to_have_attribute("data-state", "waiting", timeout=30000)
    expect(host.locator("#tb-status")).to_contain_text("waiting for the others")
    expect(host.locator("#tb-picks")).to_have_attribute("data-count", "0")
    guest.locator("#tb-pack button.tb-act-pick").last.click()
    for page in (host, guest):
        expect(page.locator("#tb-picks")).to_have_attribute("data-count", "1", timeout=30000)
        expect(page.locator("#tb-pack")).to_have_attribute("data-count", "5")

    clicks = {"host": 0, "guest": 0}
    kinds: set[str] = set()
    seen_main = seen_attack = seen_tired = False
    deadline = time.monotonic() + MATCH_SECONDS
    pages = {"host": host, "guest": guest}
    while time.monotonic() < deadline:
        if host.locator("#result").count() and guest.locator("#result").count():
            break
        acted = False
        for name, page in pages.items():
            offered = [json.loads(a) for a in page.evaluate(ACTIONS_JS)]
            if not offered:
                continue
            action = choose(offered, rng)
            kind = next(iter(action))
            key = json.dumps(action, separators=(",", ":"))
            if not seen_main and page.locator("#tb-hand").count() and page.locator(".tb-seat").count() == 3:
                expect(page.locator("#tb-ap")).to_be_visible()
                expect(page.locator(".tb-zone-center").first).to_be_visible()
                shot(page, f"tb_main_{name}")
                seen_main = True
            if kind in ("join", "strike", "lose") and not seen_attack:
                expect(page.locator("#tb-attack")).to_be_visible()
                shot(page, f"tb_attack_{name}")
                seen_attack = True
            if not seen_tired and page.locator(".tb-creature.tb-tired").count():
                seen_tired = True
            try:
                page.locator(f"#game-root button[data-action='{key}']").first.click(timeout=3000)
            except PlaywrightError:
                continue  # a newer snapshot replaced the buttons meanwhile
            clicks[name] += 1
            kinds.add(kind)
            acted = True
        if not acted:
            with contextlib.suppress(PlaywrightError):  # wait for a state change: a button or the result
                host.wait_for_function(
                    "() => document.querySelector('#result') || document.querySelector('#game-root button[data-action]')",
                    timeout=1500,
                )
    else:
        shot(host, "tb_timeout_host")
        shot(guest, "tb_timeout_guest")
        pytest.fail(f"no result after {MATCH_SECONDS} s ({clicks} clicks, kinds {sorted(kinds)})")

    for page in (host, guest):
        expect(page.locator("#result")).to_be_visible()
    shot(host, "tb_result_desktop")
    shot(guest, "tb_result_phone")
    assert clicks["host"] >= 6 and clicks["guest"] >= 6, clicks
    assert {"pick", "deploy"} <= kinds, kinds
    assert seen_main
    results = host.locator("#result").get_attribute("data-results").split(",")
    assert len(results) == 3 and results.count("win") >= 1 and set(results) <= {"win", "loss"}
    assert guest.locator("#result").get_attribute("data-results").split(",") == results
    expect(host.locator("#result .tb-ranking li")).to_have_count(3)
    expect(host.locator(".result-headline")).to_have_text("You win!" if results[0] == "win" else "You lose.")
    expect(guest.locator(".result-headline")).to_have_text("You win!" if results[1] == "win" else "You lose.")
    # the story in the log, from codes
    log = host.locator("#log").inner_text()
    assert "You keep" in log and "deploys" in log and "Game over" in log, log[-2000:]
    for page in (host, guest):
        assert "tb.ev." not in page.locator("#log").inner_text()
        assert "tb." not in page.locator("#game-root").inner_text()
    # usable at 390 px: nothing of the table sticks out sideways
    width = guest.evaluate("() => document.getElementById('game-root').scrollWidth")
    assert width <= PHONE["width"], width
    # hidden information: neither person ever received the other's pack, hand or draws
    assert check_hidden(wh, 0) > 5 and check_hidden(wg, 1) > 5
    info = host.request.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "finished" and info["result"]["results"] == results
    assert not wh.errors and not wg.errors, (wh.errors, wg.errors)
