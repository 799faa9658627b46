"""Issue 15's browser walk of the clans' area: what the scripts draw (static/js/clans.js,
clan_wall.js, challenges.js) in each of cs sk uk ru hu, with no English word on the page at each
step (``english_on_page``). Two players pick the language in the header; one founds a clan (a
refused tag and a refused name first: the form's rules in words), writes on its wall (an empty post
first) and removes the post (the confirm dialog); the other founds a second clan; the first
proposes a challenge from the second clan's page, going through every game of the form (its
options drawn from the page's data), and the second answers it on the challenge page."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Dialog, Page, expect

from tests.browser.helpers import english_on_page, reload, signup, unique_name, watch
from tests.browser.test_i18n_browser import choose_language
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ("cs", "sk", "uk", "ru", "hu")


def _clean(page: Page, locale: str, *names: str) -> None:
    """No English word on the page but names: the players' (``names``) and the clans' the page
    links to (other tests' clans share the server: "Knights" is a name, not a word to translate)."""
    clans = page.evaluate("() => [...document.querySelectorAll('a[href^=\"/clans/\"]')].map((a) => a.textContent)")
    found = english_on_page(page, locale, *names, *clans)
    assert found == {}, f"{locale} {page.url}: {found}"


def _dialog_says(page: Page, locale: str, accept: bool, *names: str) -> list[str]:
    """Answer the next dialog (accept or dismiss); the list fills with its message."""
    said: list[str] = []

    def answer(dialog: Dialog) -> None:
        said.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", answer)
    return said


def _found(page: Page, locale: str, name: str, tag: str, *names: str) -> None:
    page.goto("/clans")
    expect(page.locator("#found-form")).to_be_visible(timeout=LONG)
    _clean(page, locale, *names)
    error = page.locator("#found-error")
    page.fill("#found-name", name)
    page.fill("#found-tag", "A B")
    page.click("#found-submit")
    expect(error).to_be_visible(timeout=LONG)
    expect(error).to_be_in_viewport()
    _clean(page, locale, *names)
    page.fill("#found-tag", tag)
    page.fill("#found-name", "A")
    page.click("#found-submit")
    expect(page.locator("#found-submit")).to_be_enabled(timeout=LONG)
    expect(error).to_be_visible()
    _clean(page, locale, *names)
    page.fill("#found-name", name)
    page.select_option("#found-region", "other")
    page.click("#found-submit")
    page.wait_for_url(re.compile(rf".*/clans/{tag}$"), timeout=LONG)
    expect(page.locator("html")).to_have_attribute("lang", locale)
    _clean(page, locale, *names)


@pytest.mark.parametrize("locale", LOCALES)
def test_clans_wall_and_challenges_in_every_language(new_page, locale):
    a, b = new_page(), new_page()
    watchers = [watch(a), watch(b)]
    n = random.randrange(1000, 9999)
    a_name, b_name = unique_name("vlk"), unique_name("liska")
    clan_a, clan_b = f"Vlci {n}", f"Lisky {n}"
    tag_a, tag_b = f"VL{n}", f"LI{n}"
    names = (a_name, b_name, clan_a, clan_b, tag_a, tag_b)
    for page, name in ((a, a_name), (b, b_name)):
        signup(page, name)
        choose_language(page, locale)

    _found(a, locale, clan_a, tag_a, *names)
    # the wall: an empty post is refused in words, a post shows, its removal asks first
    a.click("#wall-submit")
    expect(a.locator("#wall-error")).to_be_visible(timeout=LONG)
    _clean(a, locale, *names)
    a.fill("#wall-text", "Ahoj")
    a.click("#wall-submit")
    post = a.locator("#wall-posts li").first
    expect(post).to_contain_text("Ahoj", timeout=LONG)
    said = _dialog_says(a, locale, False)
    post.locator("button.wall-remove").click()
    expect(a.locator("#wall-posts li")).to_have_count(1)
    said_remove = _dialog_says(a, locale, True)
    post.locator("button.wall-remove").click()
    expect(a.locator("#wall-empty")).to_be_visible(timeout=LONG)
    _clean(a, locale, *names)
    # leaving asks first (the last player disbands the clan): the question, then stay
    said_leave = _dialog_says(a, locale, False)
    a.click("#clan-leave")
    expect(a.locator("#clan-leave")).to_be_enabled()
    assert said and said_remove and said_leave
    for message in said + said_remove + said_leave:
        assert english_in_text([message], locale, *names) == {}, message

    _found(b, locale, clan_b, tag_b, *names)

    # a challenges b's clan: every game's options, drawn by challenges.js
    a.goto(f"/clans/{tag_b}")
    form = a.locator("#challenge-form")
    expect(form).to_be_visible(timeout=LONG)
    games = a.locator("#challenge-game option").evaluate_all("(os) => os.map((o) => o.value)")
    assert len(games) >= 5, games
    for game in games:
        a.select_option("#challenge-game", game)
        texts = a.locator("#challenge-options label, #challenge-options option").evaluate_all(
            "(els) => els.map((e) => e.textContent)"
        )
        assert english_in_text(texts, locale, *names) == {}, (game, texts)
        _clean(a, locale, *names)
    a.select_option("#challenge-game", "stratego_junior")
    a.select_option("#challenge-options select[data-option='variant']", "quest")
    a.fill("#challenge-boards", "2")
    a.click("#challenge-submit")
    a.wait_for_url(re.compile(r".*/challenges/\d+$"), timeout=LONG)
    expect(a.locator("#challenge")).to_have_attribute("data-status", "proposed")
    _clean(a, locale, *names)

    # b answers: the challenge page with its buttons, then accepted
    b.goto(a.url)
    expect(b.locator("#challenge-accept")).to_be_visible(timeout=LONG)
    _clean(b, locale, *names)
    b.click("#challenge-accept")
    expect(b.locator("#challenge")).to_have_attribute("data-status", "accepted", timeout=LONG)
    _clean(b, locale, *names)
    b.locator('#challenge-boards tr[data-board="1"] button[data-action="signup"]').click()
    expect(b.locator('#challenge-boards tr[data-board="1"] .board-challenged a.player-link')).to_be_visible(
        timeout=LONG
    )
    _clean(b, locale, *names)
    # the challenge follows the board by itself on a's page
    reload(a)
    expect(a.locator("#challenge")).to_have_attribute("data-status", "accepted", timeout=LONG)
    _clean(a, locale, *names)
    b.goto(f"/clans/{tag_b}")
    expect(b.locator("#challenges-current li")).to_have_count(1, timeout=LONG)
    _clean(b, locale, *names)
    for w in watchers:
        errors = [e for e in w.errors if "status of 422" not in e]  # the refused forms above
        assert not errors, errors
