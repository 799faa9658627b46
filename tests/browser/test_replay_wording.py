"""The replay page's words, in Chromium:

* computer seats of one level are told apart as on the live page ("Computer · Medium · seat 2"),
  in the move list as on the seat cards;
* Treasure Beasts' draft in a finished match's replay names each seat's pack and pick ("<name>'s
  pack", "<name> keeps"), never "Your pack" for every seat: a replay viewer holds no seat;
* each chance step says what chance did (cards shuffled, dice rolled, an outcome still hidden),
  not "shuffle" for every one;
* the result on the replay page carries no "Watch the replay" link (it would link to itself).

Each match is made through the API against the computer and resigned, so nothing is played out.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, unique_name, watch

pytestmark = [pytest.mark.browser]

BARE_COMPUTER = re.compile(r"Computer · Medium(?! · seat)")


def _start(page: Page, game: str, players: int, options: dict | None = None) -> tuple[int, str]:
    """A new player's match of `game` against `players - 1` Medium computers; returns its id and
    the player's name."""
    name = unique_name("rw")
    r = page.request.post("/api/auth/register", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    computer = [{"seat": s, "level": "medium"} for s in range(1, players)]
    body = {"game": game, "players": players, "options": {"turn_seconds": 600, **(options or {})}, "computer": computer}
    r = page.request.post("/api/matches", data=body)
    assert r.status == 201, r.text()
    return int(r.json()["id"]), name


def _wait_for_event(page: Page, match_id: int, kind: str) -> None:
    """Open the match page and wait until its client has received an event of `kind`."""
    page.goto(f"/matches/{match_id}")
    page.wait_for_function(
        "(kind) => window.matchClient && window.matchClient.events.some((e) => (e.events || []).some((v) => v.kind === kind))",
        arg=kind,
        timeout=60000,
    )


def _resign(page: Page, match_id: int) -> None:
    assert page.request.post(f"/api/matches/{match_id}/resign").ok


def _open_replay(page: Page, match_id: int) -> str:
    """The replay page at its last step; returns the move list's text."""
    page.goto(f"/matches/{match_id}/replay")
    expect(page.locator("#replay-app")).to_have_attribute("data-ready", "true", timeout=30000)
    page.keyboard.press("End")
    return page.locator("#move-list").inner_text()


def test_computer_seats_and_chance_steps_are_named_as_the_live_page_names_them(new_page):
    """Fantasy súboj, a player and two Medium computers: the player resigns (the computer plays
    the seat on), and the running match's replay names each computer with its seat, as the seat
    cards and the log of the live page do; its start roll is dice, its shuffle still hidden."""
    page = new_page()
    w = watch(page)
    match_id, _name = _start(page, "fantasy_duel", 3)
    _wait_for_event(page, match_id, "start_roll")
    expect(page.locator("#log")).to_contain_text("Computer · Medium · seat 2")
    for seat in (1, 2):
        expect(page.get_by_test_id(f"seat-{seat}").locator(".seat-name")).to_have_text(
            re.compile(rf"Computer · Medium · seat {seat + 1}")
        )
    _resign(page, match_id)
    # the match goes on: the seat card says the player resigned and the computer plays on
    expect(page.get_by_test_id("seat-0").locator(".seat-status")).to_have_text("resigned — the computer plays on")
    expect(page.get_by_test_id("presence-0")).to_have_count(0)
    moves = _open_replay(page, match_id)
    assert "Computer · Medium · seat 2" in moves and "Computer · Medium · seat 3" in moves, moves
    assert not BARE_COMPUTER.search(moves), moves
    assert "Chance: shuffle." not in moves, moves
    assert re.search(r"Chance: dice rolled: \d( \d)+\.", moves), moves  # one die per seat
    assert "Chance: hidden until the match ends." in moves, moves  # the shuffle, secret while it runs
    seat_names = page.locator("#seats .seat-name").all_inner_texts()
    assert any("Computer · Medium · seat 2" in n for n in seat_names), seat_names
    # the replay's seat cards say the resignation from its step on
    expect(page.get_by_test_id("seat-0").locator(".seat-status")).to_have_attribute("data-state", "resigned")
    page.keyboard.press("Home")
    expect(page.get_by_test_id("seat-0").locator(".seat-status")).not_to_have_attribute("data-state", "resigned")
    assert not w.errors, w.errors


def test_a_finished_treasure_beasts_draft_names_every_seats_pack_and_pick(new_page):
    """A player and a Medium computer: both keep a card, the player resigns (two seats:
    the match is over), and the replay shows both packs and the pick by their seats' names."""
    page = new_page()
    w = watch(page)
    match_id, name = _start(page, "treasure_beasts", 2)
    _wait_for_event(page, match_id, "dealt")
    expect(page.locator("#log")).to_contain_text("Your pack:")  # the player's own, live
    # both seats keep a card (picks are simultaneous: they are told once every seat has picked)
    page.locator("#tb-pack .tb-card-acts button").first.click()
    page.wait_for_function(
        "() => window.matchClient.events.some((e) => (e.events || []).some((v) => v.kind === 'picked' && v.seat === 1))",
        timeout=60000,
    )
    _resign(page, match_id)
    expect(page.locator("#result")).to_be_visible()
    moves = _open_replay(page, match_id)
    assert "Your pack" not in moves and "You keep" not in moves and "You draw" not in moves, moves
    assert f"{name}'s pack: " in moves and "Computer · Medium's pack: " in moves, moves
    assert "Computer · Medium keeps " in moves, moves
    assert "Chance: the cards are shuffled." in moves, moves
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#watch-replay")).to_have_count(0)
    assert not w.errors, w.errors


@pytest.mark.parametrize("game", ["battle_runes", "fantasy_duel", "scratch_wars", "stratego_junior", "treasure_beasts"])
def test_the_replays_result_does_not_link_to_the_replay(new_page, game):
    page = new_page()
    w = watch(page)
    match_id, _name = _start(page, game, 2)
    page.goto(f"/matches/{match_id}")
    page.wait_for_function(
        "() => window.matchClient && window.matchClient.snapshot && window.matchClient.snapshot.status === 'active'"
    )
    _resign(page, match_id)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#watch-replay")).to_be_visible()  # the match page links to the replay
    _open_replay(page, match_id)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#watch-replay")).to_have_count(0)
    assert not w.errors, w.errors
