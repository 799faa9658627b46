"""Issue 15's walk of Treasure Beasts' board in Chromium: a player whose language is Czech, Slovak,
Ukrainian, Russian or Hungarian plays a match against the computer through its phases (the draft:
the pack, the picks, the packs passing; the table: the zones, the creatures, the hand, the action
panel, an attack when one is offered; the log), then resigns to reach the result (the ranking with
each seat's treasures) and reloads the finished match (every hand face up). At each stop the board
and the log (static/js/games/treasure_beasts.js, ``tb.*``) show no English word outside proper
names, and the cards keep their Ukrainian names with the page's translation in the tooltip; the
whole page (tests/browser/helpers.py's english_on_page: the match page's frame too) shows none."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, english_on_page, unique_name, watch
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
#: what the log says when the match starts, the result's headline after resigning, and the log
#: of a strike
WORDS = {
    "cs": ("Tvůj balíček:", "Prohrál(a) jsi.", "Úder:"),
    "sk": ("Tvoj balíček:", "Prehral(a) si.", "Úder:"),
    "uk": ("Твоя пачка:", "Ти програв(-ла).", "Удар:"),
    "ru": ("Твоя пачка:", "Ты проиграл(а).", "Удар:"),
    "hu": ("A csomagod:", "Vesztettél.", "Csapás:"),
}


#: the match page's frame around the board: its areas, while English, keep the walk to the board
#: the text a person reads on the board and in the log (the game's own parts of the page; the
#: frame's parts drawn in it are the frame's: the rematch offer under the result, the waiting
#: match's Cancel button and its duration, from match_client.js)
FRAME_PARTS = "#rematch-panel, .waiting-cancel"
BOARD_JS = """(frame) => {
  const parts = [];
  for (const root of document.querySelectorAll('#game-root, #log')) {
    let text = root.innerText;
    for (const part of root.querySelectorAll(frame)) text = text.replace(part.innerText, '');
    parts.push(text);
    for (const el of root.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      if (el.closest(frame)) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
  }
  return parts;
}"""


#: clicks on the player's turns looking for an attack to build (each turn is two action points)
TURN_STEPS = 14
#: the page has the server's answer: the player's turn (or the end), no move in flight
SETTLED_JS = """() => {
  const status = document.querySelector('#tb-status');
  return status && ['yours', 'over'].includes(status.dataset.state) && !window.matchClient.pending;
}"""


def no_english(page: Page, locale: str, name: str, where: str) -> None:
    # the computer's seat name ("Computer · Easy") is the frame's words (match_client.js), as a
    # person's name on the board; the whole page's walk checks it
    computer = page.evaluate(
        "() => { const s = (window.matchClient.snapshot.seats || [])[1];"
        " return s && s.bot ? window.matchClient.seatName(1) : ''; }"
    )
    found = english_in_text(page.evaluate(BOARD_JS, FRAME_PARTS), locale, name, computer)
    assert found == {}, f"{locale}, {where}: English words on the board or in the log: {found}"
    found = english_on_page(page, locale, name)
    assert found == {}, f"{locale}, {where}: English words on the page: {found}"


def start_match(page: Page, locale: str) -> tuple[str, int]:
    """A new player whose language is ``locale``, in a two-seat match against the computer."""
    name = unique_name("tb")
    r = page.request.post("/api/auth/register", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    r = page.request.post("/api/users/me/language", data={"language": locale})
    assert r.ok, r.text()
    r = page.request.post(
        "/api/matches",
        data={
            "game": "treasure_beasts",
            "players": 2,
            "options": {"turn_seconds": 600},
            "computer": [{"seat": 1, "level": "random"}],
        },
    )
    assert r.status == 201, r.text()
    return name, int(r.json()["id"])


@pytest.mark.parametrize("locale", ["cs", "sk", "uk", "ru", "hu"])
def test_a_treasure_beasts_match_has_no_english_in_any_phase(new_page, locale):
    page = new_page()
    w = watch(page)
    name, match_id = start_match(page, locale)

    # a match of three seats waiting for players: who has joined, the seats taken (then cancelled)
    r = page.request.post(
        "/api/matches", data={"game": "treasure_beasts", "players": 3, "options": {"turn_seconds": 600}}
    )
    assert r.status == 201, r.text()
    waiting = int(r.json()["id"])
    page.goto(f"/matches/{waiting}")
    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator("#waiting-for-players")).to_be_visible(timeout=LONG)
    no_english(page, locale, name, "waiting for players")
    assert page.request.post(f"/api/matches/{waiting}/cancel").ok

    page.goto(f"/matches/{match_id}")

    # the draft: the pack with its Keep buttons, the picks so far, the packs passing
    pick = page.locator("#tb-pack button.tb-act-pick")
    expect(pick.first).to_be_visible(timeout=LONG)
    expect(page.locator("#log")).to_contain_text(WORDS[locale][0], timeout=LONG)
    card = page.locator("#tb-pack .tb-card-name").first
    expect(card).to_have_attribute("lang", "uk")
    translation = card.get_attribute("title")
    # the card's translation is its tooltip (a Ukrainian page shows the name alone)
    assert (translation is None) if locale == "uk" else bool(translation), translation
    no_english(page, locale, name, "the draft")
    for picked in range(1, 7):
        page.locator("#tb-pack button.tb-act-pick").first.click(timeout=LONG)
        if picked < 6:
            expect(page.locator("#tb-picks")).to_have_attribute("data-count", str(picked), timeout=LONG)
            if picked == 1:
                no_english(page, locale, name, "the draft, one card kept")

    # the table: every seat's zones, the hand, the action panel on the player's turn
    expect(page.locator("#tb-table .tb-seat")).to_have_count(2, timeout=LONG)
    expect(page.locator("#tb-hand")).to_be_visible(timeout=LONG)
    expect(page.locator('#tb-status[data-state="yours"]')).to_be_visible(timeout=LONG)
    no_english(page, locale, name, "the table, the player's turn")
    # a few turns (the computer plays in between) until an attack can be built: deploy, move to
    # the Center, discard down to 6; the attack panel, then its strike and the log of the fight
    for _turn_step in range(TURN_STEPS):
        page.wait_for_function(SETTLED_JS, timeout=LONG)
        if page.locator("#tb-status").get_attribute("data-state") == "over":
            break
        target = page.locator("#tb-actions button.tb-act-target")
        if target.count():
            target.first.click(timeout=LONG)
            expect(page.locator("#tb-attack")).to_be_visible(timeout=LONG)
            page.wait_for_function(SETTLED_JS, timeout=LONG)
            join = page.locator("#tb-actions button.tb-act-join")
            if join.count():
                join.first.click(timeout=LONG)
                page.wait_for_function(SETTLED_JS, timeout=LONG)
            no_english(page, locale, name, "an attack being built")
            strike = page.locator("#tb-actions button.tb-act-strike")
            if strike.count():
                strike.first.click(timeout=LONG)
                expect(page.locator("#log")).to_contain_text(WORDS[locale][2], timeout=LONG)
            break
        for selector in (
            "#tb-hand button.tb-act-discard",
            '#tb-actions button.tb-act-move[data-action*="center"]',
            "#tb-hand button.tb-act-deploy",
            "#tb-actions button.tb-act-take",
            "#tb-actions button.tb-act-pass",
        ):
            button = page.locator(selector)
            if button.count():
                button.first.click(timeout=LONG)
                break
    page.wait_for_function(SETTLED_JS, timeout=LONG)
    no_english(page, locale, name, "the table after a few turns")

    # resigning: the result, the ranking with the treasures, the log
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#resign-button").click(timeout=LONG)
    result = page.locator("#result")
    expect(result.locator(".result-headline")).to_have_text(WORDS[locale][1], timeout=LONG)
    expect(result.locator(".tb-ranking li")).to_have_count(2)
    expect(page.locator("#tb-status")).to_have_attribute("data-state", "over", timeout=LONG)
    no_english(page, locale, name, "the result")

    # the finished match, reloaded: every hand face up
    page.reload()
    expect(page.locator("#result")).to_be_visible(timeout=LONG)
    expect(page.locator('[data-testid^="revealed-hand-"]').first).to_be_visible(timeout=LONG)
    no_english(page, locale, name, "the finished match")
    assert not w.errors, w.errors
