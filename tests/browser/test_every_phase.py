"""Issue 16, "What players expect at the table", in every phase of every game, in Chromium:

* resigning ends the match cleanly: the resigning seat's page says "You resigned." and "You
  lose.", the other player's page says "<name> resigned.", and neither has a live control left
  (no enabled button in the game, no Resign button, no legal action);
* in a game of three seats, a resignation hands the seat to the computer and the match goes on:
  the player's page keeps no live control, not even the Resign button;
* a reload in a choice phase keeps the choice as it was: the status, the offered actions and the
  half-built attack (Fantasy súboj's chosen attacker, Treasure Beasts' draft pick sent while the
  other seat still picks and its attack being built) are the server's, so the page after the
  reload equals the page before it.

The first phase of Battle Runes, Stratego Junior (Quest) and Scratch Wars against the computer
is in test_table_manners.py; here two people sit at each table (tests/browser/table_driver.py
plays them through the API to the phase, so no computer move is waited for) and the pages open
once the phase is reached.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, unique_name, watch
from tests.browser.table_driver import Goal, Snapshot, Table, my_turn, person, sit_down

pytestmark = [pytest.mark.browser]


@dataclass(frozen=True)
class Phase:
    """Where a test stops a game: its options, the goal the driver plays to, the action kinds it
    prefers on the way, and a selector that shows the phase is on the resigning seat's page."""

    game: str
    options: dict = field(default_factory=dict)
    goal: Goal = lambda snap: bool(snap["legal"])
    prefer: tuple[str, ...] = ()
    shown: str = "#game-root button:enabled"
    #: matches to try: phases that depend on the cards dealt are not reached in every match
    tries: int = 1


def _chosen_while_other_chooses(snap: Snapshot) -> bool:
    return snap["seat"] in snap["chosen"] and len(snap["chosen"]) < len(snap["to_act"])


PHASES = {
    "battle_runes-second-turn": Phase(
        "battle_runes",
        goal=lambda s: bool(s["legal"]) and s["view"]["turn"] >= 1,
        shown="#confirm-pick",
        tries=3,  # random picks end 1.5 % of matches in their first turn (45 of 3,000 deals)
    ),
    "battle_runes-chosen-other-chooses": Phase(
        "battle_runes", goal=_chosen_while_other_chooses, shown='#br-status[data-state="waiting"]'
    ),
    "stratego_junior-victory-setup": Phase(
        "stratego_junior", {"variant": "victory"}, my_turn("setup"), shown="#sj-random"
    ),
    "stratego_junior-quest-play": Phase(
        "stratego_junior", {"variant": "quest"}, my_turn("play"), shown='#sj-status[data-state="my-turn"]'
    ),
    "stratego_junior-victory-play": Phase(
        "stratego_junior", {"variant": "victory"}, my_turn("play"), shown='#sj-status[data-state="my-turn"]'
    ),
    "scratch_wars-start-weapon": Phase(
        "scratch_wars", {"level": 3}, my_turn("start_weapon"), shown='#sw-choices[data-phase="start_weapon"] button'
    ),
    "scratch_wars-mid-duel": Phase(
        "scratch_wars", {"level": 3}, my_turn("main"), shown='#sw-choices[data-phase="main"] button'
    ),
    "fantasy_duel-attacker": Phase(
        "fantasy_duel", goal=my_turn("attacker"), shown='#fd-actions[data-phase="attacker"]'
    ),
    "fantasy_duel-target": Phase(
        "fantasy_duel", goal=my_turn("target"), prefer=("attacker",), shown='#fd-actions[data-phase="target"]'
    ),
    "fantasy_duel-spoils": Phase(
        "fantasy_duel",
        goal=my_turn("spoils"),
        prefer=("attacker", "target"),
        shown='#fd-actions[data-phase="spoils"]',
        tries=3,
    ),
    "treasure_beasts-draft": Phase("treasure_beasts", goal=my_turn("draft"), shown="#tb-pack .tb-act-pick"),
    "treasure_beasts-play": Phase("treasure_beasts", goal=my_turn("main"), shown='#tb-actions[data-phase="main"]'),
    "treasure_beasts-attack": Phase(
        "treasure_beasts",
        goal=my_turn("attack"),
        prefer=("target", "deploy"),
        shown='#tb-actions[data-phase="attack"]',
        tries=3,
    ),
    "treasure_beasts-losses": Phase(
        "treasure_beasts",
        goal=my_turn("losses"),
        prefer=("target", "join", "deploy", "strike"),
        shown='#tb-actions[data-phase="losses"]',
        tries=5,
    ),
}


@pytest.fixture
def people(browser, server) -> Iterator[list]:
    """Two people, each in a browser context of their own (closed after the test)."""
    pair = [person(browser, server.base_url, "ann"), person(browser, server.base_url, "bob")]
    yield pair
    for _, ctx in pair:
        ctx.close()


def reach(people: list, phase: Phase) -> tuple[Table, Snapshot]:
    """A new match of ``phase.game`` played to ``phase`` (another match when the cards did not
    get there), and the snapshot of the seat that is there."""
    for attempt in range(phase.tries):
        table = sit_down(people, phase.game, phase.options)
        snap = table.drive(phase.goal, phase.prefer, seed=attempt)
        if snap is not None:
            return table, snap
        table.contexts[0].request.post(f"/api/matches/{table.match_id}/resign")
    pytest.fail(f"{phase.game}: {phase.tries} matches never reached the phase")


def open_table(table: Table, seat: int, shown: str) -> tuple[Page, list[str]]:
    page = table.contexts[seat].new_page()
    w = watch(page)
    page.goto(f"/matches/{table.match_id}")
    expect(page.locator(shown).first).to_be_visible()
    return page, w.errors


def no_live_controls(page: Page) -> None:
    """No control of the game is left: no Resign, no enabled button on the board (the result's
    rematch offer, which sits under the result on the board, is not the game's), no legal action."""
    expect(page.locator("#resign-button")).to_be_hidden()
    expect(page.locator("#game-root button:enabled:not(#rematch-panel button)")).to_have_count(0)
    assert page.evaluate("() => window.matchClient.snapshot.legal.length") == 0


@pytest.mark.parametrize("case", sorted(PHASES))
def test_resigning_in_every_phase_ends_the_match_cleanly(people, case):
    phase = PHASES[case]
    table, snap = reach(people, phase)
    seat = snap["seat"]
    page, errors = open_table(table, seat, phase.shown)
    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-button").click()
    result = page.locator("#result")
    expect(result).to_contain_text("You resigned.")
    expect(result).to_contain_text("You lose.")
    no_live_controls(page)
    info = page.request.get(f"/api/matches/{table.match_id}").json()
    assert info["status"] == "finished" and info["result"]["reason"] == "resigned", info
    assert info["result"]["results"][seat] == "loss" and info["result"]["results"][1 - seat] == "win"
    other, other_errors = open_table(table, 1 - seat, "#result")
    name = re.escape(table.names[seat])
    expect(other.locator("#result")).to_contain_text(re.compile(rf"{name}[^.]* resigned\."))
    expect(other.locator("#result")).not_to_contain_text("You resigned")
    no_live_controls(other)
    assert not errors and not other_errors, (errors, other_errors)


def _decision(page: Page) -> dict:
    """What the page offers to decide now: the status line (not its clock, which ticks), every
    action button, the units and creatures in the attack, the attack and the draft picks."""
    return page.evaluate(
        """() => ({
          status: (document.querySelector('#fd-status > span, #tb-status > span') || {}).textContent || null,
          actions: [...document.querySelectorAll('#game-root button[data-action]')].map((b) => b.dataset.action).sort(),
          roles: [...document.querySelectorAll('#game-root [class*="fd-role-"], #game-root [class*="tb-role-"]')]
            .map((e) => `${e.className}|${e.dataset.card || e.dataset.uid}`).sort(),
          attack: (document.querySelector('#tb-attack') || { outerHTML: null }).outerHTML,
          picks: (document.querySelector('#tb-picks') || { outerHTML: null }).outerHTML,
        })"""
    )


RELOADS = {
    "fantasy_duel-attacker-chosen": PHASES["fantasy_duel-target"],
    "treasure_beasts-draft-picked": Phase(
        "treasure_beasts", goal=_chosen_while_other_chooses, shown='#tb-status[data-state="waiting"]'
    ),
    "treasure_beasts-attack-being-built": Phase(
        "treasure_beasts",
        goal=lambda s: my_turn("attack")(s) and bool(s["view"]["attack"]["attackers"]),
        prefer=("join", "target", "deploy"),
        shown="#tb-attack",
        tries=3,
    ),
}


@pytest.mark.parametrize("case", sorted(RELOADS))
def test_a_reload_keeps_the_choice_being_made(people, case):
    phase = RELOADS[case]
    table, snap = reach(people, phase)
    page, errors = open_table(table, snap["seat"], phase.shown)
    before = _decision(page)
    assert before["status"], before
    page.evaluate("() => { window.__beforeReload = true; }")
    page.reload()
    page.wait_for_function("() => !window.__beforeReload && window.matchClient && window.matchClient.snapshot")
    expect(page.locator(phase.shown).first).to_be_visible()
    assert _decision(page) == before
    assert not errors, errors


@pytest.mark.parametrize("game", ["fantasy_duel", "treasure_beasts"])
def test_resigning_in_a_three_seat_game_hands_the_seat_to_the_computer(new_page, game):
    """Three seats: a resignation does not end the match (Rules.resign), the computer plays the
    seat on; the player's page keeps no live control, not even a second Resign button."""
    page = new_page()
    w = watch(page)
    r = page.request.post("/api/auth/register", data={"name": unique_name("trio"), "password": PASSWORD})
    assert r.status == 201, r.text()
    r = page.request.post(
        "/api/matches",
        data={"game": game, "players": 3, "options": {"turn_seconds": 600}, "computer": [{"seat": 1}, {"seat": 2}]},
    )
    assert r.status == 201, r.text()
    match_id = int(r.json()["id"])
    page.goto(f"/matches/{match_id}")
    expect(page.locator("#resign-button")).to_be_visible()
    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-button").click()
    page.wait_for_function("() => (window.matchClient.snapshot.seats || []).some((s) => s.seat === 0 && s.resigned)")
    no_live_controls(page)
    # the seat card says so (not "connected"), and the two computers are told apart as on the board
    if page.evaluate("() => window.matchClient.snapshot.status") == "active":
        expect(page.get_by_test_id("seat-0").locator(".seat-status")).to_have_text("resigned — the computer plays on")
        expect(page.get_by_test_id("presence-0")).to_have_count(0)
    for seat in (1, 2):
        expect(page.get_by_test_id(f"seat-{seat}").locator(".seat-name")).to_contain_text(f"· seat {seat + 1}")
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["seats"][0]["resigned"], info
    assert not w.errors, w.errors
