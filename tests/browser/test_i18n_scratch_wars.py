"""Issue 15's walk of the Scratch Wars board in Chromium, in each of cs sk uk ru hu: a player whose
language is set reads no English word (``tests.i18n.walk``) on the waiting panel, the loadout panel
(its three tabs and the builder), the start spin, the choices and prompts of the first turns and the
result. The cards keep their original names (``walk.original_names``: the weapons' are Czech); players' names, the
computer's seat name among them, may stay as they are.

The walk reads the board (``#game-root``) and the log (``#log``): the match page's frame around them
(clocks, seat cards, chat, the resign button, the match-cancel box that match_client.js draws into
the waiting panel, the rematch offer under the result) belongs to the match page's own translation
and is walked by its tests."""

from __future__ import annotations

import json
import random
import time

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import signup, unique_name, watch
from tests.browser.test_scratch_wars import CHOICES_JS, click_choice, create_from_lobby, pick
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ["cs", "sk", "uk", "ru", "hu"]
#: the phases the walk waits for (each read once when first shown; others on the way are read too),
#: for at most 40 s of play against the random computer
WANTED = {"main", "decide", "target", "main (waiting)"}
#: parts of the board drawn by the match page's scripts (its own area: match_client.js's join and
#: cancel boxes, match_rematch.js's offer placed under the result), and the match's address on the
#: waiting panel (".../matches/12" is a link, not words)
FRAME = ["#cancel-match-box", "#join-match", "#rematch-panel", "#waiting-for-players code"]
#: the text a person reads on the board and the log: elements' text and the attributes read aloud
#: or shown on hover, leaving out the parts of the match page's frame
_BOARD_JS = """([roots, frame]) => {
  const parts = [];
  const outside = (node) => !frame.some((s) => node.closest(s));
  for (const root of document.querySelectorAll(roots)) {
    let text = root.innerText;
    for (const s of frame) for (const node of root.querySelectorAll(s)) text = text.replace(node.innerText, ' ');
    parts.push(text);
    for (const node of root.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      if (!outside(node)) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
        const v = node.getAttribute(a);
        if (v) parts.push(v);
      }
    }
  }
  return parts;
}"""


def english_on_board(page: Page, locale: str, *names: str, roots: str = "#game-root, #log") -> dict[str, str]:
    """The English words a person reads on the board and its log (``english_on_page`` of
    tests/browser/helpers.py, on the game's own part of the page: ``roots``)."""
    return english_in_text(page.evaluate(_BOARD_JS, [roots, FRAME]), locale, *names)


def seat_names(page: Page) -> list[str]:
    """The seats' names as the page shows them (the computer's among them)."""
    return page.locator("#seats .seat-name").all_inner_texts()


def check(page: Page, locale: str, where: str, *names: str) -> None:
    found = english_on_board(page, locale, *names, *seat_names(page))
    assert found == {}, f"{locale}, {where}: English on the board: {found}"


def set_language(page: Page, locale: str) -> None:
    r = page.request.post("/api/users/me/language", data={"language": locale})
    assert r.ok, r.text()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_scratch_wars_board_speaks_the_players_language(new_page, locale):
    rng = random.Random(15)
    page = new_page()
    w = watch(page)
    name = unique_name("Anicka")
    signup(page, name)
    set_language(page, locale)

    # the waiting panel of a match against a person, then cancelled
    waiting_id = create_from_lobby(page, level=3)
    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator("#waiting-for-players")).to_be_visible(timeout=LONG)
    expect(page.locator("#match-rules")).to_be_visible(timeout=LONG)
    check(page, locale, "waiting panel", name)
    assert page.request.post(f"/api/matches/{waiting_id}/cancel").ok

    # the loadout panel against the computer: suggested, saved (none yet), build one
    create_from_lobby(page, computer="random", level=3)
    expect(page.locator("#sw-loadout")).to_be_visible(timeout=LONG)
    expect(page.locator("#sw-suggested")).to_be_visible(timeout=LONG)
    check(page, locale, "loadout panel, suggested", name)
    page.click('.sw-tab[data-tab="saved"]')
    expect(page.locator("#sw-reload-decks")).to_be_visible(timeout=LONG)
    check(page, locale, "loadout panel, saved", name)
    page.click('.sw-tab[data-tab="build"]')
    builder = page.locator("#sw-match-builder")
    expect(builder).to_be_visible(timeout=LONG)
    builder.locator('.sw-pick-heroes [data-code="BRAM"]').click()
    builder.locator('.sw-pick-weapons [data-code="TINS"]').click()
    expect(page.locator("#sw-match-summary .sw-chosen-name")).to_have_count(1, timeout=LONG)
    check(page, locale, "loadout panel, builder", name)

    # the start spin: both choose a weapon at once
    page.locator("#sw-quick-random").click(timeout=LONG)
    choices = page.locator("#sw-choices")
    expect(choices).to_have_attribute("data-phase", "start_weapon", timeout=LONG)
    check(page, locale, "start spin", name)
    page.locator("#sw-choices button.sw-choice").first.click(timeout=LONG)

    # the first turns: every phase the duel reaches is read once its choices (or waiting line) show
    seen: set[str] = set()
    deadline = time.monotonic() + 40
    clicks = 0
    while time.monotonic() < deadline and not WANTED.issubset(seen):
        page.wait_for_function(
            "() => !!document.querySelector('#result') || !!document.querySelector("
            "'#sw-choices[data-pending=\"false\"] button.sw-choice:not([disabled]), #sw-choices[data-waiting]')",
            timeout=LONG,
        )
        if page.locator("#result").count():
            break
        phase = choices.get_attribute("data-phase") or ""
        waiting = choices.get_attribute("data-waiting") == "true"
        key = f"{phase}{' (waiting)' if waiting else ''}"
        if key not in seen:
            if phase != "start_weapon":
                page.wait_for_timeout(1700)  # the wheel stops and its caption shows
            check(page, locale, f"phase {key}", name)
            seen.add(key)
        offered = [json.loads(a) for a in page.evaluate(CHOICES_JS)]
        if offered and click_choice(page, pick(offered, rng)):
            clicks += 1
        else:
            page.wait_for_timeout(100)
    assert "main" in seen or page.locator("#result").count(), seen

    # the legend under the board
    legend = page.locator("details.sw-legend-box")
    if legend.count():
        legend.locator("summary").click()
        check(page, locale, "legend", name)

    # the result: resign
    if not page.locator("#result").count():
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#resign-button").click(timeout=LONG)
    expect(page.locator("#result")).to_be_visible(timeout=LONG)
    expect(page.locator("#sw-status")).to_be_visible(timeout=LONG)
    check(page, locale, "result", name)
    assert not [e for e in w.errors if not e.startswith("Failed to load resource")], w.errors


@pytest.mark.parametrize("locale", LOCALES)
def test_the_cards_the_rules_and_the_loadout_editor_drawn_in_the_browser(new_page, locale):
    """The parts of the other Scratch Wars pages that the browser draws: the gallery's full cards and
    legend, the rules page's legend, and the loadout editor's list, builder and buttons."""
    page = new_page()
    w = watch(page)
    name = unique_name("Anicka")
    signup(page, name)
    set_language(page, locale)

    page.goto("/games/scratch_wars/cards")
    expect(page.locator("body")).to_have_attribute("data-sw-ready", "1", timeout=LONG)
    # the weapon's own Czech name, its translation beside it in any other language
    expect(page.locator("#card-TINS .sw-card-name")).to_have_text("Plechový krátký meč")
    if locale == "cs":
        expect(page.locator("#card-TINS .sw-card-local")).to_have_count(0)
    else:
        expect(page.locator("#card-TINS .sw-card-local")).to_be_visible()
    found = english_on_board(page, locale, roots="#sw-gallery")
    assert found == {}, f"{locale}, gallery: {found}"

    page.goto("/games/scratch_wars")
    expect(page.locator("#sw-legend .sw-legend")).to_be_visible(timeout=LONG)
    found = english_on_board(page, locale, roots="#sw-rules")
    assert found == {}, f"{locale}, rules page: {found}"

    saved = page.request.post(
        "/api/decks",
        data={"game": "scratch_wars", "name": "Bouře", "data": {"hero": "MORA", "weapons": ["ORCL", "STAR"]}},
    )
    assert saved.ok, saved.text()
    page.goto("/decks/scratch_wars")
    expect(page.locator("body")).to_have_attribute("data-sw-ready", "1", timeout=LONG)
    expect(page.locator('#sw-deck-list [data-action="edit"]')).to_be_visible()
    page.locator('#sw-deck-list [data-action="edit"]').click()
    expect(page.locator("#sw-save-new")).to_be_visible()
    found = english_on_board(page, locale, name, roots="#sw-loadouts-app")
    assert found == {}, f"{locale}, loadout editor: {found}"
    page.locator('#sw-deck-list [data-action="rename"]').click()
    expect(page.locator("#sw-deck-list .sw-rename-input")).to_be_visible()
    found = english_on_board(page, locale, name, roots="#sw-loadouts-app")
    assert found == {}, f"{locale}, loadout editor, renaming: {found}"
    page.locator("#sw-name").fill("")
    page.locator("#sw-save").click()
    expect(page.locator("#sw-deck-error")).to_be_visible()
    found = english_on_board(page, locale, name, roots="#sw-loadouts-app")
    assert found == {}, f"{locale}, loadout editor, a missing name: {found}"
    assert not [e for e in w.errors if not e.startswith("Failed to load resource")], w.errors
