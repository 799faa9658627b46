"""Issue 16, "What players expect at the table", live in Chromium on the shared match page (every
game gets it; Battle Runes drives it here):

* presence: each seat says connected, away or gone, and changes live when the opponent closes
  the tab and comes back, for the players and a spectator;
* the clock running out, the computer taking the seat over and the player's return are notices
  on the board, for the player and for a spectator;
* quick chat between two players, read by a spectator, kept across a reload, with the budget's
  refusal in words;
* the tab's title and icon say when it is your turn, and put back when it is not; the sound
  setting is kept; a notification comes when the tab is hidden, once the player allowed it.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import pick_three, signup, unique_name, wait_turn_or_result, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = {"start_score": 500, "win_score": 1000}


def person_match(host: Page, guest: Page, turn_seconds: int = 120) -> int:
    """A Battle Runes match of ``host`` (seat 0) and ``guest`` (seat 1), made through the API."""
    r = host.request.post(
        "/api/matches", data={"game": "battle_runes", "options": {"turn_seconds": turn_seconds, **LONG}}
    )
    assert r.status == 201, r.text()
    match_id = int(r.json()["id"])
    r = guest.request.post(f"/api/matches/{match_id}/join")
    assert r.status == 200 and r.json()["status"] == "active", r.text()
    return match_id


def presence(page: Page, seat: int):
    return page.get_by_test_id(f"presence-{seat}")


def test_presence_changes_live_when_the_opponent_leaves_and_comes_back(new_page):
    host, guest, spectator = new_page(), new_page(), new_page()
    w = watch(host)
    signup(host, unique_name("pia"))
    signup(guest, unique_name("quinn"))
    match_id = person_match(host, guest)
    host.goto(f"/matches/{match_id}")
    expect(presence(host, 0)).to_have_attribute("data-presence", "connected")
    expect(presence(host, 1)).to_have_attribute("data-presence", "gone")  # not there yet
    # the page's one hello asks for everything around the board in its notices (a presence frame
    # came, so the hello was sent)
    hello = w.hellos()[0]
    assert sorted(hello["notices"]) == ["chat", "presence", "rematch", "spectators"], hello
    assert hello["chat_since"] == 0 and "table" not in hello, hello
    guest.goto(f"/matches/{match_id}")
    spectator.goto(f"/matches/{match_id}")
    for page in (host, guest, spectator):
        expect(presence(page, 1)).to_have_attribute("data-presence", "connected")
        expect(presence(page, 0)).to_have_attribute("data-presence", "connected")
    expect(presence(host, 1)).to_have_text("connected")

    context = guest.context
    guest.close()  # the opponent closes the tab
    for page in (host, spectator):
        expect(presence(page, 1)).to_have_attribute("data-presence", "gone")
        expect(presence(page, 1)).to_have_text("gone")
    expect(presence(host, 0)).to_have_attribute("data-presence", "connected")

    guest = context.new_page()  # and comes back
    guest.goto(f"/matches/{match_id}")
    for page in (host, spectator, guest):
        expect(presence(page, 1)).to_have_attribute("data-presence", "connected")
    assert not w.errors, w.errors


def test_timeout_takeover_and_return_are_shown_on_the_board(new_page):
    """A 2-second clock: the player's time runs out (a notice on the board, for them and for a
    spectator), runs out again (the computer takes over: a notice, and the seat says away), and
    "I'm back" gives the seat back (a notice, and the seat says connected)."""
    page, spectator = new_page(), new_page()
    w = watch(page)
    name = unique_name("tess")
    signup(page, name)
    r = page.request.post(
        "/api/matches",
        data={
            "game": "battle_runes",
            "options": {"turn_seconds": 2, **LONG},
            "computer": [{"seat": 1, "level": "random"}],
        },
    )
    assert r.status == 201, r.text()
    match_id = r.json()["id"]
    page.goto(f"/matches/{match_id}")
    spectator.goto(f"/matches/{match_id}")
    board = page.locator("#table-notices")
    timeout = page.get_by_test_id("notice-timeout-0")
    expect(timeout).to_be_visible()
    expect(timeout).to_contain_text("Your time ran out")
    seen = spectator.get_by_test_id("notice-timeout-0")
    expect(seen).to_be_visible()
    expect(seen).to_contain_text(f"{name}'s time ran out")
    takeover = page.get_by_test_id("notice-takeover-0")
    expect(takeover).to_be_visible()
    expect(takeover).to_contain_text("the computer plays for you")
    expect(spectator.get_by_test_id("notice-takeover-0")).to_contain_text(f"{name} is away")
    expect(presence(page, 0)).to_have_attribute("data-presence", "away")
    expect(presence(spectator, 0)).to_have_attribute("data-presence", "away")
    # the notices are on the board, above the game, not only in the side log
    box = board.bounding_box()
    game = page.locator("#game-root").bounding_box()
    assert box is not None and game is not None and box["y"] < game["y"]
    page.click("#back-button")
    back = page.get_by_test_id("notice-back-0")
    expect(back).to_be_visible()
    expect(back).to_contain_text("You are back")
    expect(spectator.get_by_test_id("notice-back-0")).to_contain_text(f"{name} is back")
    expect(presence(page, 0)).not_to_have_attribute("data-presence", "away")
    assert not w.errors, w.errors


def test_quick_chat_between_two_players_read_by_a_spectator(new_page):
    host, guest, spectator = new_page(), new_page(), new_page()
    w = watch(host)
    host_name, guest_name = unique_name("uma"), unique_name("vic")
    signup(host, host_name)
    signup(guest, guest_name)
    signup(spectator, unique_name("wes"))
    match_id = person_match(host, guest)
    for page in (host, guest, spectator):
        page.goto(f"/matches/{match_id}")
    expect(host.locator("#chat-lines")).to_contain_text("Nothing said yet.")
    # the players have the preset phrases, and nothing to type in
    expect(host.locator("#chat-phrases .chat-phrase")).to_have_count(5)
    expect(host.locator("#chat-panel input, #chat-panel textarea")).to_have_count(0)
    # a spectator reads only
    expect(spectator.locator("#chat-note")).to_contain_text("Spectators read the chat")
    expect(spectator.locator("#chat-phrases .chat-phrase")).to_have_count(0)

    host.get_by_test_id("chat-good_luck").click()
    for page in (host, guest, spectator):
        expect(page.locator("#chat-lines .chat-line")).to_have_count(1)
        expect(page.locator("#chat-lines .chat-line")).to_have_text(f"{host_name}: Good luck!")
    guest.get_by_test_id("chat-thanks").click()
    for page in (host, guest, spectator):
        expect(page.locator("#chat-lines .chat-line").last).to_have_text(f"{guest_name}: Thanks!")

    guest.reload()  # the conversation is kept
    expect(guest.locator("#chat-lines .chat-line")).to_have_text([f"{host_name}: Good luck!", f"{guest_name}: Thanks!"])

    # the budget (4 lines per 10 seconds): the fifth line in a row is refused, in words
    for phrase in ("hello", "oops", "well_played"):
        host.get_by_test_id(f"chat-{phrase}").click()
    expect(spectator.locator("#chat-lines .chat-line")).to_have_count(5)
    host.get_by_test_id("chat-hello").click()
    expect(host.locator("#error-banner")).to_be_visible()
    expect(host.locator("#error-text")).to_contain_text("Slow down")
    expect(host.locator("#error-banner")).to_have_attribute("data-code", "rate_limited")
    expect(guest.locator("#chat-lines .chat-line")).to_have_count(5)
    assert not w.errors, w.errors


NOTIFICATIONS = """
(() => {
  window.__notes = [];
  window.__hidden = false;
  class FakeNotification {
    constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
    close() {}
  }
  FakeNotification.permission = "default";
  FakeNotification.requestPermission = async () => (FakeNotification.permission = "granted");
  window.Notification = FakeNotification;
  Object.defineProperty(document, "hidden", { get: () => window.__hidden });
})();
"""


def test_the_tab_title_and_icon_say_when_it_is_your_turn(new_page):
    host, guest = new_page(), new_page()
    host.add_init_script(NOTIFICATIONS)
    w = watch(host)
    signup(host, unique_name("xena"))
    signup(guest, unique_name("yuri"))
    match_id = person_match(host, guest)
    host.goto(f"/matches/{match_id}")
    guest.goto(f"/matches/{match_id}")
    base = "Battle Runes · match"
    assert not wait_turn_or_result(host, 1)
    expect(host).to_have_title(re.compile(rf"^\(●\) Your turn · {base} {match_id}$"))
    expect(host.locator('link[rel="icon"]')).to_have_attribute("href", "/static/favicon-turn.svg")

    # sound: off by default, a toggle, kept across a reload
    sound = host.locator("#turn-sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(sound).to_have_text("Sound on")
    # alerts: permission asked on the bell's click only
    assert host.evaluate("Notification.permission") == "default"
    bell = host.locator("#turn-notify")
    bell.click()
    expect(bell).to_have_attribute("aria-pressed", "true")
    assert host.evaluate("Notification.permission") == "granted"

    rng = random.Random(16)
    pick_three(host, rng, then_waits=True, check=False)
    expect(host).to_have_title(f"{base} {match_id}")  # chosen: not the host's turn any more
    expect(host.locator('link[rel="icon"]')).to_have_attribute("href", "/static/favicon.svg")
    expect(guest).to_have_title(re.compile(r"^\(●\) Your turn"))

    host.evaluate("window.__hidden = true")  # the host looks at another tab
    assert not wait_turn_or_result(guest, 1)
    pick_three(guest, rng, check=False)  # the turn resolves: both must choose again
    expect(host).to_have_title(re.compile(r"^\(●\) Your turn"))
    host.wait_for_function("window.__notes.length === 1")
    note = host.evaluate("window.__notes[0]")
    assert note == {"title": "Your turn", "body": f"Battle Runes · match {match_id}"}
    assert host.evaluate("window.turnAlerts.beeps") >= 2  # the toggle's sample and the turn

    host.reload()
    expect(host.locator("#turn-sound")).to_have_attribute("aria-pressed", "true")
    assert not [e for e in w.errors if "AudioContext" not in e], w.errors
