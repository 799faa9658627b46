"""Issue 15's walk of the Stratego Junior board, in Czech, Slovak, Ukrainian, Russian and Hungarian:
for each language a player plays both games against the computer (Victory and Quest) and, at every
phase, the board reads no English word (``english_on_page``'s rule: tests/i18n/walk.py):

* a match waiting for a second player (the panel with its rules and link);
* the setup phase (the tray with each castle's original name and the page's word beside it, the
  status, the rules in a nutshell, a hint after a castle put on the wrong kind of place);
* play: the status line, the legend and the taken castles;
* a battle: in Victory an attack (both castles revealed), in Quest a castle turned round after the die;
* the log (the engine's events, from codes) and the result after resigning, and the board of the
  replay;

and the "My setups" page draws its list and editor in the language. The walk reads the game's parts
of the match page (the board, ``#game-root``, and the log, ``#log``); the match page's frame (seats,
clocks, chat, fair play, the rematch offer that sits under the result) is the table's and is walked by its
own test. Reaching the states: a match
against the computer made through the API, ``?lang=xx`` on the page, clicks chosen from the snapshot's
legal actions (tests/browser/stratego_driver.py).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import english_on_page, signup, unique_name, watch
from tests.browser.stratego_driver import quest_choice, victory_choice
from tests.browser.test_stratego_junior import quick, shot, snap
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ["cs", "sk", "uk", "ru", "hu"]
#: each language's words the test waits for (the games' names as the rulebooks have them)
WORDS = {
    "cs": {"quest": "Quest", "victory": "Victory", "jester": "Šašek", "loss": "Prohrál(a) jsi."},
    "sk": {"quest": "Quest", "victory": "Victory", "jester": "Blázon", "loss": "Prehral(a) si."},
    "uk": {"quest": "Похід", "victory": "Перемога", "jester": "Блазень", "loss": "Ти програв(-ла)."},
    "ru": {"quest": "Поход", "victory": "Победа", "jester": "Шут", "loss": "Ты проиграл(а)."},
    "hu": {"quest": "Csata", "victory": "Győzelem", "jester": "Udvaribolond", "loss": "Vesztettél."},
}

#: the text a person reads inside the elements matching `selector`: their text and the attributes
#: read aloud or shown on hover of the elements in them (as helpers.english_on_page reads the whole page)
_VISIBLE_IN_JS = """([selector, skip]) => {
  const parts = [];
  for (const root of document.querySelectorAll(selector)) {
    let text = root.innerText;
    const skipped = skip ? [...root.querySelectorAll(skip)] : [];
    for (const other of skipped) text = text.replace(other.innerText, " ");
    parts.push(text);
    for (const el of root.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      if (skipped.some((other) => other.contains(el))) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
    for (const opt of root.querySelectorAll('option')) if (!skipped.some((o) => o.contains(opt))) parts.push(opt.textContent);
  }
  return parts;
}"""


#: the table's parts the game's root holds: the rematch offer under the result (match_rematch.js), the
#: buttons to join or cancel a waiting match (match_client.js); and the page's address shown to copy
TABLE_PARTS = "#rematch-panel, #cancel-match-box, #join-match, code.hash"


def english_in(page: Page, locale: str, selector: str, *names: str) -> dict[str, str]:
    """The English words a person reads in ``selector`` on ``page``, outside the table's parts
    (names may stay as they are)."""
    return english_in_text(page.evaluate(_VISIBLE_IN_JS, [selector, TABLE_PARTS]), locale, *names)


def seat_names(page: Page) -> list[str]:
    """The seats' names on a match page (the computer's is the table's words, match_client.js's seatName)."""
    return page.evaluate("() => window.matchClient ? [0, 1].map((s) => window.matchClient.seatName(s)) : []")


def check(page: Page, locale: str, where: str, *names: str, selector: str = "#game-root, #log") -> None:
    """No English word in ``selector``, nor anywhere on the page (the table's frame too); the
    players' names and the page's address (shown to copy) may stay as they are."""
    found = english_in(page, locale, selector, *names, *seat_names(page))
    assert found == {}, f"{locale}, {where}: English words {found}"
    found = english_on_page(page, locale, *names, *seat_names(page), page.url)
    assert found == {}, f"{locale}, {where}: English words on the page {found}"


def computer_match(page: Page, variant: str) -> int:
    r = page.request.post(
        "/api/matches",
        data={
            "game": "stratego_junior",
            "options": {"variant": variant, "turn_seconds": 300},
            "computer": [{"seat": 1}],
        },
    )
    assert r.status == 201, r.text()
    return int(r.json()["id"])


def my_turn(page: Page) -> dict:
    """Wait until the page may act in play (or the match is over); its snapshot."""
    page.wait_for_function(
        """() => {
            const c = window.matchClient;
            const s = c && c.snapshot;
            if (!s) return false;
            if (s.status === 'finished') return true;
            return s.status === 'active' && (s.legal || []).length > 0 && !c.pending && s.view.phase !== 'setup';
        }""",
        timeout=LONG,
    )
    s = snap(page)
    assert s is not None
    return s


def battle_kinds(page: Page) -> set[str]:
    return set(page.evaluate("() => window.matchClient.events.flatMap((e) => (e.events || []).map((x) => x.kind))"))


def setup_phase(page: Page, locale: str, name: str) -> None:
    """The placement editor in ``locale``: tray, status, a hint, then Random and Confirm."""
    expect(page.locator('#sj-status[data-state="setup"]')).to_be_visible(timeout=LONG)
    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator('[data-tray-piece="jester"]')).to_contain_text("Udvaribolond")
    if locale != "hu":  # the page's word beside the original name
        expect(page.locator('[data-tray-piece="jester"] .sj-tray-here')).to_have_text(WORDS[locale]["jester"])
    # a big castle on a square: the hint says where it goes
    page.click('[data-tray-piece="flag"]')
    page.click('[data-setup-cell="0,0"]')
    expect(page.locator("#sj-hint")).not_to_have_text("", timeout=LONG)
    check(page, locale, "setup", name)
    shot(page, f"i18n-{locale}-setup")
    page.click("#sj-random")
    expect(page.locator("[data-tray-piece]")).to_have_count(0)
    check(page, locale, "setup, every castle placed", name)
    page.click("#sj-confirm")


def play_to_battle(page: Page, variant: str, rng: random.Random) -> None:
    """Play until a battle is on the board: an attack (Victory) or a castle turned round (Quest)."""
    wanted = "combat" if variant == "victory" else "flip"
    for _ in range(80):
        s = my_turn(page)
        if wanted in battle_kinds(page) or s["status"] == "finished":
            break
        view, legal = s["view"], s["legal"]
        attacks = [a for a in legal if "attack" in a]
        if variant == "victory":
            action = attacks[0] if attacks else victory_choice(view, legal, rng)
        else:
            action = quest_choice(view, legal, rng)
        quick(page, action, s["seat"])
        page.wait_for_function("(v) => window.matchClient.snapshot.version > v", arg=s["version"], timeout=LONG)
    else:
        pytest.fail(f"no {wanted} on the board after 80 turns")


def resign(page: Page) -> None:
    page.once("dialog", lambda d: d.accept())
    page.locator("#resign-button").click(timeout=LONG)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_stratego_junior_board_speaks_the_language(new_page, locale):
    page = new_page()
    w = watch(page)
    name = unique_name("Hrac")
    signup(page, name)
    rng = random.Random(15)
    words = WORDS[locale]

    # a match waiting for a second person: the panel with the match's rules and its link
    r = page.request.post(
        "/api/matches", data={"game": "stratego_junior", "options": {"variant": "quest", "memory_aid": True}}
    )
    assert r.status == 201, r.text()
    page.goto(f"/matches/{r.json()['id']}?lang={locale}")
    expect(page.locator("#waiting-for-players #match-rules")).to_contain_text(words["quest"], timeout=LONG)
    check(page, locale, "waiting for a second player", name)

    for variant in ("victory", "quest"):
        match_id = computer_match(page, variant)
        page.goto(f"/matches/{match_id}?lang={locale}")
        expect(page.locator("#sj-variant")).to_have_text(words[variant], timeout=LONG)
        setup_phase(page, locale, name)

        # play: the status, the legend, the taken castles
        s = my_turn(page)
        assert s["view"]["variant"] == variant
        expect(page.locator("#sj-status")).to_have_attribute("data-state", "my-turn", timeout=LONG)
        check(page, locale, f"{variant}: play", name)

        # a battle, on the board and in the log
        play_to_battle(page, variant, rng)
        kind = "combat" if variant == "victory" else "flip"
        assert kind in battle_kinds(page)
        expect(page.locator("#log li")).not_to_have_count(0)
        check(page, locale, f"{variant}: a battle", name)
        shot(page, f"i18n-{locale}-{variant}-battle")

        # the result after resigning, with every castle shown
        resign(page)
        result = page.locator("#result")
        expect(result).to_be_visible(timeout=LONG)
        expect(result.locator(".result-headline")).to_have_text(words["loss"])
        expect(page.locator('#sj-status[data-state="over"]')).to_be_visible(timeout=LONG)
        check(page, locale, f"{variant}: the result", name)
        seats = seat_names(page)
        shot(page, f"i18n-{locale}-{variant}-result")
        log = page.locator("#log").inner_text()
        assert log.strip(), "the log is empty"

    # the last match's replay, at its last step: the board with every castle shown
    page.goto(f"/matches/{match_id}/replay?lang={locale}")
    expect(page.locator("#replay-last")).to_be_enabled(timeout=LONG)
    page.click("#replay-last")
    expect(page.locator('#game-root .sj-board [data-testid="castle"]').first).to_be_visible(timeout=LONG)
    check(page, locale, "the replay", name, *seats, selector="#game-root")

    # the "My setups" page: the editor, a saved setup in the list, the question before deleting it
    page.goto(f"/decks/stratego_junior?lang={locale}")
    expect(page.locator("#sj-random")).to_be_visible(timeout=LONG)
    page.click("#sj-random")
    page.fill("#sj-deck-name", "Pevnost")
    page.click("#sj-deck-save")
    expect(page.locator(".sj-deck-item .sj-deck-name")).to_have_text(["Pevnost"], timeout=LONG)
    page.click('.sj-deck-item [data-action="delete"]')
    expect(page.locator(".sj-confirm-delete")).to_be_visible()
    check(page, locale, "my setups", name, selector="main")
    shot(page, f"i18n-{locale}-setups")
    # the check can fail: the same page in English is full of English words
    page.goto("/decks/stratego_junior?lang=en")
    expect(page.locator("#sj-random")).to_be_visible(timeout=LONG)
    assert {"saved", "setup", "castles"} <= {w.lower() for w in english_in(page, "en", "main", name)}
    assert not [e for e in w.errors if not re.search(r"Failed to load resource", e)], w.errors
