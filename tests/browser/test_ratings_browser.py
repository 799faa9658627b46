"""Ratings end to end in Chromium (issue 12): two people play two rated Battle Runes matches from
the lobby (each resigns one), the result screen shows both seats' rating changes, and the ladder
and both profiles open from the name links, with the rating-history chart drawn."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import join_from_lobby, pick_three, signup, unique_name, wait_turn_or_result, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _create_rated(page) -> int:
    page.goto("/lobby")
    page.select_option("#create-game", "battle_runes")
    page.check('input[name="opponent"][value="person"]')
    page.select_option("#create-turn", "120")
    page.check("#create-rated")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def _resign(page) -> None:
    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-button").click()


def _changes(page, winner: str, loser: str, match_number: int) -> None:
    """The result screen shows each seat's change: the winner up, the loser down."""
    box = page.locator("#rating-changes")
    expect(box).to_have_attribute("data-state", "applied", timeout=20000)
    rows = {name: box.locator("li", has=page.locator(f'a.player-link:text-is("{name}")')) for name in (winner, loser)}
    expect(rows[winner]).to_contain_text("(+")
    expect(rows[loser]).to_contain_text("(−")
    if match_number == 1:
        expect(rows[winner]).to_contain_text("1500 →")
        expect(rows[loser]).to_contain_text("1500 →")
    expect(rows[winner].locator(".delta")).to_contain_text("?")  # provisional after a match or two


def _chart(page, name: str, points: int) -> None:
    chart = page.locator(f'#profile[data-user="{name}"] ~ section svg.rating-chart').first
    expect(chart).to_be_visible()
    expect(chart.locator("circle.rating-point")).to_have_count(points)
    line = chart.locator("polyline.rating-line")
    assert len(line.get_attribute("points").split()) == points
    box = line.bounding_box()
    assert box is not None and box["width"] > 100  # drawn across the chart, not collapsed


def test_rated_matches_change_ratings_shown_on_result_ladder_and_profiles(browser, server):
    rng = random.Random(12)
    pages, names, watchers, contexts = {}, {}, {}, []
    for who in ("alice", "bob"):
        ctx = browser.new_context(base_url=server.base_url, viewport={"width": 1280, "height": 900})
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        watchers[who] = watch(page)
        names[who] = unique_name(who)
        signup(page, names[who])
        pages[who] = page
    a, b = pages["alice"], pages["bob"]
    try:
        # match 1: bob resigns in the first turn (a turn of random picks ends about 1.5 % of
        # matches by itself, which would decide the result this test needs)
        match_id = _create_rated(a)
        b.goto("/lobby")
        item = b.locator(f'#open-matches li[data-match-id="{match_id}"]')
        expect(item.locator("a.player-link")).to_have_text(names["alice"])  # names link to profiles
        expect(item.locator('[data-testid="rated"]')).to_be_visible()
        join_from_lobby(b, match_id)
        assert not wait_turn_or_result(a, 1) and not wait_turn_or_result(b, 1)
        pick_three(a, rng, check=False)
        expect(a.locator(".seat-card a.player-link")).to_have_count(2)
        _resign(b)
        for page in (a, b):
            _changes(page, names["alice"], names["bob"], 1)

        # match 2: alice resigns at once
        match_id = _create_rated(b)
        join_from_lobby(a, match_id)
        assert not wait_turn_or_result(a, 1)
        _resign(a)
        for page in (a, b):
            _changes(page, names["bob"], names["alice"], 2)

        # the ladder, from the result screen; the viewer's own row is highlighted
        a.locator("#rating-changes a", has_text="See the ladder").click()
        a.wait_for_url("**/ladders/battle_runes")
        mine = a.locator("tr.ladder-me")
        expect(mine).to_have_attribute("data-user", names["alice"])
        expect(mine).to_contain_text("?")
        expect(a.locator(f'tr[data-user="{names["bob"]}"] a.player-link')).to_be_visible()

        # bob's profile from his name on the ladder: a chart of his two rated matches
        a.locator(f'tr[data-user="{names["bob"]}"] a.player-link').click()
        a.wait_for_url(f"**/users/{names['bob']}")
        _chart(a, names["bob"], 2)
        expect(a.get_by_test_id("head-to-head")).to_contain_text(f"{names['bob']} won 1, lost 1, drew 0")
        expect(a.locator("#recent tbody tr")).to_have_count(2)
        expect(a.locator("#recent a", has_text="Replay").first).to_have_attribute("href", re.compile(r"/replay$"))

        # alice's own profile, from her name in the header
        a.locator('[data-testid="current-user"] a.player-link').click()
        a.wait_for_url(f"**/users/{names['alice']}")
        _chart(a, names["alice"], 2)
        for who, w in watchers.items():
            assert not w.errors, (who, w.errors)
    finally:
        for ctx in contexts:
            ctx.close()
