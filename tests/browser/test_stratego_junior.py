"""Stratego Junior end to end in Chromium, through the pages only (lobby, setups page, match page):

* a Quest match between two people (memory aid on, one of them on a phone-sized screen, with a
  setup saved on the "My setups" page and loaded from the list), played until a flag is found;
  the winner's plan attacks the Jester and the Black Knight first, so the loser places the
  returned castles on the page;
* a Victory match between two people, with the back-and-forth rule shown, played until a flag
  is found;
* a match against the computer (expert level) created from the lobby, played to the end;
* the "My setups" page: create, refuse a duplicate name, rename, delete.

The pages are driven by clicking the squares and towers of the board; which ones is chosen from
the snapshot's ``legal`` list (:mod:`tests.browser.stratego_driver`). Both people's choices may
peek at the other page's view so that a match ends in a few dozen turns (a test driver, not a
player). Set ``BROWSER_SCREENSHOTS=/some/dir`` to save screenshots along the way.
"""

from __future__ import annotations

import os
import random
import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import join_from_lobby, signup, unique_name, watch
from tests.browser.stratego_driver import quest_choice, victory_choice

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = os.environ.get("BROWSER_SCREENSHOTS")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
MAX_ACTIONS = 600  # clicks that act, per match: a safety net far above the simulated lengths
#: Victory: a turn limit set in the lobby as a safety net only (simulated matches end by a
#: flag capture well before it; reaching it fails the test)
VICTORY_TURN_LIMIT = 300

#: Math.random seeded in the page, so the "Random" setups (and so whole Victory matches) repeat
SEEDED_RANDOM = """
(() => {
  let s = %d >>> 0;
  Math.random = () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
"""


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def person(browser, server, name: str, viewport: dict | None = None, seed: int | None = None):
    ctx = browser.new_context(base_url=server.base_url, viewport=viewport or DESKTOP)
    ctx.set_default_timeout(15000)
    if seed is not None:
        ctx.add_init_script(SEEDED_RANDOM % seed)
    page = ctx.new_page()
    w = watch(page)
    signup(page, unique_name(name))
    return ctx, page, w


def create_stratego(
    page: Page,
    *,
    variant: str,
    memory_aid: bool = False,
    computer: str | None = None,
    turn_seconds: int = 120,
    turn_limit: int | None = None,
) -> int:
    """The lobby's "create a match" form for Stratego Junior; returns the match id."""
    page.goto("/lobby")
    page.select_option("#create-game", "stratego_junior")
    expect(page.locator("#opt-variant")).to_be_visible()
    expect(page.locator("#opt-variant option")).to_have_count(2)
    page.select_option("#opt-variant", variant)
    if memory_aid:
        page.check("#opt-memory_aid")
    if turn_limit is not None:
        page.fill("#opt-move_cap", str(turn_limit))
    if computer:
        page.check('input[name="opponent"][value="computer"]')
        expect(page.locator("#create-level option")).to_have_count(3)  # Easy, Medium, Hard
        page.select_option("#create-level", computer)
    page.select_option("#create-turn", str(turn_seconds))
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


SNAPSHOT_JS = """() => {
  const c = window.matchClient;
  if (!c || !c.snapshot) return null;
  const s = c.snapshot;
  return {version: s.version, status: s.status, seat: s.seat, view: s.view, legal: s.legal || [],
          chosen: s.chosen || [], result: s.result, pending: !!c.pending};
}"""


def snap(page: Page) -> dict[str, Any] | None:
    return page.evaluate(SNAPSHOT_JS)


def next_turn(pages: list[Page], timeout: float = 20.0) -> tuple[int | None, list[dict]]:
    """Wait until one page may act (its index) or the match is over on every page (None)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        snaps = [snap(p) for p in pages]
        if all(s and s["status"] == "finished" for s in snaps):
            return None, snaps
        for i, s in enumerate(snaps):
            if s and s["status"] == "active" and s["legal"] and not s["pending"] and s["view"]["phase"] != "setup":
                return i, snaps
        time.sleep(0.03)
    raise AssertionError(f"nobody can act and the match is not over: {[s and s['status'] for s in snaps]}")


def sq(pair) -> str:
    return f'[data-sq="{pair[0]},{pair[1]}"]'


def play(page: Page, action: dict, seat: int, before: int, check: bool = True) -> None:
    """Do `action` by clicking the board; with `check`, first check that the page shows it as
    offered (the target's class). `before`: the snapshot version the action was chosen in."""
    opp = 1 - seat
    if not check:
        quick(page, action, seat)
        page.wait_for_function("(v) => window.matchClient.snapshot.version > v", arg=before)
        return
    if "move" in action or "attack" in action or ("attack_tower" in action and "from" in action["attack_tower"]):
        kind = next(iter(action))
        frm = action[kind]["from"]
        if "sj-selected" not in (page.locator(sq(frm)).get_attribute("class") or ""):
            page.click(sq(frm))
        expect(page.locator(sq(frm))).to_have_class(re.compile(r"\bsj-selected\b"))
        if kind == "attack_tower":
            target = page.locator(f'[data-tower="{opp},{action[kind]["tower"]}"]')
            expect(target).to_have_class(re.compile(r"\bsj-target-tower\b"))
        else:
            target = page.locator(sq(action[kind]["to"]))
            expect(target).to_have_class(re.compile(rf"\bsj-target-{kind}\b"))
        target.click()
    elif "attack_tower" in action:
        target = page.locator(f'[data-tower="{opp},{action["attack_tower"]["tower"]}"]')
        expect(target).to_have_class(re.compile(r"\bsj-target-tower\b"))
        target.click()
    elif "flip" in action:
        target = page.locator(sq(action["flip"]))
        expect(target).to_have_class(re.compile(r"\bsj-target-flip\b"))
        target.click()
    elif "roll" in action:
        page.click("#sj-roll")
    elif "place" in action:
        where = action["place"]
        target = page.locator(f'[data-tower="{seat},{where["tower"]}"]' if isinstance(where, dict) else sq(where))
        expect(target).to_have_class(re.compile(r"\bsj-target-place\b"))
        target.click()
    elif "decline_return" in action:
        page.click("#sj-decline")
    else:
        raise AssertionError(f"unexpected action {action}")
    page.wait_for_function("(v) => window.matchClient.snapshot.version > v", arg=before)


def quick(page: Page, action: dict, seat: int) -> None:
    """Click what `action` needs without checking the page first (later turns: faster, so
    Playwright's actionability waits are skipped too)."""
    kind = next(iter(action))
    body = action[kind]
    if kind in ("move", "attack") or (kind == "attack_tower" and "from" in body):
        if "sj-selected" not in (page.locator(sq(body["from"])).get_attribute("class") or ""):
            page.click(sq(body["from"]), force=True)
        target = f'[data-tower="{1 - seat},{body["tower"]}"]' if kind == "attack_tower" else sq(body["to"])
        page.click(target, force=True)
    elif kind == "attack_tower":
        page.click(f'[data-tower="{1 - seat},{body["tower"]}"]', force=True)
    elif kind == "flip":
        page.click(sq(body), force=True)
    elif kind == "place":
        page.click(f'[data-tower="{seat},{body["tower"]}"]' if isinstance(body, dict) else sq(body), force=True)
    else:
        page.click({"roll": "#sj-roll", "decline_return": "#sj-decline"}[kind], force=True)


def place_random_and_confirm(page: Page, *, then_waits: bool) -> dict:
    """Random, then Confirm; returns the placement sent."""
    expect(page.locator('#sj-status[data-state="setup"]')).to_be_visible()
    expect(page.locator("#sj-secret")).to_contain_text("Only you can see your pictures")
    expect(page.locator("#sj-confirm")).to_be_disabled()
    page.click("#sj-random")
    expect(page.locator("[data-tray-piece]")).to_have_count(0)
    expect(page.locator("#sj-confirm")).to_be_enabled()
    page.click("#sj-confirm")
    if then_waits:
        expect(page.locator('#sj-status[data-state="waiting-setup"]')).to_contain_text("Waiting for the opponent")
    mine = "() => window.matchClient.events.map((e) => e.action).filter((a) => a && a.setup).pop() || null"
    page.wait_for_function(mine)
    return page.evaluate(mine)


def castles_on_page(page: Page, seat: int) -> int:
    return page.locator(f'.sj-board [data-testid="castle"][data-owner="{seat}"]').count()


def finish(pages: list[Page], seats: list[int], choose, *, on_turn=None) -> tuple[list[dict], Counter]:
    """Play until the result shows on every page; `choose(i, snaps) -> action` for page i."""
    seen: Counter = Counter()
    for n in range(MAX_ACTIONS):
        i, snaps = next_turn(pages)
        if i is None:
            return snaps, seen
        action = choose(i, snaps)
        assert action in snaps[i]["legal"], (action, snaps[i]["legal"])
        kind = next(iter(action))
        seen[kind] += 1
        if on_turn:
            on_turn(n, i, snaps, action)
        # the first few actions of each kind check the page's highlights; later ones just click
        play(pages[i], action, seats[i], snaps[i]["version"], check=seen[kind] <= 3)
    pytest.fail(f"no result after {MAX_ACTIONS} actions")


def events_of(page: Page) -> list[dict]:
    return page.evaluate("() => window.matchClient.events.flatMap((e) => e.events || [])")


# ---------------------------------------------------------------------------------------- setups


def save_setup_on_page(page: Page, name: str) -> dict:
    """Build a setup on "My setups" (Random, then a swap by clicks) and save it."""
    page.goto("/decks")
    page.click('a[href="/decks/stratego_junior"]')
    page.wait_for_url("**/decks/stratego_junior")
    expect(page.locator("#sj-deck-save")).to_be_disabled()
    # place two castles by hand, then let Random fill the rest
    page.click('[data-tray-piece="flag"]')
    page.click('[data-setup-tower="1"]')
    expect(page.locator('[data-setup-tower="1"] [data-piece="flag"]')).to_be_visible()
    page.click('[data-tray-piece="king"]')
    page.click('[data-setup-tower="0"]')
    expect(page.locator("#sj-hint")).to_contain_text("not in a tower")
    page.click('[data-setup-cell="3,0"]')
    page.click("#sj-random")
    expect(page.locator("[data-tray-piece]")).to_have_count(0)
    # swap two placed castles by clicking them
    first = page.locator('[data-setup-cell="0,0"] [data-piece]').get_attribute("data-piece")
    second = page.locator('[data-setup-cell="3,3"] [data-piece]').get_attribute("data-piece")
    page.click('[data-setup-cell="0,0"]')
    page.click('[data-setup-cell="3,3"]')
    expect(page.locator('[data-setup-cell="0,0"] [data-piece]')).to_have_attribute("data-piece", second)
    expect(page.locator('[data-setup-cell="3,3"] [data-piece]')).to_have_attribute("data-piece", first)
    page.fill("#sj-deck-name", name)
    page.click("#sj-deck-save")
    expect(page.locator("#sj-deck-msg")).to_have_text(f"Saved “{name}”.")
    expect(page.locator(f'.sj-deck-item .sj-deck-name:text-is("{name}")')).to_be_visible()
    decks = page.request.get("/api/decks?game=stratego_junior").json()["decks"]
    deck = next(d for d in decks if d["name"] == name)
    assert deck["data"]["rows"][0][0] == second and deck["data"]["rows"][3][3] == first
    return deck


def test_my_setups_page(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("sally"))
    expect(page.locator("#nav-decks")).to_be_visible()
    deck = save_setup_on_page(page, "Dragons at the back")
    shot(page, "sj_setups_page")
    # the same name again: the server's 409 is shown
    page.click("#sj-new")
    page.click("#sj-random")
    page.fill("#sj-deck-name", "Dragons at the back")
    page.click("#sj-deck-save")
    expect(page.locator("#sj-deck-msg")).to_contain_text("already saved one called")
    # a double click saves once (the second click used to send a second save, refused as taken)
    page.fill("#sj-deck-name", "Second")
    page.dblclick("#sj-deck-save")
    expect(page.locator("#sj-deck-msg")).to_have_text("Saved “Second”.")
    expect(page.locator(".sj-deck-item")).to_have_count(2)
    # rename the first
    item = page.locator(f'.sj-deck-item[data-deck-id="{deck["id"]}"]')
    item.locator('button[data-action="rename"]').click()
    item.locator(".sj-rename-input").fill("Fortress")
    item.locator('button[data-action="rename-save"]').click()
    expect(page.locator(f'.sj-deck-item[data-deck-id="{deck["id"]}"] .sj-deck-name')).to_have_text("Fortress")
    # edit it: the editor shows its castles
    page.locator(f'.sj-deck-item[data-deck-id="{deck["id"]}"] button[data-action="edit"]').click()
    expect(page.locator("#sj-editor-title")).to_have_text("Editing “Fortress”")
    tower = deck["data"]["towers"][1]
    expect(page.locator(f'[data-setup-tower="1"] [data-piece="{tower}"]')).to_be_visible()
    shot(page, "sj_setups_editing")
    page.set_viewport_size(PHONE)
    shot(page, "sj_setups_phone")
    page.set_viewport_size(DESKTOP)
    # delete the other one
    second = page.locator('.sj-deck-item:has(.sj-deck-name:text-is("Second"))')
    second.locator('button[data-action="delete"]').click()
    second.locator('button[data-action="delete-yes"]').click()
    expect(page.locator(".sj-deck-item")).to_have_count(1)
    names = [d["name"] for d in page.request.get("/api/decks?game=stratego_junior").json()["decks"]]
    assert names == ["Fortress"]
    errors = [e for e in w.errors if "status of 409" not in e]  # the refused duplicate name
    assert not errors, errors


# ---------------------------------------------------------------------------------------- Quest


def test_quest_match_two_people_to_a_flag_capture(browser, server):
    rng = random.Random(5)
    a_ctx, alice, wa = person(browser, server, "alice")
    b_ctx, bob, wb = person(browser, server, "bob", PHONE)
    try:
        deck = save_setup_on_page(bob, "Bob's castle")
        match_id = create_stratego(alice, variant="quest", memory_aid=True)
        expect(alice.locator("#waiting-for-players")).to_be_visible()
        expect(alice.locator("#match-rules")).to_contain_text("Quest")
        # the open match shows its game and options in Bob's lobby
        bob.goto("/lobby")
        tags = bob.locator(f'#open-matches li[data-match-id="{match_id}"] .option-tag')
        expect(tags).to_have_text(["Quest (dice)", "memory aid"])
        join_from_lobby(bob, match_id)

        # setups: Alice "Random", Bob loads his saved setup from the list. Alice's being done
        # keeps the line above Bob's board at its size on his phone ("is placing their castles…"
        # became "has placed their castles", two lines, and pushed the board 24 px down)
        # (the size once the line is drawn with that text: the page may be between two renders)
        size = (
            "(text) => { const e = document.getElementById('sj-opp-state'); if (!e || !e.textContent.includes(text))"
            " return null; const r = e.getBoundingClientRect(); return r.width > 0 ? [r.width, r.height] : null; }"
        )
        before = bob.wait_for_function(size, arg="is placing").json_value()
        sent = place_random_and_confirm(alice, then_waits=True)
        shot(alice, "sj_quest_setup_waiting")
        assert bob.wait_for_function(size, arg="has placed their castles").json_value() == before
        expect(bob.locator("#sj-load option")).to_contain_text(["Load setup…", "Bob's castle"])
        bob.select_option("#sj-load", str(deck["id"]))
        expect(bob.locator("#sj-hint")).to_contain_text("Loaded")
        tower = deck["data"]["towers"][1]
        expect(bob.locator(f'[data-setup-tower="1"] [data-piece="{tower}"]')).to_be_visible()
        shot(bob, "sj_quest_setup_phone")
        bob.click("#sj-confirm")

        expect(alice.locator('.sj[data-phase="flip"]')).to_be_visible()
        # each side sees its own pictures and the other's backs, own side at the bottom
        assert castles_on_page(alice, 0) == 19 and castles_on_page(alice, 1) == 19  # 16 + 3 towers
        expect(alice.locator('.sj-board [data-owner="1"][data-piece=""]')).to_have_count(19)
        expect(bob.locator('.sj-board [data-owner="0"][data-piece=""]')).to_have_count(19)
        a_front = alice.locator(".sj-board .sj-sq").nth(20)  # screen row 5, column 0: red's front row
        expect(a_front).to_have_attribute("data-sq", "5,0")
        b_front = bob.locator(".sj-board .sj-sq").nth(20)  # blue sees the board turned round
        expect(b_front).to_have_attribute("data-sq", "3,3")
        assert b_front.locator("[data-piece]").get_attribute("data-piece") == deck["data"]["rows"][0][0]
        assert a_front.locator("[data-piece]").get_attribute("data-piece") == sent["setup"]["rows"][0][0]
        expect(alice.locator("#sj-die")).to_be_visible()
        expect(alice.locator(".sj-target-flip")).to_have_count(4)
        shot(alice, "sj_quest_first_flip")

        shots_taken = set()

        def choose(i, snaps):
            me, other = snaps[i], snaps[1 - i]
            if i == 0:
                return quest_choice(
                    me["view"], me["legal"], rng, other["view"], tower_plan=("jester", "black_knight", "flag")
                )
            return quest_choice(me["view"], me["legal"], rng, other["view"], hopeless=True)

        def on_turn(n, i, snaps, action):
            phase = snaps[i]["view"]["phase"]
            if i == 1 and phase == "return" and "return" not in shots_taken:
                shots_taken.add("return")
                expect(bob.locator("#sj-status")).to_contain_text("Black Knight")
                shot(bob, "sj_quest_black_knight_return_phone")
                shot(alice, "sj_quest_black_knight_alice")
            if i == 0 and "attack_tower" in action and "towers" not in shots_taken:
                shots_taken.add("towers")
                shot(alice, "sj_quest_tower_attack")
            if n == 12:
                shot(bob, "sj_quest_midgame_phone")

        _snaps, seen = finish([alice, bob], [0, 1], choose, on_turn=on_turn)
        for page in (alice, bob):
            expect(page.locator("#result")).to_be_visible()
            expect(page.locator("#result")).to_have_attribute("data-reason", "flag_captured")
        expect(alice.locator(".result-headline")).to_contain_text("You win")
        expect(bob.locator(".result-headline")).to_have_text("You lose.")
        expect(bob.locator(".result-detail")).to_contain_text("found your Flag")
        # everything is shown at the end
        expect(alice.locator('.sj-board [data-owner="1"][data-piece=""]')).to_have_count(0)
        shot(alice, "sj_quest_result")
        shot(bob, "sj_quest_result_phone")

        kinds = Counter(e["kind"] for e in events_of(alice))
        assert kinds["die_rolled"] >= 5 and kinds["flip"] >= 5
        assert kinds["tower_attacked"] >= 3 and kinds["castles_returned"] == 1  # jester, black knight, flag
        assert seen["place"] >= 2 and seen["attack_tower"] >= 3
        # the log tells the story
        log = alice.locator("#log").inner_text()
        assert "rolled the die" in log and "turned round" in log and "the Black Knight" in log
        assert "found the Flag" in log
        info = alice.request.get(f"/api/matches/{match_id}").json()
        assert info["status"] == "finished" and info["result"]["reason"] == "flag_captured"
        assert info["options"]["variant"] == "quest" and info["options"]["memory_aid"] is True
        assert not wa.errors and not wb.errors, (wa.errors, wb.errors)
    finally:
        a_ctx.close()
        b_ctx.close()


# ---------------------------------------------------------------------------------------- Victory


def test_victory_match_two_people_to_a_flag_capture(browser, server):
    rng = random.Random(11)
    a_ctx, alice, wa = person(browser, server, "vera", seed=101)
    b_ctx, bob, wb = person(browser, server, "victor", seed=202)
    c_ctx = browser.new_context(base_url=server.base_url, viewport=PHONE)
    try:
        match_id = create_stratego(alice, variant="victory", turn_limit=VICTORY_TURN_LIMIT)
        join_from_lobby(bob, match_id)
        carol = c_ctx.new_page()  # a spectator, not logged in
        wc = watch(carol)
        carol.goto(f"/matches/{match_id}")
        expect(carol.locator('#sj-status[data-state="spectating"]')).to_be_visible()
        place_random_and_confirm(bob, then_waits=True)
        place_random_and_confirm(alice, then_waits=False)
        expect(alice.locator('.sj[data-phase="play"]')).to_be_visible()
        expect(alice.locator(".sj-selectable").first).to_be_visible()
        # the spectator sees only backs, red at the bottom
        expect(carol.locator('.sj[data-phase="play"]')).to_be_visible()
        expect(carol.locator('.sj-board [data-testid="castle"]:not([data-piece=""])')).to_have_count(0)
        expect(carol.locator(".sj-board .sj-sq").nth(20)).to_have_attribute("data-sq", "5,0")

        state = {"restricted": False, "combat_shot": False, "back_and_forth": None}

        def choose(i, snaps):
            me, other = snaps[i], snaps[1 - i]
            if i == 0 and me["view"]["turn"] < 4:  # Alice opens with a move forward and back
                moves = [x for x in me["legal"] if "move" in x]
                if me["view"]["turn"] == 0:
                    first = next(m for m in moves if m["move"]["from"][0] == 5 and m["move"]["to"][0] == 4)
                    state["back_and_forth"] = first["move"]
                    return first
                bf = state["back_and_forth"]
                back = {"move": {"from": bf["to"], "to": bf["from"]}}
                if me["view"]["turn"] == 2 and back in me["legal"]:
                    return back
            return victory_choice(me["view"], me["legal"], rng, other["view"])

        def on_turn(n, i, snaps, action):
            view = snaps[i]["view"]
            if i == 0 and view["turn"] == 4 and view["restricted"]:
                # the back-and-forth rule: the forward move again is not offered, and the page says so
                bf = state["back_and_forth"]
                assert {"move": bf} not in snaps[0]["legal"]
                expect(alice.locator("#sj-restricted-note")).to_be_visible()
                expect(alice.locator(sq(bf["to"]))).to_have_class(re.compile(r"\bsj-restricted\b"))
                shot(alice, "sj_victory_back_and_forth")
                state["restricted"] = True
            if "attack" in action and not state["combat_shot"] and n > 6:
                state["combat_shot"] = "pending"
            elif state["combat_shot"] == "pending":
                state["combat_shot"] = True
                expect(alice.locator('#sj-last[data-kind="combat"]')).to_be_visible()
                shot(alice, "sj_victory_combat")
                shot(carol, "sj_victory_spectator_phone")

        snaps, seen = finish([alice, bob], [0, 1], choose, on_turn=on_turn)
        assert state["restricted"], "the back-and-forth opening did not happen"
        assert seen["attack"] >= 3 and seen["move"] >= 5 and seen["attack_tower"] >= 1
        for page in (alice, bob, carol):
            expect(page.locator("#result")).to_have_attribute("data-reason", "flag_captured")
        results = snaps[0]["result"]["results"]
        winner = results.index("win")
        expect([alice, bob][winner].locator(".result-headline")).to_contain_text("You win")
        expect([alice, bob][1 - winner].locator(".result-headline")).to_have_text("You lose.")
        expect(carol.locator(".result-headline")).to_contain_text("wins!")
        kinds = Counter(e["kind"] for e in events_of(alice))
        assert kinds["combat"] >= 3 and kinds["moved"] >= 5
        # combat reveals are in the log for both players
        assert " attacked " in alice.locator("#log").inner_text()
        assert "found the Flag" in bob.locator("#log").inner_text()
        shot(alice, "sj_victory_result")
        shot(bob, "sj_victory_result_bob")
        carol.set_viewport_size(PHONE)
        shot(carol, "sj_victory_result_spectator_phone")
        info = alice.request.get(f"/api/matches/{match_id}").json()
        assert info["result"]["reason"] == "flag_captured"
        assert info["options"]["move_cap"] == VICTORY_TURN_LIMIT  # the lobby's option reached the server
        assert not wa.errors and not wb.errors and not wc.errors, (wa.errors, wb.errors, wc.errors)
        # the replay draws the finished match
        alice.click("#watch-replay")
        alice.wait_for_url(f"**/matches/{match_id}/replay*")
        alice.click("#replay-last")
        expect(alice.locator("#result")).to_be_visible()
        shot(alice, "sj_victory_replay_last")
        alice.click("#replay-first")
        expect(alice.locator("#step-lines")).to_contain_text("The match starts")
        assert not wa.errors, wa.errors
    finally:
        a_ctx.close()
        b_ctx.close()
        c_ctx.close()


# ---------------------------------------------------------------------------------------- computer


def test_match_against_the_expert_computer_from_the_lobby(browser, server):
    rng = random.Random(3)
    ctx, page, w = person(browser, server, "dora", PHONE)
    try:
        match_id = create_stratego(page, variant="quest", memory_aid=True, computer="expert", turn_seconds=60)
        place_random_and_confirm(page, then_waits=False)
        expect(page.locator(".seat-card[data-seat='1'] .seat-name")).to_contain_text("Computer")

        def choose(i, snaps):
            return quest_choice(snaps[0]["view"], snaps[0]["legal"], rng, None)

        def on_turn(n, i, snaps, action):
            if n == 3:
                shot(page, "sj_vs_computer_phone")

        finish([page], [0], choose, on_turn=on_turn)
        expect(page.locator("#result")).to_be_visible()
        shot(page, "sj_vs_computer_result_phone")
        info = page.request.get(f"/api/matches/{match_id}").json()
        assert info["status"] == "finished" and info["seats"][1]["bot"]
        assert info["result"]["reason"] in ("flag_captured", "no_legal_action")
        assert not w.errors, w.errors
    finally:
        ctx.close()


def test_victory_match_against_the_expert_computer_from_the_lobby(browser, server):
    """Victory against the strongest computer, created from the lobby, played to its end."""
    rng = random.Random(4)
    ctx, page, w = person(browser, server, "vera")
    try:
        match_id = create_stratego(
            page, variant="victory", computer="expert", turn_seconds=60, turn_limit=VICTORY_TURN_LIMIT
        )
        place_random_and_confirm(page, then_waits=False)
        expect(page.locator(".seat-card[data-seat='1'] .seat-name")).to_contain_text("Computer")

        def choose(i, snaps):  # no peeking at the computer's castles: only what the page shows
            return victory_choice(snaps[0]["view"], snaps[0]["legal"], rng, None)

        finish([page], [0], choose)
        expect(page.locator("#result")).to_be_visible()
        info = page.request.get(f"/api/matches/{match_id}").json()
        assert info["status"] == "finished" and info["seats"][1]["bot"] == "expert"
        assert info["result"]["reason"] in ("flag_captured", "no_legal_action")
        assert not w.errors, w.errors
    finally:
        ctx.close()


def test_a_setup_with_a_long_unbroken_name_keeps_the_page_in_its_width(new_page):
    """A name of 60 letters without a space breaks inside its heading and its message instead of
    pushing the page sideways (it grew to 1,523 px on a 1,280 px screen)."""
    page = new_page()
    signup(page, unique_name("rita"))
    page.goto("/decks/stratego_junior")
    page.click("#sj-random")
    long_name = "Ř" * 60
    page.fill("#sj-deck-name", long_name)
    page.click("#sj-deck-save")
    expect(page.locator("#sj-deck-msg")).to_have_text(f"Saved “{long_name}”.")
    expect(page.locator("#sj-editor-title")).to_contain_text(long_name)
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    # on a phone (loaded there: the board is drawn for the width it starts at), the list holds it
    page.set_viewport_size(PHONE)
    page.reload()
    expect(page.locator(".sj-deck-item .sj-deck-name")).to_have_text([long_name])
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
