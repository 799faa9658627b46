"""Issue 15's browser test, as far as the translated slice goes: Anička signs up, switches the site
to Czech with the header's picker, plays a Scratch Wars duel against the computer (the loadouts,
the start spin, then she resigns to reach the result), sees the log and the result in Czech, then
switches to Ukrainian on the same page and sees them in Ukrainian."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import signup, watch
from tests.browser.test_scratch_wars import create_from_lobby

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow


def choose_language(page: Page, code: str) -> None:
    """Pick ``code`` in the header and wait for the page to come back in it."""
    page.select_option("#language-picker", code)
    expect(page.locator("html")).to_have_attribute("lang", code, timeout=LONG)
    expect(page.locator("#language-picker")).to_have_value(code, timeout=LONG)


def test_anicka_plays_scratch_wars_in_czech_then_reads_it_in_ukrainian(new_page):
    page = new_page()
    w = watch(page)
    signup(page, "Anička")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Lobby")

    choose_language(page, "cs")
    expect(page.locator("h1")).to_have_text("Herna", timeout=LONG)
    expect(page.locator("#create-submit")).to_have_text("Založit zápas")
    expect(page.get_by_test_id("current-user")).to_contain_text("Anička")

    match_id = create_from_lobby(page, computer="expectimax", level=3)
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    page.locator("#sw-quick-random").click(timeout=LONG)
    log = page.locator("#log")
    # the engine's events, from codes, in Czech
    expect(log).to_contain_text("Výbavy odkryté:", timeout=LONG)
    # the start spin: both choose a weapon at once; Anička takes the first offered
    expect(page.locator("#sw-choices")).to_have_attribute("data-phase", "start_weapon", timeout=LONG)
    page.locator("#sw-choices button.sw-choice").first.click(timeout=LONG)
    expect(log).to_contain_text("Úvodní zatočení", timeout=LONG)

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-button").click(timeout=LONG)
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=LONG)
    expect(result.locator(".result-headline")).to_have_text("Prohrál(a) jsi.")
    expect(result.locator(".result-detail")).to_contain_text("Vzdal(a) ses.")
    expect(result.locator(".result-detail")).to_contain_text(re.compile(r"\d+ život"))
    expect(result.locator(".result-links a").first).to_have_text("Zpátky do herny")
    expect(page.locator("#sw-status")).to_have_text("Souboj skončil.", timeout=LONG)
    expect(log).to_contain_text("Anička to vzdal(a).")

    # the same page, now in Ukrainian
    choose_language(page, "uk")
    assert page.url.endswith(f"/matches/{match_id}")
    result = page.locator("#result")
    expect(result.locator(".result-headline")).to_have_text("Ти програв(-ла).", timeout=LONG)
    expect(result.locator(".result-detail")).to_contain_text("Ти здався(-лася).")
    expect(page.locator("#log")).to_contain_text("Спорядження відкрито:", timeout=LONG)
    expect(page.locator("#log")).to_contain_text("Anička здався(-лася).")
    expect(page.locator(".site-nav")).to_contain_text("Правила")
    assert not w.errors, w.errors


def test_a_refused_field_is_named_by_its_label_and_says_what_is_wrong(new_page):
    """A ``validation_error`` is worded from the field's label and pydantic's type and values, in
    the page's language: never the raw field name, never the server's English."""
    page = new_page()
    page.goto("/signup")
    choose_language(page, "cs")
    page.fill("#name", "Bětka")
    page.fill("#password", "x" * 300)
    page.fill("#password2", "x" * 300)
    page.click("#auth-submit")
    error = page.locator("#auth-error")
    expect(error).to_have_text("Pole „Heslo“ je příliš dlouhé: nejvýš 256 znaků.", timeout=LONG)

    choose_language(page, "en")
    page.fill("#name", "Betka")
    page.fill("#password", "x" * 300)
    page.fill("#password2", "x" * 300)
    page.click("#auth-submit")
    expect(error).to_have_text("“Password” is too long: at most 256 characters.", timeout=LONG)
