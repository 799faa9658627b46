"""Issue 16, "What players expect at the table": the items an audit found without a browser test
(docs/table.md lists every item with its test):

* the match page's own "Cancel this match" asks first, in the page, as the lobby does;
* computer levels read Easy, Medium and Hard in every game, a new player is offered Medium, and
  the algorithm's name is only a tooltip (in the lobby and on the rules pages);
* the header's "Rules" opens /games, which lists every game; the lobby says a turn time per turn;
* the Scratch Wars loadout builder takes two different axes (rule 3.1: "kind" is the weapon's
  name, not its type) but never one weapon twice, and the server refuses one weapon twice;
* a finished match's replay shows a logged-out visitor the seed and every hidden thing (Stratego
  Junior's castles, Treasure Beasts' hands).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import signup, unique_name, watch

pytestmark = [pytest.mark.browser]

GAMES = {
    "battle_runes": "Battle Runes",
    "stratego_junior": "Stratego Junior",
    "scratch_wars": "Scratch Wars",
    "fantasy_duel": "Fantasy súboj",
    "treasure_beasts": "Treasure Beasts",
}
DIFFICULTIES = ["Easy", "Medium", "Hard"]


def api_match(page: Page, game: str = "battle_runes", computer: list | None = None, **options) -> int:
    body: dict = {"game": game, "options": {"turn_seconds": 120, **options}}
    if computer:
        body["computer"] = computer
    r = page.request.post("/api/matches", data=body)
    assert r.status == 201, r.text()
    return int(r.json()["id"])


def test_the_match_page_cancel_asks_first_and_no_keeps_the_match(new_page):
    host, visitor = new_page(), new_page()
    w = watch(host)
    signup(host, unique_name("ola"))
    match_id = api_match(host)
    host.goto(f"/matches/{match_id}")
    expect(host.locator("#waiting-for-players")).to_be_visible()
    host.click("#cancel-match")
    question = host.get_by_test_id("confirm-cancel")
    expect(question).to_contain_text("Cancel this match?")
    expect(host.locator("#cancel-match")).to_have_count(0)
    assert host.request.get(f"/api/matches/{match_id}").json()["status"] == "waiting"  # nothing yet
    # the question stays through a redraw (a visitor arriving, or any snapshot)
    visitor.goto(f"/matches/{match_id}")
    expect(visitor.locator("#waiting-for-players")).to_be_visible()
    host.evaluate("() => window.matchClient.render()")
    expect(question).to_be_visible()
    host.click("#cancel-match-no")
    expect(host.get_by_test_id("confirm-cancel")).to_have_count(0)
    expect(host.locator("#cancel-match")).to_be_visible()
    assert host.request.get(f"/api/matches/{match_id}").json()["status"] == "waiting"

    host.click("#cancel-match")
    host.click("#cancel-match-yes")
    for page in (host, visitor):
        expect(page.locator("#match-aborted h2")).to_have_text("This match was cancelled")
    assert host.request.get(f"/api/matches/{match_id}").json()["status"] == "aborted"
    assert not w.errors, w.errors


def test_computer_levels_are_easy_medium_hard_and_a_new_player_gets_medium(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("newbie"))
    page.goto("/lobby")
    page.check('input[name="opponent"][value="computer"]')
    level = page.locator("#create-level")
    for game in GAMES:
        page.select_option("#create-game", game)
        expect(level).to_be_visible()
        options = level.locator("option")
        expect(options).to_have_text(DIFFICULTIES)
        selected = level.evaluate("(s) => s.options[s.selectedIndex].textContent")
        assert selected == "Medium", (game, selected)
        titles = options.evaluate_all("(os) => os.map((o) => [o.value, o.title])")
        assert all(re.fullmatch(rf".+ \(algorithm: {value}\)", title) for value, title in titles), (game, titles)
    # a match made with the defaults is against Medium, and the page says "Computer · Medium" (no
    # brackets: a log line puts a seat's name in brackets, "Knight (Computer · Medium)")
    page.select_option("#create-game", "battle_runes")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    match_id = int(page.url.rsplit("/", 1)[1])
    info = page.request.get(f"/api/matches/{match_id}").json()
    bot = next(s["bot"] for s in info["seats"] if s["bot"])
    expect(page.locator(".seat-card .seat-name").filter(has_text="Computer")).to_contain_text("Computer · Medium")
    # the rules pages: difficulties in words, the algorithm only in the tooltip
    for game in GAMES:
        page.goto(f"/games/{game}")
        names = page.locator(".level-name")
        expect(names).to_have_text(DIFFICULTIES)
        titles = names.evaluate_all("(ns) => ns.map((n) => n.title)")
        assert all(re.fullmatch(r".+ \(algorithm: \w+\)", t) for t in titles), (game, titles)
        levels_line = page.locator("p", has=names.first).inner_text()
        for t in titles:
            assert t.rsplit(": ", 1)[1].rstrip(")") not in levels_line, (game, levels_line)
    page.goto("/games/battle_runes")
    assert page.locator(f'.level-name[title$="(algorithm: {bot})"]').inner_text() == "Medium"
    assert not w.errors, w.errors


def test_rules_link_opens_every_game_and_the_lobby_says_per_turn(new_page):
    host, guest = new_page(), new_page()
    w = watch(guest)
    signup(host, unique_name("tim"))
    match_id = api_match(host)
    guest.goto("/lobby")  # a logged-out visitor sees the lobby too
    item = guest.locator(f'#open-matches li[data-match-id="{match_id}"]')
    expect(item.get_by_test_id("match-clock")).to_have_text("2 min per turn")
    guest.get_by_role("link", name="Rules", exact=True).first.click()
    guest.wait_for_url(re.compile(r".*/games$"))
    for game, title in GAMES.items():
        expect(guest.locator(f'a[href="/games/{game}"]').first).to_be_visible()
        expect(guest.locator("main")).to_contain_text(title)
    guest.locator('a[href="/games/stratego_junior"]').first.click()
    guest.wait_for_url(re.compile(r".*/games/stratego_junior$"))
    expect(guest.locator("h1")).to_contain_text("Stratego Junior")
    host.request.post(f"/api/matches/{match_id}/cancel")
    assert not w.errors, w.errors


def test_scratch_wars_builder_takes_two_axes_but_never_one_weapon_twice(new_page):
    """Rule 3.1 (../shared/rules/scratch_wars.md, example 25): "Kind means the same weapon name,
    not the weapon type": two different axes are a legal loadout; one weapon twice is not."""
    page = new_page()
    w = watch(page)
    signup(page, unique_name("axe"))
    page.goto("/decks/scratch_wars")
    page.wait_for_selector("body[data-sw-ready]")
    expect(page.locator("#sw-name-rule")).to_contain_text("Each weapon name only once")
    page.click('#sw-builder [data-testid="hero-GORM"]')
    page.click('#sw-builder .sw-filters button[data-filter="all"]')
    for code in ("KIND", "FLNT"):  # Sekerka na podpal and Pazourková sekáčka: two axes
        page.click(f'#sw-builder button[data-testid="weapon-{code}"]')
    expect(page.locator("#sw-weapon-count")).to_have_text("2 / 5 weapons")
    # each Czech name with its English translation beside it
    expect(page.locator("#sw-summary .sw-chosen-name")).to_have_text(
        ["Sekerka na podpal (Kindling Hatchet)", "Pazourková sekáčka (Flint Chopper)"]
    )
    expect(page.locator("#sw-builder-hint")).to_have_text("")
    page.click('#sw-builder button[data-testid="weapon-KIND"]')  # the same axe again: taken off, not doubled
    expect(page.locator("#sw-summary .sw-chosen-name")).to_have_text(["Pazourková sekáčka (Flint Chopper)"])
    page.click('#sw-builder button[data-testid="weapon-KIND"]')
    page.fill("#sw-name", "Two axes")
    page.click("#sw-save")
    expect(page.locator("#sw-deck-status")).to_contain_text("Saved “Two axes”")
    decks = page.request.get("/api/decks?game=scratch_wars").json()["decks"]
    assert [d["data"] for d in decks] == [{"hero": "GORM", "weapons": ["FLNT", "KIND"]}]
    # the server has the last word: one weapon twice is refused, with the rule's words
    r = page.request.post(
        "/api/decks",
        data={"game": "scratch_wars", "name": "Twice", "data": {"hero": "GORM", "weapons": ["KIND", "KIND"]}},
    )
    assert r.status == 422 and r.json()["error"]["code"] == "bad_deck", r.text()
    assert "each weapon name only once" in r.json()["error"]["message"]
    assert not w.errors, w.errors


def test_a_finished_match_shows_a_visitor_the_seed_and_everything_hidden(new_page):
    """Resigned before the end (so the game itself is not over): a logged-out visitor's replay
    shows the seed checked against its hash, every Stratego Junior castle face up, and every
    Treasure Beasts hand."""
    player = new_page()
    signup(player, unique_name("shown"))
    stratego = api_match(player, "stratego_junior", [{"seat": 1}], variant="quest")
    player.goto(f"/matches/{stratego}")
    player.locator("#sj-random").click()
    expect(player.locator("#sj-confirm")).to_be_enabled()
    player.locator("#sj-confirm").click()
    expect(player.locator('#sj-status[data-state="my-turn"]')).to_be_visible()
    beasts = api_match(player, "treasure_beasts", [{"seat": 1}])
    for match_id in (stratego, beasts):
        assert player.request.post(f"/api/matches/{match_id}/resign").status == 200

    visitor = new_page()
    w = watch(visitor)
    visitor.goto(f"/matches/{stratego}/replay")
    expect(visitor.locator("#seed-check")).to_contain_text("matches the hash")
    expect(visitor.locator("#seed-value")).not_to_be_empty()
    visitor.locator("#replay-last").click()
    castles = visitor.locator('.sj-board [data-testid="castle"]')
    expect(castles.first).to_be_visible()
    expect(visitor.locator('.sj-board [data-testid="castle"][data-piece=""]')).to_have_count(0)

    visitor.goto(f"/matches/{beasts}/replay")
    expect(visitor.locator("#seed-check")).to_contain_text("matches the hash")
    visitor.locator("#replay-last").click()
    for seat in (0, 1):
        hand = visitor.get_by_test_id(f"revealed-hand-{seat}")
        expect(hand).to_be_visible()
        expect(hand).to_have_text(re.compile(r"^Hand: .+\."))
    assert not w.errors, w.errors
