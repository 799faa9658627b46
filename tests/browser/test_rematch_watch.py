"""The table after and around a match, in Chromium: a rematch offered on the result screen and
accepted live (both players land in the new match, seats swapped), "Play the computer again", a
logged-out visitor who finds a match in the lobby's "Live now" list and watches it while the
players see the spectator count go 1 then 0, and the lobby's Cancel that asks first."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def api_create(page, computer: list | None = None, **options) -> int:
    body = {"game": "battle_runes", "options": {"turn_seconds": 120, **options}}
    if computer:
        body["computer"] = computer
    r = page.request.post("/api/matches", data=body)
    assert r.status == 201, r.text()
    return r.json()["id"]


def api_join(page, match_id: int) -> None:
    r = page.request.post(f"/api/matches/{match_id}/join")
    assert r.status == 200, r.text()


def api_resign(page, match_id: int) -> None:
    r = page.request.post(f"/api/matches/{match_id}/resign")
    assert r.status == 200, r.text()


def test_a_rematch_offered_and_accepted_seats_both_players_swapped(new_page):
    host, guest = new_page(), new_page()
    wh, wg = watch(host), watch(guest)
    host_name, guest_name = unique_name("rita"), unique_name("sam")
    signup(host, host_name)
    signup(guest, guest_name)
    match_id = api_create(host)
    api_join(guest, match_id)
    for page in (host, guest):
        page.goto(f"/matches/{match_id}")
        expect(page.locator("#conn-status")).to_have_text("connected")
    expect(host.get_by_test_id("rematch")).to_be_hidden()  # nothing to offer while playing
    api_resign(guest, match_id)
    for page in (host, guest):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#rematch-offer")).to_have_text("Rematch")
        # the result reads first, the rematch panel right after it; resigned before any turn,
        # there is no "The reveal" placeholder
        expect(page.locator("#result + #rematch-panel")).to_be_visible()
        assert page.locator("#result").bounding_box()["y"] < page.get_by_test_id("rematch").bounding_box()["y"]
        expect(page.locator("#last-turn")).to_have_count(0)

    host.click("#rematch-offer")
    expect(host.locator("#rematch-status")).to_have_text(f"You offered a rematch. Waiting for {guest_name}…")
    expect(host.locator("#rematch-withdraw")).to_be_visible()
    # the guest sees the offer arrive without reloading
    expect(guest.locator("#rematch-status")).to_have_text(f"{host_name} offers a rematch.")
    expect(guest.locator("#rematch-offer")).to_have_count(0)
    guest.click("#rematch-accept")

    new_url = re.compile(r".*/matches/(\d+)$")
    for page in (host, guest):
        page.wait_for_url(lambda url: new_url.match(url) is not None and not url.endswith(f"/matches/{match_id}"))
    new_id = int(host.url.rsplit("/", 1)[1])
    assert new_id != match_id and guest.url == host.url
    info = host.request.get(f"/api/matches/{new_id}").json()
    assert info["status"] == "active"
    assert {s["seat"]: s["user"]["name"] for s in info["seats"]} == {0: guest_name, 1: host_name}
    # each page plays its new seat: the host's "you" badge is on seat 2 now
    expect(host.locator(".seat-card[data-seat='1'] .badge-you")).to_be_visible()
    expect(guest.locator(".seat-card[data-seat='0'] .badge-you")).to_be_visible()
    expect(host.locator(".br-mine .rune.selectable")).to_have_count(5)
    assert not wh.errors, wh.errors
    assert not wg.errors, wg.errors


def test_a_declined_rematch_says_so_and_can_be_offered_again(new_page):
    host, guest = new_page(), new_page()
    wh, wg = watch(host), watch(guest)
    host_name, guest_name = unique_name("tia"), unique_name("uli")
    signup(host, host_name)
    signup(guest, guest_name)
    match_id = api_create(host)
    api_join(guest, match_id)
    api_resign(host, match_id)
    for page in (host, guest):
        page.goto(f"/matches/{match_id}")
        expect(page.locator("#rematch-offer")).to_be_visible()
    guest.click("#rematch-offer")
    expect(host.locator("#rematch-decline")).to_be_visible()
    host.click("#rematch-decline")
    expect(guest.locator("#rematch-status")).to_have_text(f"{host_name} declined the rematch.")
    expect(host.locator("#rematch-status")).to_have_text("You declined the rematch.")
    expect(guest.locator("#rematch-offer")).to_be_visible()  # may ask again
    assert host.request.get(f"/api/matches/{match_id}/rematch").json()["status"] == "declined"
    assert re.search(rf"/matches/{match_id}$", host.url) and re.search(rf"/matches/{match_id}$", guest.url)
    assert not wh.errors, wh.errors
    assert not wg.errors, wg.errors


def test_play_the_computer_again(new_page):
    page = new_page()
    w = watch(page)
    name = unique_name("vic")
    signup(page, name)
    match_id = api_create(page, computer=[{"seat": 1, "level": "random"}])
    page.goto(f"/matches/{match_id}")
    expect(page.locator(".br-mine .rune.selectable")).to_have_count(5)
    api_resign(page, match_id)
    button = page.locator("#rematch-offer")
    expect(button).to_have_text("Play the computer again")
    button.click()
    page.wait_for_url(lambda url: re.search(r"/matches/\d+$", url) is not None and not url.endswith(f"/{match_id}"))
    new_id = int(page.url.rsplit("/", 1)[1])
    info = page.request.get(f"/api/matches/{new_id}").json()
    seats = {s["seat"]: s for s in info["seats"]}
    assert info["status"] == "active" and info["options"]["turn_seconds"] == 120
    assert seats[0]["bot"] == "random" and seats[1]["user"]["name"] == name
    expect(page.locator(".seat-card[data-seat='0'] .seat-name")).to_contain_text("Computer")
    expect(page.locator(".br-mine .rune.selectable")).to_have_count(5)
    assert not w.errors, w.errors


def test_a_visitor_finds_a_live_match_and_the_players_see_the_count(new_page):
    host, guest = new_page(), new_page()
    wh = watch(host)
    host_name, guest_name = unique_name("wes"), unique_name("xia")
    signup(host, host_name)
    signup(guest, guest_name)
    match_id = api_create(host)
    api_join(guest, match_id)
    private = api_create(host, spectators=False)
    api_join(guest, private)
    host.goto(f"/matches/{match_id}")
    count = host.get_by_test_id("spectator-count")
    expect(count).to_have_attribute("data-count", "0")
    expect(count).to_have_text("0 spectators")

    visitor = new_page()
    wv = watch(visitor)
    visitor.goto("/lobby")
    expect(visitor.get_by_test_id("visitor-panel")).to_be_visible()
    expect(visitor.locator("#create-form")).to_have_count(0)
    live = visitor.locator(f'#live-matches li[data-match-id="{match_id}"]')
    expect(live).to_contain_text(host_name)
    expect(live).to_contain_text(guest_name)
    expect(live).to_contain_text("Battle Runes")
    expect(visitor.locator(f'#live-matches li[data-match-id="{private}"]')).to_have_count(0)
    live.locator('a[data-action="watch"]').click()
    visitor.wait_for_url(re.compile(rf".*/matches/{match_id}$"))
    expect(visitor.get_by_test_id("hand-0")).to_be_visible()
    expect(visitor.get_by_test_id("my-hand")).to_have_count(0)

    expect(count).to_have_attribute("data-count", "1")
    expect(count).to_have_text("1 spectator")
    expect(visitor.get_by_test_id("spectator-count")).to_have_text("1 spectator")
    visitor.goto("/")  # the visitor leaves: the socket closes
    expect(count).to_have_attribute("data-count", "0")
    assert sorted(wh.hellos()[0]["notices"]) == ["chat", "presence", "rematch", "spectators"]
    # a match without spectators: the page does not ask for their count, and shows none
    host.goto(f"/matches/{private}")
    expect(host.get_by_test_id("presence-0")).to_have_attribute("data-presence", "connected")
    assert sorted(wh.hellos()[-1]["notices"]) == ["chat", "presence", "rematch"]
    frames = [json.loads(f) for f in wh.frames]
    assert not [f for f in frames if f.get("type") == "spectators" and f.get("match_id") == private]
    assert not host.get_by_test_id("spectator-count").is_visible()
    assert not wh.errors, wh.errors
    assert not wv.errors, wv.errors


def test_cancel_in_the_lobby_asks_first_and_no_keeps_the_match(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("yan"))
    match_id = api_create(page)
    page.goto("/lobby")
    item = page.locator(f'#my-matches li[data-match-id="{match_id}"]')
    item.locator('button[data-action="cancel"]').click()
    question = item.get_by_test_id("confirm-cancel")
    expect(question).to_contain_text("Cancel this match?")
    page.click("#refresh-button")  # the question stays through a refresh of the lists
    expect(item.get_by_test_id("confirm-cancel")).to_be_visible()
    item.locator('button[data-action="keep"]').click()
    expect(item.get_by_test_id("confirm-cancel")).to_have_count(0)
    expect(item.locator('button[data-action="cancel"]')).to_be_visible()
    assert page.request.get(f"/api/matches/{match_id}").json()["status"] == "waiting"

    item.locator('button[data-action="cancel"]').click()
    item.locator('button[data-action="confirm-cancel"]').click()
    expect(page.locator(f'li[data-match-id="{match_id}"]')).to_have_count(0)
    assert page.request.get(f"/api/matches/{match_id}").json()["status"] == "aborted"
    assert not w.errors, w.errors
