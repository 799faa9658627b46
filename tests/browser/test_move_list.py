"""Issue 16, the move list, in Chromium: the replay page lists every step of the match (one line
per step, each a link to it) and keeps the step in the address (`#step=N`): a shared link opens at
its step, the arrow keys step, and a change of the hash (a click in the list, an edited address,
the back button) shows its step without reloading the page. The match page's log links each line
to the replay at its step; for a running match the replay shows a player only what their seat
saw live (the other seat's hidden choice stays hidden)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import watch
from tests.browser.table_driver import Table, person, sit_down

pytestmark = [pytest.mark.browser]


@pytest.fixture
def table(browser, server) -> Iterator[Table]:
    """Ann (seat 0) and Bob (seat 1) at a Battle Runes match, each in a context of their own."""
    people = [person(browser, server.base_url, "ann"), person(browser, server.base_url, "bob")]
    yield sit_down(people, "battle_runes", {})
    for _, ctx in people:
        ctx.close()


def _at(page: Page, step: int, steps: int) -> None:
    expect(page.locator("#replay-app")).to_have_attribute("data-step", str(step))
    expect(page.locator("#replay-pos")).to_have_text(f"{step} / {steps}")
    expect(page.locator(f'#move-list li[aria-current="step"][data-step="{step}"]')).to_have_count(
        1 if page.locator(f'#move-list li[data-step="{step}"]').count() else 0
    )
    assert page.evaluate("() => window.location.hash") == f"#step={step}"


def _same_document(page: Page) -> None:
    """The page was never reloaded: the marker set after it loaded is still there."""
    assert page.evaluate("() => window.__sameDocument") is True
    assert page.evaluate("() => performance.getEntriesByType('navigation').length") == 1


def test_the_replay_opens_at_the_step_of_its_address_and_steps_by_hash_and_arrows(table):
    for _ in range(2):  # two turns, then Ann resigns: a finished match
        table.drive(lambda s: False, limit=2)
    assert table.contexts[0].request.post(f"/api/matches/{table.match_id}/resign").ok
    steps = len(table.contexts[1].request.get(f"/api/matches/{table.match_id}/replay").json()["steps"])
    assert steps >= 8
    page = table.contexts[1].new_page()
    w = watch(page)
    page.goto(f"/matches/{table.match_id}/replay#step=3")  # a shared link
    expect(page.locator("#replay-app")).to_have_attribute("data-ready", "true")
    _at(page, 3, steps)
    page.evaluate("() => { window.__sameDocument = true; }")
    moves = page.locator("#move-list li")
    assert moves.count() >= 4
    expect(page.locator("#move-list")).to_contain_text(re.compile(r"resigned\."))
    expect(page.locator("#move-list")).to_contain_text("The match starts")
    # a click in the move list
    target = int(moves.nth(moves.count() - 2).get_attribute("data-step"))
    moves.nth(moves.count() - 2).locator("a").click()
    _at(page, target, steps)
    # the arrow keys step, and the address follows
    page.keyboard.press("ArrowLeft")
    _at(page, target - 1, steps)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    _at(page, target + 1, steps)
    page.keyboard.press("End")
    _at(page, steps, steps)
    expect(page.locator("#result")).to_contain_text("resigned.")
    # an edited address, then the back button
    page.evaluate("() => { window.location.hash = '#step=2'; }")
    _at(page, 2, steps)
    page.go_back()
    _at(page, steps, steps)  # the entry of the click, where the keys had taken it
    _same_document(page)
    assert not w.errors, w.errors


def test_a_running_match_replays_to_each_player_only_what_their_seat_saw(table):
    # Ann chooses her runes; Bob has not chosen yet, so hers stay hidden from him
    snap = table.drive(lambda s: s["seat"] == 0 and 0 in s["chosen"])
    assert snap is not None and 1 not in snap["chosen"]
    version = next(e["version"] for e in reversed(snap["events"]) if e["seat"] == 0 and e["kind"] == "action")
    bob = table.contexts[1].new_page()
    w = watch(bob)
    bob.goto(f"/matches/{table.match_id}")
    link = bob.locator(f'#log li[data-version="{version}"] a.log-step')
    expect(link).to_have_attribute("href", f"/matches/{table.match_id}/replay#step={version}")
    expect(link).to_have_attribute("target", "_blank")  # the live table stays open
    with bob.context.expect_page() as opened:
        link.click()
    replay = opened.value
    expect(replay.locator("#replay-app")).to_have_attribute("data-step", str(version))
    expect(replay.locator("#replay-live")).to_contain_text(f"as {table.names[1]}'s seat saw it")
    ann = re.escape(table.names[0])
    expect(replay.locator("#step-lines")).to_contain_text(re.compile(rf"^{ann}[^.]* chose\.$"))
    steps = table.contexts[1].request.get(f"/api/matches/{table.match_id}/replay").json()["steps"]
    assert steps[version - 1]["hidden"] and steps[version - 1]["action"] is None
    # Ann's own replay shows her choice at that step
    page = table.contexts[0].new_page()
    page.goto(f"/matches/{table.match_id}/replay#step={version}")
    expect(page.locator("#replay-app")).to_have_attribute("data-step", str(version))
    expect(page.locator("#step-lines")).to_contain_text(re.compile(rf"^{ann}[^.]* chose \S"))
    expect(bob.locator("#confirm-pick")).to_be_visible()  # Bob's live table is still there
    assert not w.errors, w.errors
