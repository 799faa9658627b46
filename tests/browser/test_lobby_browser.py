"""The lobby and the match page around a match's life outside play, in Chromium: open matches
show their non-default options, your own waiting match is listed once (with Cancel), the
waiting-match limit's message reaches the form, a cancelled match says so (live and on reload,
for its creator and for others, on the replay page too), and the phone layout of a running match
puts your own runes first.

Set ``BROWSER_SCREENSHOTS=/some/dir`` to save screenshots of the pages along the way.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SHOTS = os.environ.get("BROWSER_SCREENSHOTS")
PHONE = {"width": 390, "height": 844}


def shot(page, name: str, full_page: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=full_page)


def api_create(page, **options) -> int:
    r = page.request.post("/api/matches", data={"game": "battle_runes", "options": {"turn_seconds": 60, **options}})
    assert r.status == 201, r.text()
    return r.json()["id"]


def box(page, selector: str) -> dict:
    """The element's box. The page redraws when a snapshot arrives (the computer acting), so an
    element can be replaced between finding it and measuring it: wait for it and measure again."""
    for _ in range(20):
        locator = page.locator(selector).first
        expect(locator).to_be_visible()
        b = locator.bounding_box()
        if b is not None:
            return b
        page.wait_for_timeout(50)
    raise AssertionError(f"{selector} is not displayed")


def test_lobby_shows_options_lists_your_match_once_and_cancels_it(new_page):
    host, guest = new_page(), new_page()
    wh, wg = watch(host), watch(guest)
    signup(host, unique_name("ivy"))
    signup(guest, unique_name("jon"))
    special = api_create(host, turn_seconds=120, win_score=40, start_score=10)
    plain = api_create(host)

    # a joiner sees the rules that differ from the defaults before joining
    guest.goto("/lobby")
    item = guest.locator(f'#open-matches li[data-match-id="{special}"]')
    expect(item).to_contain_text("2 min")
    expect(item.locator(".option-tag")).to_have_text(["first to 40", "start at 10"])
    expect(guest.locator(f'#open-matches li[data-match-id="{plain}"]')).to_be_visible()
    expect(guest.locator(f'#open-matches li[data-match-id="{plain}"] .option-tag')).to_have_count(0)
    shot(guest, "lobby_open_matches_with_options")

    # the creator sees them once, under "Your matches", with Cancel (and no Join)
    host.goto("/lobby")
    mine = host.locator(f'#my-matches li[data-match-id="{special}"]')
    expect(mine).to_be_visible()
    expect(mine.locator(".option-tag")).to_have_text(["first to 40", "start at 10"])
    for match_id in (special, plain):
        expect(host.locator(f'li[data-match-id="{match_id}"]')).to_have_count(1)
        expect(host.locator(f'#open-matches li[data-match-id="{match_id}"]')).to_have_count(0)
        expect(host.locator(f'#my-matches li[data-match-id="{match_id}"] button[data-action="cancel"]')).to_be_visible()
    expect(host.locator("#my-matches button:has-text('Join')")).to_have_count(0)
    host.set_viewport_size(PHONE)
    shot(host, "lobby_your_matches_phone")
    host.set_viewport_size({"width": 1280, "height": 900})

    host.locator(f'#my-matches li[data-match-id="{plain}"] button[data-action="cancel"]').click()
    host.locator(f'#my-matches li[data-match-id="{plain}"] button[data-action="confirm-cancel"]').click()
    expect(host.locator(f'li[data-match-id="{plain}"]')).to_have_count(0)
    expect(host.locator(f'#my-matches li[data-match-id="{special}"]')).to_be_visible()
    info = host.request.get(f"/api/matches/{plain}").json()
    assert info["status"] == "aborted" and info["result"]["reason"] == "cancelled"

    guest.click("#refresh-button")
    expect(guest.locator(f'#open-matches li[data-match-id="{plain}"]')).to_have_count(0)
    expect(guest.locator(f'#open-matches li[data-match-id="{special}"]')).to_be_visible()
    assert not wh.errors, wh.errors
    assert not wg.errors, wg.errors


def test_the_waiting_match_limit_is_explained_in_the_create_form(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("kim"))
    ids = [api_create(page) for _ in range(5)]
    page.goto("/lobby")
    expect(page.locator("#my-matches li[data-match-id]")).to_have_count(5)
    page.click("#create-submit")
    error = page.locator("#create-error")
    expect(error).to_be_visible()
    # the words for the code too_many_matches (static/js/messages.js), with the limit when the
    # server sends it in params
    expect(error).to_contain_text("matches waiting for players")
    expect(error).to_contain_text("Cancel")
    refused = page.request.post("/api/matches", data={"game": "battle_runes"})
    assert refused.status == 429 and refused.json()["error"]["code"] == "too_many_matches"
    limit = (refused.json()["error"].get("params") or {}).get("limit")
    if limit is not None:
        expect(error).to_contain_text(f"{limit} matches waiting for players")
    assert re.search(r"/lobby$", page.url)
    shot(page, "lobby_too_many_matches")
    # cancelling one makes room (and clears the message)
    page.locator(f'#my-matches li[data-match-id="{ids[0]}"] button[data-action="cancel"]').click()
    page.locator(f'#my-matches li[data-match-id="{ids[0]}"] button[data-action="confirm-cancel"]').click()
    expect(error).to_be_hidden()
    expect(page.locator("#my-matches li[data-match-id]")).to_have_count(4)
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    assert [e for e in w.errors if "429" not in e] == [], w.errors


def test_a_cancelled_match_says_so_live_on_reload_and_on_the_replay_page(new_page):
    host, other = new_page(), new_page()
    wh, wo = watch(host), watch(other)
    signup(host, unique_name("lea"))
    signup(other, unique_name("max"))
    match_id = api_create(host, win_score=40)
    host.goto(f"/matches/{match_id}")
    other.goto(f"/matches/{match_id}")
    expect(host.locator("#waiting-for-players")).to_be_visible()
    expect(host.locator("#match-rules")).to_contain_text("first to 40")
    expect(host.locator("#join-match")).to_have_count(0)
    expect(other.locator("#join-match")).to_be_visible()
    expect(other.locator("#cancel-match")).to_have_count(0)  # only its creator may cancel it
    expect(host.locator("#replay-item")).to_be_hidden()
    shot(host, "match_waiting_with_cancel")

    host.click("#cancel-match")
    host.click("#cancel-match-yes")  # it asks first (tests/browser/test_table_audit.py)
    for page in (host, other):  # both pages change without reloading
        expect(page.locator("#match-aborted")).to_be_visible()
        expect(page.locator("#match-aborted h2")).to_have_text("This match was cancelled")
        expect(page.locator("#waiting-for-players")).to_have_count(0)
        expect(page.locator("#join-match")).to_have_count(0)
        expect(page.locator("#seed-unused")).to_be_visible()
        expect(page.locator("#seed-hash")).to_have_count(0)
        expect(page.locator("#replay-item")).to_be_hidden()
        expect(page.locator("#resign-button")).to_be_hidden()
        expect(page.locator("#log")).to_contain_text("cancelled")
    expect(other.locator(".seat-card[data-seat='1'] .seat-status")).to_have_text("nobody joined")
    shot(host, "match_cancelled")

    other.set_viewport_size(PHONE)
    other.reload()
    expect(other.locator("#match-aborted")).to_contain_text("Its creator cancelled it before an opponent joined")
    expect(other.locator("#join-match")).to_have_count(0)
    expect(other.locator("#conn-status")).to_have_text("connected")
    expect(other.locator("#match-aborted")).to_be_visible()  # still there once the snapshot came
    shot(other, "match_cancelled_phone")

    other.goto(f"/matches/{match_id}/replay")
    expect(other.locator("#replay-unavailable")).to_contain_text("This match was cancelled")
    expect(other.locator("#replay-unavailable")).to_contain_text("nothing to replay")
    expect(other.locator("#replay-unavailable")).not_to_contain_text("opens when the match is over")
    expect(other.locator("#replay-controls, .replay-controls")).to_have_count(0)
    shot(other, "replay_cancelled_phone")
    assert not wh.errors, wh.errors
    assert not wo.errors, wo.errors


def test_match_layout_on_a_phone_and_for_spectators(new_page):
    page = new_page(PHONE)
    w = watch(page)
    signup(page, unique_name("ned"))
    r = page.request.post(
        "/api/matches",
        data={
            "game": "battle_runes",
            "options": {"turn_seconds": 120},
            "computer": [{"seat": 1, "level": "random"}],
        },
    )
    assert r.status == 201, r.text()
    match_id = r.json()["id"]
    page.goto(f"/matches/{match_id}")
    expect(page.locator(".br-mine .rune.selectable")).to_have_count(5)

    # your own runes and Confirm come before the opponent's (compact) hand
    mine, other = box(page, ".br-mine"), box(page, ".br-other")
    assert mine["y"] < other["y"]
    assert box(page, "#confirm-pick")["y"] < other["y"]
    assert other["height"] < 200, other
    assert box(page, ".br-mine .rune")["y"] < PHONE["height"], "your runes start on the first screen"
    # the type labels are whole ("CONSTRUCTION", not "CONSTR…")
    cut = page.locator(".br-mine .rune-kind").evaluate_all(
        "(els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)"
    )
    assert cut == []
    # the corner number is explained, on the card and once under the hands
    expect(page.locator("#order-legend")).to_be_visible()
    expect(page.locator("#order-legend")).to_contain_text("The corner number is when the rune applies")
    titles = page.locator(".br-mine .rune-order").evaluate_all("(els) => els.map((e) => e.title)")
    assert all("1 construction" in t and "6 other swaps" in t for t in titles)
    # Resign comes before the log; one separator for the two visible links
    assert box(page, "#resign-button")["y"] < box(page, "#log")["y"]
    expect(page.locator(".side-links li:visible")).to_have_count(2)
    shot(page, "match_phone")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "match_phone_first_screen", full_page=False)

    # wider screens: the opponent's hand across the table, above yours
    page.set_viewport_size({"width": 1280, "height": 900})
    assert box(page, ".br-other")["y"] < box(page, ".br-mine")["y"]
    shot(page, "match_desktop")

    # a spectator sees seat 0's hand first, then seat 1's
    viewer = new_page()
    wv = watch(viewer)
    viewer.goto(f"/matches/{match_id}")
    expect(viewer.get_by_test_id("hand-0")).to_be_visible()
    expect(viewer.get_by_test_id("my-hand")).to_have_count(0)
    assert box(viewer, "[data-testid=hand-0]")["y"] < box(viewer, "[data-testid=hand-1]")["y"]
    viewer.set_viewport_size(PHONE)
    assert box(viewer, "[data-testid=hand-0]")["y"] < box(viewer, "[data-testid=hand-1]")["y"]
    shot(viewer, "match_spectator_phone")
    assert not w.errors, w.errors
    assert not wv.errors, wv.errors


def test_the_create_form_offers_players_seats_computers_and_rated(new_page):
    """The form offers each game's player counts (min_players..max_players from the server); the
    creator can sit at seat 2 with the computer at seat 1, and ask for a rated match, which the
    lobby then marks "rated"."""
    page = new_page()
    w = watch(page)
    name = unique_name("pia")
    signup(page, name)
    page.goto("/lobby")
    games = page.evaluate("JSON.parse(document.getElementById('lobby-data').textContent).games")
    for game in games:
        page.select_option("#create-game", game["id"])
        counts = list(range(game["min_players"], game["max_players"] + 1))
        expect(page.locator("#create-players option")).to_have_count(len(counts))
        values = page.locator("#create-players option").evaluate_all("(els) => els.map((e) => Number(e.value))")
        assert values == counts, game["id"]
        expect(page.locator("#create-seat option")).to_have_count(game["min_players"])
        if len(counts) > 1:  # more players: more seats to choose from
            page.select_option("#create-players", str(counts[-1]))
            expect(page.locator("#create-seat option")).to_have_count(counts[-1])

    page.select_option("#create-game", "battle_runes")
    expect(page.locator("#players-label")).to_be_hidden()  # always 2 players
    page.check('input[name="opponent"][value="custom"]')
    expect(page.locator("#seat-choices")).to_be_visible()
    page.select_option("#create-seat", "1")
    expect(page.locator("#seat-choices select")).to_have_count(1)
    page.select_option("#seat-kind-0", "random")
    expect(page.locator('#create-turn option[value="0"]')).to_be_disabled()  # a computer seat needs a clock
    expect(page.locator("#turn-hint")).to_contain_text("A match with the computer always has a clock.")  # and says so
    page.check("#create-rated")
    shot(page, "lobby_create_seats")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    match_id = int(page.url.rsplit("/", 1)[1])
    info = page.request.get(f"/api/matches/{match_id}").json()
    seats = {s["seat"]: s for s in info["seats"]}
    assert seats[0]["bot"] == "random" and not seats[0]["user"]
    assert seats[1]["user"]["name"] == name
    assert info["options"]["rated"] is True and info["origin"] == "rated"
    expect(page.locator(".seat-card[data-seat='0'] .seat-name")).to_contain_text("Computer")
    page.goto("/lobby")
    item = page.locator(f'#my-matches li[data-match-id="{match_id}"]')
    expect(item.get_by_test_id("rated")).to_have_text("rated")
    assert not w.errors, w.errors


NARROW = {"width": 390, "height": 800}
NO_OPEN_MATCHES = re.compile(r".*/api/matches\?status=waiting$")


def scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_the_header_wraps_on_a_phone_and_an_empty_lobby_suits_who_reads_it(new_page):
    # the other tests' open matches are hidden: the lobby reads an empty list
    empty = {"status": 200, "content_type": "application/json", "body": '{"matches": []}'}
    visitor = new_page(NARROW)
    visitor.route(NO_OPEN_MATCHES, lambda route: route.fulfill(**empty))
    for path in ("/", "/lobby"):
        visitor.goto(path)
        expect(visitor.locator("#nav-rewards")).to_be_visible()
        assert scroll_width(visitor) <= NARROW["width"], path
    # a visitor cannot create a match: no "Create one!"
    expect(visitor.locator("#open-matches")).to_have_text("No open matches right now.")

    player = new_page(NARROW)
    w = watch(player)
    player.route(NO_OPEN_MATCHES, lambda route: route.fulfill(**empty))
    signup(player, unique_name("nora"))  # lands in the lobby
    expect(player.locator("#open-matches")).to_have_text("No open matches from other players. Create one!")
    assert scroll_width(player) <= NARROW["width"]
    # every link of the header is inside the dark header and the screen
    header = box(player, ".site-header")
    for link in ("#nav-rewards", "#nav-decks", "#logout-button"):
        b = box(player, link)
        assert b["x"] >= 0 and b["x"] + b["width"] <= NARROW["width"], link
        assert header["y"] <= b["y"] and b["y"] + b["height"] <= header["y"] + header["height"], link
    player.goto("/")
    expect(player.locator("#nav-decks")).to_be_visible()
    assert scroll_width(player) <= NARROW["width"]
    assert not w.errors, w.errors


def test_a_refused_option_is_named_marked_and_shown_where_the_player_looks(new_page):
    """A score out of range: the words start with the field's own label, the field is marked, and
    the message is scrolled into view (it sits above the form, off screen on a short window)."""
    page = new_page()
    page.set_viewport_size({"width": 1280, "height": 600})
    w = watch(page)
    signup(page, unique_name("ria"))
    page.goto("/lobby")
    page.select_option("#create-game", "battle_runes")
    field = page.locator('[data-option="start_score"]')
    expect(field).to_be_visible()
    label = field.get_attribute("data-label")
    assert label, "the field carries its label"
    field.fill("0")
    page.locator("#create-submit").scroll_into_view_if_needed()
    page.click("#create-submit")
    error = page.locator("#create-error")
    expect(error).to_be_visible()
    expect(error).to_have_text(re.compile(rf"^{re.escape(label)}: .*1.*10"))
    expect(error).to_be_in_viewport()
    expect(field).to_have_attribute("aria-invalid", "true")
    assert re.search(r"/lobby$", page.url)
    # what is not a number ("1e": the box's value is "" then) is refused, not taken as the default
    field.fill("")
    field.press_sequentially("1e")
    assert field.evaluate("(e) => e.validity.badInput"), "the box holds an unreadable number"
    page.click("#create-submit")
    expect(error).to_have_text(f"{label}: A setting has a value of the wrong kind.")
    expect(error).to_be_in_viewport()
    assert re.search(r"/lobby$", page.url)
    field.fill("30")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    assert [e for e in w.errors if "422" not in e] == [], w.errors
