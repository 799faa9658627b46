"""Scratch Wars in Chromium: the card gallery, the loadout editor (with the server's own
validation messages), a whole level-3 duel of two people from the lobby (one with a loadout saved
in the editor, one quick random; the second player on a phone-sized screen), and a duel against
the computer (expectimax), each played by clicking the offered choices until the result.

Screenshots go to ``BROWSER_SCREENSHOTS`` (default ``/tmp/scratch``).
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

from tests.browser.helpers import join_from_lobby, signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = Path(os.environ.get("BROWSER_SCREENSHOTS") or "/tmp/scratch")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: how a test player picks among the offered choices: earlier kinds first (a random one of them),
#: so that duels end soon; "end_turn" only when nothing else is offered
PREFERENCE = (
    "fire",  # which permanent attack fires first (offered alone, when two are due)
    "use",
    "target",
    "detonate",
    "combo",
    "start_weapon",
    "starter",
    "spin",
    "shield",
    "take_hit",
    "repair",
    "skip",
    "keep_combos",
    "cancel",
    "end_turn",
)
DUEL_SECONDS = 150
CHOICES_JS = (
    "() => [...document.querySelectorAll('#sw-choices button.sw-choice:not([disabled])')].map((b) => b.dataset.action)"
)


def shot(page: Page, name: str, full_page: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def pick(actions: list[dict], rng: random.Random) -> dict:
    """The test player's choice: by :data:`PREFERENCE`, hitting the hero when it may."""

    def rank(action: dict) -> float:
        kind = next(iter(action))
        bonus = -0.5 if kind == "target" and action["target"] == "hero" else 0
        return PREFERENCE.index(kind) + bonus + rng.random() * 0.4

    return min(actions, key=rank)


def click_choice(page: Page, action: dict) -> bool:
    """Click the button of ``action``; False if it went away meanwhile (a newer snapshot)."""
    selector = f"#sw-choices button.sw-choice[data-action='{json.dumps(action, separators=(',', ':'))}']"
    try:
        page.locator(selector).first.click(timeout=3000)
    except PlaywrightError:
        return False
    return True


def play_until_result(pages: list[Page], rng: random.Random, *, seconds: float = DUEL_SECONDS, on_move=None) -> int:
    """Whoever is offered choices clicks one, until every page shows the result.

    :returns: the number of clicks.
    """
    clicks = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if all(p.locator("#result").count() for p in pages):
            return clicks
        acted = False
        for page in pages:
            offered = [json.loads(a) for a in page.evaluate(CHOICES_JS)]
            if not offered:
                continue
            action = pick(offered, rng)
            if on_move:
                on_move(page, action, clicks)
            if click_choice(page, action):
                clicks += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(40)
    pytest.fail(f"no result after {seconds} s ({clicks} clicks)")


def create_from_lobby(page: Page, *, computer: str | None = None, level: int = 3) -> int:
    """The lobby's form for Scratch Wars: the level option (effects only shown at level 2)."""
    page.goto("/lobby")
    page.select_option("#create-game", "scratch_wars")
    expect(page.locator("#opt-level")).to_be_visible()
    expect(page.locator("#opt-effects")).to_be_hidden()
    page.select_option("#opt-level", "2")
    expect(page.locator("#opt-effects")).to_be_visible()
    page.select_option("#opt-level", str(level))
    if level != 2:
        expect(page.locator("#opt-effects")).to_be_hidden()
    if computer:
        page.check('input[name="opponent"][value="computer"]')
        expect(page.locator("#create-level option")).to_have_count(3)  # Easy, Medium, Hard
        page.select_option("#create-level", computer)
    else:
        page.check('input[name="opponent"][value="person"]')
    page.select_option("#create-turn", "120")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def save_loadout(page: Page, name: str, hero: str, weapons: list[str]) -> None:
    page.goto("/decks/scratch_wars")
    page.wait_for_selector("body[data-sw-ready]")
    page.click(f'#sw-builder [data-testid="hero-{hero}"]')
    for code in weapons:
        page.click(f'#sw-builder button[data-testid="weapon-{code}"]')
    expect(page.locator("#sw-weapon-count")).to_have_text(f"{len(weapons)} / 5 weapons")
    page.fill("#sw-name", name)
    page.click("#sw-save")
    expect(page.locator("#sw-deck-status")).to_contain_text(f"Saved “{name}”")
    expect(page.locator(f'#sw-deck-list li[data-name="{name}"]')).to_be_visible()


# ------------------------------------------------------------------ the gallery and the editor


def test_gallery_draws_every_card(new_page):
    page = new_page()
    w = watch(page)
    page.goto("/games/scratch_wars/cards")
    page.wait_for_selector("body[data-sw-ready]")
    catalog = page.request.get("/api/games/scratch_wars").json()["catalog"]
    heroes, weapons = catalog["heroes"], catalog["weapons"]
    expect(page.locator("#hero-grid .sw-hero:not(.sw-fallback)")).to_have_count(len(heroes))
    expect(page.locator(".sw-grid-weapons .sw-weapon:not(.sw-fallback)")).to_have_count(len(weapons))
    assert page.locator(".sw-fallback").count() == 0
    # every wheel has 9 coloured segments; a hero has 4 time-of-day columns
    assert page.locator(".sw-grid-weapons svg.sw-wheel").count() == len(weapons)
    segments = page.locator(".sw-grid-weapons svg.sw-wheel").first.locator(".sw-seg")
    expect(segments).to_have_count(catalog["wheel_segments"])
    expect(page.locator('[data-testid="hero-BRAM"] .sw-tod')).to_have_count(4)
    # negative bonuses look different; flagged ones carry the flag marker
    assert page.locator("#hero-grid .sw-bonus-neg").count() > 0
    assert page.locator("#hero-grid .sw-bonus .sw-flag").count() > 0
    # the rulebook's rarity check, with the numbers
    bram = next(h for h in heroes if h["code"] == "BRAM")
    expect(page.locator('[data-testid="hero-BRAM"] .sw-rarity')).to_contain_text(f"{bram['rarity']['strength']} vs 18")
    expect(page.locator('[data-testid="weapon-TINS"] .sw-rarity')).to_contain_text("16 vs 14.5: above average")
    for card in heroes + weapons:
        expect(page.locator(f'[data-code="{card["code"]}"] .sw-card-name')).to_have_text(card["name"])
    # a weapon's own name is Czech, its English translation beside it
    tins = page.locator('[data-testid="weapon-TINS"]')
    expect(tins.locator(".sw-card-name")).to_have_text("Plechový krátký meč")
    expect(tins.locator(".sw-card-name")).to_have_attribute("lang", "cs")
    expect(tins.locator(".sw-card-local")).to_have_text("Tin Shortsword")
    shot(page, "sw_gallery_desktop")
    # filters: bows only
    page.click('#sw-filters button[data-filter="bow"]')
    expect(page.locator("#heroes-section")).to_be_hidden()
    expect(page.locator('.sw-weapon-group[data-type="bow"]')).to_be_visible()
    expect(page.locator('.sw-weapon-group[data-type="axe"]')).to_be_hidden()
    page.click('#sw-filters button[data-filter="all"]')
    page.set_viewport_size(PHONE)
    page.locator('[data-testid="hero-MORA"]').scroll_into_view_if_needed()
    shot(page, "sw_gallery_phone", full_page=False)
    assert not w.errors, w.errors


def test_loadout_editor_saves_renames_deletes_and_shows_server_messages(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("lo"))
    page.goto("/decks/scratch_wars")
    page.wait_for_selector("body[data-sw-ready]")
    expect(page.locator("#sw-deck-list")).to_contain_text("No saved loadouts yet")
    # no weapon: the server's own message
    page.click('#sw-builder [data-testid="hero-GORM"]')
    page.fill("#sw-name", "Anvil")
    page.click("#sw-save")
    expect(page.locator("#sw-deck-error")).to_contain_text("A hero carries from 1 to 5 weapons; this one has 0")
    # at most 5, each kind once (the builder refuses a 6th with a hint)
    for code in ("THND", "GLAC", "QRRY", "MRSH", "FLNT"):
        page.click(f'#sw-builder button[data-testid="weapon-{code}"]')
    page.click('#sw-builder .sw-filters button[data-filter="all"]')
    page.click('#sw-builder button[data-testid="weapon-KIND"]')
    expect(page.locator("#sw-builder-hint")).to_contain_text("at most 5")
    expect(page.locator("#sw-weapon-count")).to_have_text("5 / 5 weapons")
    page.click("#sw-save")
    expect(page.locator("#sw-deck-status")).to_contain_text("Saved “Anvil”")
    shot(page, "sw_loadouts_desktop")
    # the same name again: 409 name_taken, as the server words it
    page.click("#sw-save-new")
    expect(page.locator("#sw-deck-error")).to_contain_text("already saved one called")
    # rename in the list
    item = page.locator('#sw-deck-list li[data-name="Anvil"]')
    item.locator('button[data-action="rename"]').click()
    item.locator(".sw-rename-input").fill("Big anvil")
    item.locator('button[data-action="rename-ok"]').click()
    expect(page.locator('#sw-deck-list li[data-name="Big anvil"]')).to_be_visible()
    decks = page.request.get("/api/decks?game=scratch_wars").json()["decks"]
    assert [(d["name"], d["data"]["hero"], len(d["data"]["weapons"])) for d in decks] == [("Big anvil", "GORM", 5)]
    page.set_viewport_size(PHONE)
    shot(page, "sw_loadouts_phone", full_page=False)
    page.set_viewport_size(DESKTOP)
    # delete (asks first)
    item = page.locator('#sw-deck-list li[data-name="Big anvil"]')
    item.locator('button[data-action="delete"]').click()
    item.locator('button[data-action="delete-yes"]').click()
    expect(page.locator("#sw-deck-list")).to_contain_text("No saved loadouts yet")
    assert page.request.get("/api/decks?game=scratch_wars").json()["decks"] == []
    # the browser logs the refused saves (422, 409) as failed loads; nothing else went wrong
    assert all(e.startswith("Failed to load resource") for e in w.errors), w.errors


def test_lobby_offers_the_level_and_shows_it_with_the_match(new_page):
    host, guest = new_page(), new_page()
    signup(host, unique_name("lev"))
    signup(guest, unique_name("vis"))
    host.goto("/lobby")
    host.select_option("#create-game", "scratch_wars")
    expect(host.locator("#opt-level")).to_have_value("3")
    expect(host.locator("#opt-effects")).to_be_hidden()
    host.select_option("#opt-level", "2")
    host.select_option("#opt-effects", "every_effect_attacks")
    host.click("#create-submit")
    host.wait_for_url(re.compile(r".*/matches/\d+$"))
    match_id = int(host.url.rsplit("/", 1)[1])
    info = host.request.get(f"/api/matches/{match_id}").json()
    assert info["options"]["level"] == 2 and info["options"]["effects"] == "every_effect_attacks"
    expect(host.locator("#match-rules")).to_contain_text("level 2, every effect attacks the hero")
    guest.goto("/lobby")
    item = guest.locator(f'#open-matches li[data-match-id="{match_id}"]')
    expect(item.locator(".option-tag")).to_have_text(["level 2", "every effect attacks (2a)"])
    shot(guest, "sw_lobby_level_tags", full_page=False)
    host.request.post(f"/api/matches/{match_id}/cancel")


# ------------------------------------------------------------------ duels


def test_two_people_play_a_level3_duel_from_the_lobby(browser, server):
    rng = random.Random(7)
    ctx_a = browser.new_context(base_url=server.base_url, viewport=DESKTOP)
    ctx_b = browser.new_context(base_url=server.base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        for ctx in (ctx_a, ctx_b):
            ctx.set_default_timeout(15000)
        a, b = ctx_a.new_page(), ctx_b.new_page()
        wa, wb = watch(a), watch(b)
        signup(a, unique_name("ann"))
        signup(b, unique_name("ben"))
        save_loadout(a, "Storm witch", "MORA", ["ORCL", "STAR", "TIDE"])

        match_id = create_from_lobby(a, level=3)
        expect(a.locator("#waiting-for-players")).to_be_visible()
        expect(a.locator("#match-rules")).to_contain_text("level 3")
        join_from_lobby(b, match_id)

        # both choose at the same time; Ann takes her saved loadout
        expect(a.locator("#sw-loadout")).to_be_visible()
        expect(b.locator("#sw-loadout")).to_be_visible()
        a.click('.sw-tab[data-tab="saved"]')
        shot(a, "sw_match_loadout_choice")
        a.locator("#sw-saved-loadouts li", has_text="Storm witch").locator("button.sw-use-loadout").click()
        expect(a.locator("#sw-loadout-locked")).to_contain_text("Morag Fenwhistle")
        expect(a.locator('[data-testid="opponent-loadout"]')).to_contain_text("is choosing")
        # Ben sees that Ann has chosen, not what
        expect(b.locator('[data-testid="loadout-state-0"]')).to_contain_text("has chosen")
        expect(b.locator('[data-testid="opponent-loadout"]')).not_to_contain_text("Morag")
        commits = [e for snap in wb.snapshots() for e in snap["events"] if e["kind"] == "action" and e["seat"] == 0]
        assert commits and all(e["action"] is None and e["hidden"] for e in commits), commits
        shot(b, "sw_match_loadout_phone", full_page=False)
        b.click("#sw-quick-random")

        # the table: both heroes, their weapons, the start spin
        expect(a.locator('[data-testid="side-0"]')).to_contain_text("Morag Fenwhistle")
        expect(a.locator('[data-testid="side-0"] .sw-tile')).to_have_count(3)
        expect(b.locator('[data-testid="side-1"] .sw-tile')).to_have_count(5)
        shots = {"decide": False, "phone": False}

        def on_move(page, action, n):
            kind = next(iter(action))
            if kind in ("use", "skip") and not shots["decide"] and page is a:
                page.wait_for_timeout(1700)  # the wheel has stopped
                shot(a, "sw_match_decide_desktop")
                shots["decide"] = True
            elif kind == "spin" and not shots["phone"] and page is b and n > 4:
                shot(b, "sw_match_turn_phone", full_page=False)
                shots["phone"] = True

        clicks = play_until_result([a, b], rng, on_move=on_move)
        assert clicks > 4
        for page in (a, b):
            expect(page.locator("#result")).to_be_visible()
            expect(page.locator("#seed-check")).to_contain_text("matches the hash")
        shot(a, "sw_match_result_desktop")
        b.evaluate("window.scrollTo(0, 0)")
        shot(b, "sw_match_result_phone", full_page=False)
        info = a.request.get(f"/api/matches/{match_id}").json()
        assert info["status"] == "finished" and info["options"]["level"] == 3
        assert sorted(info["result"]["results"]) in (["loss", "win"], ["draw", "draw"])
        headline = a.locator(".result-headline").inner_text()
        assert headline in ("You win!", "You lose.") or headline.startswith("A draw")
        # the log tells the story, from the loadouts to the end
        log = a.locator("#log").inner_text()
        assert "Loadouts revealed" in log and "(random)" in log
        assert "Start spin" in log and "Game over" in log
        assert not wa.errors, wa.errors
        assert not wb.errors, wb.errors
    finally:
        ctx_a.close()
        ctx_b.close()


def test_a_duel_against_the_computer(new_page):
    rng = random.Random(11)
    page = new_page()
    w = watch(page)
    signup(page, unique_name("cara"))
    match_id = create_from_lobby(page, computer="expectimax", level=3)
    expect(page.locator("#sw-loadout")).to_be_visible()
    page.click('.sw-tab[data-tab="suggested"]')
    page.locator("#sw-suggested li", has_text="Gormund Anvilback").locator("button.sw-use-loadout").click()
    expect(page.locator('[data-testid="side-0"]')).to_contain_text("Gormund Anvilback")
    play_until_result([page], rng)
    expect(page.locator("#result")).to_be_visible()
    shot(page, "sw_vs_computer_result")
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "finished"
    assert info["seats"][1]["bot"] == "expectimax"
    assert not w.errors, w.errors
