"""Sign-up, log-in and log-out forms in Chromium: the API's error messages are shown, and a
successful log-in goes on to ``next``."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PASSWORD, signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_auth_forms_show_errors_and_log_in_and_out(new_page):
    page = new_page({"width": 390, "height": 844})  # phone width
    w = watch(page)
    page.goto("/lobby")  # a visitor's lobby: read only, with a way to log in
    expect(page.get_by_test_id("visitor-panel")).to_be_visible()
    page.click('#visitor-panel a[href="/login?next=/lobby"]')
    page.wait_for_url(re.compile(r".*/login\?next=/lobby$"))

    page.goto("/signup")
    name = unique_name("erin")
    page.fill("#name", name)
    page.fill("#password", "short")
    page.fill("#password2", "short")
    page.click("#auth-submit")
    expect(page.locator("#auth-error")).to_be_visible()
    expect(page.locator("#auth-error")).to_contain_text("at least 8 characters")  # the API's message
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD + "x")
    page.click("#auth-submit")
    expect(page.locator("#auth-error")).to_have_text("The two passwords are not the same.")

    signup(page, name)
    page.click("#logout-button")
    page.wait_for_url(re.compile(r".*/$"))
    expect(page.locator('.site-user a[href="/login"]')).to_be_visible()

    page.goto("/login?next=/games/battle_runes")
    page.fill("#name", name)
    page.fill("#password", PASSWORD + "-wrong")
    page.click("#auth-submit")
    expect(page.locator("#auth-error")).to_be_visible()
    expect(page.locator("#auth-error")).not_to_be_empty()
    page.fill("#password", PASSWORD)
    page.click("#auth-submit")
    page.wait_for_url("**/games/battle_runes")
    expect(page.get_by_test_id("current-user")).to_have_count(1)
    expect(page.locator(".rune-catalog .rune")).to_have_count(30)
    assert not [e for e in w.errors if "401" not in e and "422" not in e], w.errors


def test_closed_tab_returns_to_see_the_computer_played_and_takes_the_seat_back(new_page):
    """A 2-second clock counts down on the page; the player closes the tab; on return the page
    shows that the computer played for them (two timeouts: away), and "I'm back" takes it back."""
    page = new_page()
    w = watch(page)
    signup(page, unique_name("fred"))
    r = page.request.post(
        "/api/matches",
        data={
            "game": "battle_runes",
            "options": {"turn_seconds": 2, "start_score": 500, "win_score": 1000},
            "computer": [{"seat": 1, "level": "random"}],
        },
    )
    assert r.status == 201, r.text()
    match_id = r.json()["id"]
    page.goto(f"/matches/{match_id}")
    clock = page.locator(".seat-card[data-seat='0'] .seat-clock")
    expect(clock).to_have_text(re.compile(r"0:0[12]"))
    context = page.context
    page.close()  # the player leaves; the clock keeps running on the server
    for _ in range(100):
        seats = context.request.get(f"/api/matches/{match_id}").json()["seats"]
        if seats[0]["away"]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("seat 0 never became away")
    page = context.new_page()
    w = watch(page)
    page.goto(f"/matches/{match_id}")
    expect(page.locator("#away-banner")).to_be_visible()
    expect(page.locator(".seat-card[data-seat='0'] .badge-away")).to_be_visible()
    expect(page.locator("#log")).to_contain_text("time ran out")
    page.click("#back-button")
    expect(page.locator("#away-banner")).to_be_hidden()
    expect(page.locator("#log .log-back")).to_have_count(1)
    seats = context.request.get(f"/api/matches/{match_id}").json()["seats"]
    assert not seats[0]["away"]
    assert not w.errors, w.errors


def test_join_from_a_shared_match_link(new_page):
    """The waiting page's link: a logged-out visitor is offered to log in, a logged-in one joins
    with one click, and both players' pages start the match without reloading."""
    from tests.browser.helpers import create_match, wait_turn_or_result

    host, guest = new_page(), new_page()
    w = watch(guest)
    signup(host, unique_name("gina"))
    match_id = create_match(host)
    guest.goto(f"/matches/{match_id}")
    expect(guest.locator(f'#waiting-for-players a[href="/login?next=%2Fmatches%2F{match_id}"]')).to_be_visible()
    signup(guest, unique_name("hank"))
    guest.goto(f"/matches/{match_id}")
    guest.click("#join-match")
    assert not wait_turn_or_result(guest, 1)
    assert not wait_turn_or_result(host, 1)
    expect(guest.locator(".seat-card[data-seat='1'] .badge-you")).to_be_visible()
    assert not w.errors, w.errors


def test_resign_from_the_match_page(new_page):
    """The Resign button asks first, then ends the match as a loss for the player."""
    page = new_page()
    w = watch(page)
    signup(page, unique_name("rita"))
    r = page.request.post(
        "/api/matches",
        data={
            "game": "battle_runes",
            "options": {"turn_seconds": 60},
            "computer": [{"seat": 1, "level": "random"}],
        },
    )
    match_id = r.json()["id"]
    page.goto(f"/matches/{match_id}")
    button = page.locator("#resign-button")
    expect(button).to_be_visible()
    page.once("dialog", lambda d: d.dismiss())  # changing one's mind keeps the match going
    button.click()
    assert page.request.get(f"/api/matches/{match_id}").json()["status"] == "active"
    page.once("dialog", lambda d: d.accept())
    button.click()
    expect(page.locator("#replay-link")).to_be_visible()
    expect(button).to_be_hidden()
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "finished" and info["result"]["reason"] == "resigned"
    assert info["result"]["results"] == ["loss", "win"]
    assert not w.errors, w.errors
