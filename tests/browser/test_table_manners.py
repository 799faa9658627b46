"""Issue 16, "What players expect at the table", in Chromium through the match pages:

* resigning in the first phase of Scratch Wars (loadouts), Battle Runes (the first picks) and
  Stratego Junior (the setup) ends the match cleanly: the result says "You resigned." to the
  player and "<name> resigned." to a spectator, and no control of the phase is left;
* Stratego Junior: a resigned match shows every castle; the seat dot is the mover's colour; on a
  390 px phone the turn banner (with the clock) stays in sight while the rows scroll.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import signup, unique_name, watch

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}

#: game -> (options, a selector of the first phase's controls, the page's sign that they are live)
FIRST_PHASES = {
    "scratch_wars": ({"level": 3}, ".sw-use-loadout, #sw-quick-random, .sw-choice", "#sw-quick-random"),
    "battle_runes": ({}, "button.rune.selectable, #confirm-pick, #clear-pick", "#confirm-pick"),
    "stratego_junior": ({"variant": "quest"}, "#sj-random, #sj-confirm, [data-tray-piece]", "#sj-random"),
}


def computer_match(page: Page, game: str, options: dict) -> int:
    """A match against the computer (seat 1), created through the API as the lobby does."""
    r = page.request.post(
        "/api/matches",
        data={"game": game, "options": {**options, "turn_seconds": 120}, "computer": [{"seat": 1}]},
    )
    assert r.status == 201, r.text()
    return int(r.json()["id"])


def resign(page: Page) -> None:
    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-button").click()


@pytest.mark.parametrize("game", sorted(FIRST_PHASES))
def test_resigning_in_the_first_phase_ends_the_match_cleanly(new_page, game):
    options, controls, live = FIRST_PHASES[game]
    page = new_page()
    w = watch(page)
    name = unique_name("quitter")
    signup(page, name)
    match_id = computer_match(page, game, options)
    page.goto(f"/matches/{match_id}")
    expect(page.locator(live)).to_be_visible()
    resign(page)
    result = page.locator("#result")
    expect(result).to_contain_text("You resigned.")
    expect(result).to_contain_text("You lose.")
    expect(page.locator(controls)).to_have_count(0)
    expect(page.locator("#resign-button")).to_be_hidden()
    # the faults the issue saw in Scratch Wars: lives without numbers in the result, the phase's
    # "Computer is choosing..." and its "Use" buttons left live (a click answered "The match is over")
    game_root = page.locator("#game-root")
    expect(game_root).not_to_contain_text(re.compile(r"lives · Computer"))
    expect(game_root).not_to_contain_text(re.compile(r"undefined|null lives"))
    expect(game_root).not_to_contain_text("is choosing")
    expect(game_root.get_by_role("button", name=re.compile(r"^Use\b"))).to_have_count(0)
    expect(page.locator("#error-banner")).to_be_hidden()
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "finished" and info["result"]["reason"] == "resigned"
    spectator = new_page()
    spectator.goto(f"/matches/{match_id}")
    expect(spectator.locator("#result")).to_contain_text(re.compile(rf"{re.escape(name)}[^.]* resigned\."))
    expect(spectator.locator(controls)).to_have_count(0)
    assert not w.errors, w.errors


def _background(page: Page, selector: str) -> str:
    return page.locator(selector).evaluate("(e) => getComputedStyle(e).backgroundColor")


def test_stratego_on_a_phone_banner_dot_and_every_castle_after_a_resignation(new_page):
    """Red (seat 0) against the computer on a 390 px phone: while red is to move, the mover's seat
    dot is red (not the site's blue); scrolled to the last row, the turn banner and its clock are
    still on screen; after red resigns, every castle is face up live and in the replay."""
    page = new_page(PHONE)
    w = watch(page)
    signup(page, unique_name("rosa"))
    match_id = computer_match(page, "stratego_junior", {"variant": "quest"})
    page.goto(f"/matches/{match_id}")
    page.locator("#sj-random").click()
    expect(page.locator("#sj-confirm")).to_be_enabled()
    page.locator("#sj-confirm").click()
    expect(page.locator('#sj-status[data-state="my-turn"]')).to_be_visible()

    expect(page.locator(".seat-card[data-seat='0']")).to_have_class(re.compile(r"\bseat-active\b"))
    assert _background(page, ".seat-card[data-seat='0'] .seat-dot") == "rgb(214, 69, 69)"  # --sj-red
    assert _background(page, ".seat-card[data-seat='1'] .seat-dot") == "rgb(53, 104, 201)"  # --sj-blue

    last_row = page.locator(".sj-board .sj-sq").last
    last_row.scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, 200)")
    assert page.evaluate("() => window.scrollY") > 0, "the page did not scroll: nothing to check"
    for selector in ("#sj-status", "#sj-status .seat-clock"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (selector, box)
    expect(page.locator("#sj-status .seat-clock")).to_have_text(re.compile(r"\d"))

    hidden = '.sj-board [data-testid="castle"][data-piece=""]'
    assert page.locator(hidden).count() > 0  # the computer's castles, face down while playing
    resign(page)
    expect(page.locator("#result")).to_contain_text("You resigned.")
    expect(page.locator(hidden)).to_have_count(0)
    assert page.locator('.sj-board [data-testid="castle"]').count() >= 2 * 10
    page.goto(f"/matches/{match_id}/replay")
    page.locator("#replay-last").click()
    expect(page.locator('.sj-board [data-testid="castle"]').first).to_be_visible()
    expect(page.locator(hidden)).to_have_count(0)
    page.locator("#replay-first").click()
    page.locator("#replay-next").click()
    expect(page.locator(hidden)).to_have_count(0)
    assert not w.errors, w.errors


# --------------------------------------------------------------- half-made choices survive a reload


def _stale_draft(page: Page, match_id: int, seat: int, stamp: str, data) -> None:
    """Put a draft of another decision where the page keeps its drafts (see static/js/drafts.js)."""
    page.evaluate(
        "([key, value]) => sessionStorage.setItem(key, value)",
        [f"tta-draft:{match_id}:{seat}", json.dumps({"stamp": stamp, "version": 1, "data": data})],
    )


def test_battle_runes_picks_survive_a_reload_until_the_turn_moves_on(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("rune"))
    match_id = computer_match(page, "battle_runes", {})
    page.goto(f"/matches/{match_id}")
    hand = page.locator(".br-mine button.rune.selectable")
    expect(hand.first).to_be_visible()
    picks = [hand.nth(0).get_attribute("data-rune"), hand.nth(1).get_attribute("data-rune")]
    for rune in picks:
        page.locator(f'.br-mine button[data-rune="{rune}"]').click()
    expect(page.locator("#pick-count")).to_have_text("2 / 3 chosen")
    page.reload()
    expect(page.locator("#pick-count")).to_have_text("2 / 3 chosen")
    for rune in picks:
        expect(page.locator(f'.br-mine button[data-rune="{rune}"]')).to_have_attribute("aria-pressed", "true")
    page.locator('.br-mine button.rune.selectable[aria-pressed="false"]').first.click()
    page.locator("#confirm-pick").click()
    page.wait_for_function(
        "() => { const s = window.matchClient.snapshot; return s.status !== 'active' || (s.view.turn >= 1 && s.legal.length > 0); }"
    )
    status = page.evaluate("() => window.matchClient.snapshot.status")
    assert status == "active", status
    expect(page.locator("#pick-count")).to_have_text("0 / 3 chosen")
    hand_now = [hand.nth(i).get_attribute("data-rune") for i in range(2)]
    _stale_draft(page, match_id, 0, "turn:1", hand_now)  # picks of the last turn: dropped
    page.reload()
    expect(page.locator("#pick-count")).to_have_text("0 / 3 chosen")
    assert page.evaluate(f"() => sessionStorage.getItem('tta-draft:{match_id}:0')") is None
    assert not w.errors, w.errors


def test_stratego_setup_survives_a_reload(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("castle"))
    match_id = computer_match(page, "stratego_junior", {"variant": "quest"})
    page.goto(f"/matches/{match_id}")
    expect(page.locator('#sj-status[data-state="setup"]')).to_be_visible()
    confirm = page.locator("#sj-confirm")
    for n in (1, 2):  # a castle from the tray onto the first square that takes it
        if page.locator(".sj-drop-ok").count() == 0:
            page.locator("[data-tray-piece]").first.click()
        empty = ":not(:has([data-testid='castle']))"
        page.locator(f"[data-setup-cell].sj-drop-ok{empty}, [data-setup-tower].sj-drop-ok{empty}").first.click()
        expect(confirm).to_contain_text(f"({n} of")
    expect(confirm).to_contain_text("(2 of")
    cells = '[data-setup-cell] [data-testid="castle"], [data-setup-tower] [data-testid="castle"]'
    placed = page.locator(cells).evaluate_all(
        "(xs) => xs.map((x) => [x.closest('[data-setup-cell],[data-setup-tower]').outerHTML.length, x.dataset.piece])"
    )
    page.reload()
    expect(confirm).to_contain_text("(2 of")
    assert (
        page.locator(cells).evaluate_all(
            "(xs) => xs.map((x) => [x.closest('[data-setup-cell],[data-setup-tower]').outerHTML.length, x.dataset.piece])"
        )
        == placed
    )
    page.locator("#sj-random").click()
    confirm.click()
    expect(page.locator('#sj-status[data-state="my-turn"]')).to_be_visible()
    assert page.evaluate(f"() => sessionStorage.getItem('tta-draft:{match_id}:0')") is None  # sent: forgotten
    assert not w.errors, w.errors


def test_scratch_wars_loadout_being_built_survives_a_reload(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("builder"))
    match_id = computer_match(page, "scratch_wars", {"level": 3})
    page.goto(f"/matches/{match_id}")
    page.locator('.sw-tab[data-tab="build"]').click()
    page.locator("#sw-match-builder .sw-pick-heroes button").first.click()
    hero = page.locator("#sw-match-chosen-hero").inner_text()
    weapons = page.locator("#sw-match-builder .sw-pick-weapons button")
    weapons.nth(0).click()
    weapons.nth(1).click()
    expect(page.locator("#sw-match-weapon-count")).to_have_text("2 / 5 weapons")
    names = page.locator("#sw-match-summary .sw-chosen-name").all_inner_texts()
    page.reload()
    expect(page.locator('.sw-tab[data-tab="build"]')).to_have_attribute("aria-selected", "true")
    expect(page.locator("#sw-match-weapon-count")).to_have_text("2 / 5 weapons")
    expect(page.locator("#sw-match-chosen-hero")).to_have_text(hero)
    assert page.locator("#sw-match-summary .sw-chosen-name").all_inner_texts() == names
    _stale_draft(page, match_id, 0, "setup", {"hero": None, "weapons": []})  # not this decision: dropped
    page.reload()
    expect(page.locator('.sw-tab[data-tab="build"]')).to_have_attribute("aria-selected", "false")
    assert not w.errors, w.errors


# ------------------------------------------------- Scratch Wars: the owner orders permanent attacks


def test_scratch_wars_page_offers_the_order_of_permanent_attacks(new_page):
    """AMBIGUITY 16 on the page: the engine's own view of a turn ending with permanent attacks 2
    (slot 0) and 5 (slot 1) queued, drawn by the game module for their owner, offers one button per
    queued slot; a click sends that slot's ``fire`` action."""
    from app.games.scratch_wars import RULES
    from app.games.scratch_wars.actions import EndTurn
    from app.games.scratch_wars.data import PERMANENT_ATTACK
    from app.games.scratch_wars.state import READY, Slot

    hero = RULES.book.hero_codes[0]
    loadout = RULES.book.starter_loadout(hero)
    a_slots = [Slot(w) for w in loadout]
    a_slots[0] = Slot(loadout[0], READY, PERMANENT_ATTACK, 2)
    a_slots[1] = Slot(loadout[1], READY, PERMANENT_ATTACK, 5)
    state = RULES.position((hero, hero), (loadout, loadout), slots=(tuple(a_slots), None))
    state, _ = RULES.apply(state, {0: EndTurn()})
    assert state.phase == "order"
    snapshot = {
        "type": "snapshot",
        "match_id": 1,
        "version": 9,
        "seat": 0,
        "status": "active",
        "view": RULES.observe(state, 0),
        "to_act": [0],
        "chosen": [],
        "legal": [RULES.encode_action(a) for a in RULES.legal_actions(state, 0)],
        "events": [],
    }
    assert snapshot["legal"] == [{"fire": 0}, {"fire": 1}]
    page = new_page()
    w = watch(page)
    page.goto("/games/scratch_wars")
    page.evaluate(
        """async (snapshot) => {
          const module = await import("/static/js/games/scratch_wars.js");
          await module.setup(null);
          const root = document.createElement("div");
          root.id = "order-root";
          document.body.prepend(root);
          const client = { seat: 0, matchId: 1, pending: null, events: [], snapshot,
            seatName: (s) => ["Ann", "Bob"][s], act: (a) => { window.__acted = a; }, render: () => {} };
          module.render(root, snapshot, client);
        }""",
        snapshot,
    )
    panel = page.locator('#order-root #sw-choices[data-phase="order"]')
    expect(panel).to_contain_text("Choose which fires next")
    buttons = panel.locator('button[data-kind="fire"]')
    expect(buttons).to_have_count(2)
    expect(buttons.nth(0)).to_contain_text("permanent attack 2")
    expect(buttons.nth(1)).to_contain_text("permanent attack 5")
    expect(buttons.nth(1)).to_contain_text("Bob's hero")
    buttons.nth(1).click()
    assert page.evaluate("() => window.__acted") == {"fire": 1}
    assert not w.errors, w.errors
