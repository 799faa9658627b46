"""A time bank match against the computer, from the lobby's form to the computer taking the seat
over when the bank runs out (app/matches/time_control.py)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.helpers import signup, unique_name, watch

#: seconds on the clock of the seat, as the page writes it ("0:07")
CLOCK_SECONDS = (
    "(text) => { const m = /^(\\d+):(\\d\\d)$/.exec(text.trim()); return m ? Number(m[1]) * 60 + Number(m[2]) : null; }"
)


def test_time_bank_counts_down_and_the_computer_takes_over(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("bank"))
    page.goto("/lobby")
    page.select_option("#create-game", "battle_runes")
    page.check('input[name="opponent"][value="computer"]')
    expect(page.locator("#bank-choice")).to_be_hidden()
    page.select_option("#create-clock", "bank")
    expect(page.locator("#bank-choice")).to_be_visible()
    expect(page.locator("#turn-label")).to_be_hidden()
    page.select_option("#create-bank", "10")
    page.select_option("#create-increment", "1")
    # scores far from both ends, so that no turn the computer plays ends the match by chance
    page.fill("#opt-start_score", "500")
    page.fill("#opt-win_score", "1000")
    expect(page.locator("#turn-hint")).to_contain_text("10 s + 1 s")
    page.click("#create-submit")
    page.wait_for_url("**/matches/*")
    match_id = int(page.url.rsplit("/", 1)[1])

    # my bank counts down while I must pick: from at most 10 s to 7 s or less
    clock = page.locator('[data-testid="seat-0"] .seat-clock')
    expect(clock).to_have_attribute("data-bank", "true")
    expect(clock).to_have_text(re.compile(r"^0:(10|0\d)$"))
    page.wait_for_function(
        f"() => {{ const n = document.querySelector('[data-testid=\"seat-0\"] .seat-clock');"
        f" const s = ({CLOCK_SECONDS})(n ? n.textContent : ''); return s !== null && s <= 7; }}",
        timeout=30000,
    )
    # the computer's seat has no bank
    expect(page.locator('[data-testid="seat-1"] .seat-clock')).to_have_text("")

    # I never pick: the bank runs out, the computer plays my move, then (1 s increments later) the
    # seat is away and the computer plays it
    expect(page.locator('[data-testid="seat-0"] .badge-away')).to_be_visible(timeout=90000)
    snapshots = w.snapshots()
    assert snapshots and all(s["clock"]["clock"] == "bank" for s in snapshots)
    timeouts = [e for s in snapshots for e in s["events"] if e.get("kind") == "timeout" and e.get("seat") == 0]
    assert timeouts, "the computer played seat 0 when its bank ran out"

    # the lobby shows the match's clock as base + increment
    page.goto("/lobby")
    expect(page.locator(f'li[data-match-id="{match_id}"] [data-testid="match-clock"]').first).to_have_text("10 s + 1 s")
    assert not [e for e in w.errors if "WebSocket" not in e], w.errors
