"""Issue 15's walk of the Fantasy súboj board, in Chromium, in Czech, Slovak, Ukrainian, Russian and
Hungarian: a player who chose the language sees no English word on the page (``english_on_page``:
the text and the titles, tooltips and labels people read) in every state the board draws:

* the waiting panel of a match that waits for a second player;
* a match against the computer: the start (the deal, the start roll), choosing an attacker, choosing
  a target with the exact chances, the dice of the last attack and its result, the prisons and the
  spoils choice (imprison or recruit) and the Tactics choices when the cards bring them;
* the log of all that, and the result after resigning;
* a team match of four seats (team badges and scores, three computers of one name).

The units keep their original Slovak names (the seed rulebook's) in every language, so those names
are allowed as they are; their translations are the units' titles.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from app.games.core import get_rules
from app.web.games.fantasy_duel import display_name
from tests.browser.helpers import PASSWORD, english_on_page, unique_name, watch
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ["cs", "sk", "uk", "ru", "hu"]
#: the states of the board the walk looks at, and how many of the player's decisions it takes
ATTACKS = 6
ACTIONS_JS = "() => [...document.querySelectorAll('#fd-actions button.fd-act')].map((b) => b.dataset.action)"
#: which offered choice the player takes (spoils: recruit shows the swap; Tactics: draw, then not now)
PREFERENCE = ("target", "attacker", "recruit", "imprison", "draw", "defer", "back")


def unit_names() -> list[str]:
    """The units' original names, which every language shows as they are."""
    return [display_name(u) for u in get_rules("fantasy_duel").catalog()["units"]]


#: the text people read inside an element: its text, and the titles, labels and placeholders in it,
#: leaving out what the match page's own scripts put there (join, cancel, rematch: match_client.js)
_PART_JS = """(sel) => {
  const found = document.querySelector(sel);
  if (!found) return [];
  const root = found.cloneNode(true);
  root.querySelectorAll('#cancel-match-box, #join-match, #rematch-panel, #match-aborted').forEach((e) => e.remove());
  root.style.position = 'absolute';
  document.body.append(root);  // innerText needs the clone laid out
  const parts = [root.innerText];
  root.remove();
  for (const el of [root, ...root.querySelectorAll('[title], [aria-label], [placeholder], [alt]')]) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
  }
  return parts;
}"""


def seat_names(page: Page) -> list[str]:
    """The seats' names as the page shows them (players' and the computer's: names stay as they are)."""
    return page.evaluate(
        "() => window.matchClient && window.matchClient.snapshot ? (window.matchClient.snapshot.seats || [])"
        ".map((s) => window.matchClient.seatName(s.seat)) : []"
    )


def no_english(page: Page, locale: str, where: str, *names: str) -> None:
    """The board and the log (this game's words) first, then the whole page (issue 15's walk)."""
    allowed = (*names, *unit_names())
    for part in ("#game-root > .fd", "#log"):
        found = english_in_text(page.evaluate(_PART_JS, part), locale, *allowed, *seat_names(page))
        assert found == {}, f"{locale}, {where}: English words in {part}: {found}"
    found = english_on_page(page, locale, *allowed)
    assert found == {}, f"{locale}, {where}: English words on the page: {found}"


def register(page: Page, locale: str) -> str:
    """A new player who chose ``locale`` (stored on the account: every page comes in it)."""
    name = unique_name("Drak")
    r = page.request.post("/api/auth/register", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    r = page.request.post("/api/users/me/language", data={"language": locale})
    assert r.ok, r.text()
    return name


def create(page: Page, body: dict) -> int:
    r = page.request.post("/api/matches", data={"game": "fantasy_duel", **body})
    assert r.status == 201, r.text()
    return int(r.json()["id"])


def pick(actions: list[dict]) -> dict:
    def rank(action: dict) -> int:
        kind = next(iter(action))
        return PREFERENCE.index(kind) if kind in PREFERENCE else len(PREFERENCE)

    return min(actions, key=rank)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_board_speaks_the_players_language(new_page, locale):
    page = new_page()
    w = watch(page)
    me = register(page, locale)

    # a match that waits for a second person: the waiting panel
    waiting = create(page, {"players": 2, "options": {"turn_seconds": 30}})
    page.goto(f"/matches/{waiting}")
    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator("#waiting-for-players")).to_be_visible(timeout=LONG)
    no_english(page, locale, "waiting for players", me)
    assert page.request.post(f"/api/matches/{waiting}/cancel").ok

    # against the computer: the table, the player's choices, the dice
    match_id = create(
        page,
        {
            "players": 2,
            "options": {"turn_seconds": 600, "stalemate_rounds": 3},
            "computer": [{"seat": 1, "level": "random"}],
        },
    )
    page.goto(f"/matches/{match_id}")
    expect(page.locator(".fd-seat")).to_have_count(2, timeout=LONG)
    expect(page.locator("#fd-status")).to_be_visible()
    no_english(page, locale, "the table", me)

    seen: set[str] = set()
    attacks = 0
    while attacks < ATTACKS and page.locator("#result").count() == 0:
        page.wait_for_function(
            "() => document.querySelector('#result') || document.querySelector('#fd-actions button.fd-act')",
            timeout=LONG,
        )
        offered = [json.loads(a) for a in page.evaluate(ACTIONS_JS)]
        if not offered:
            continue
        phase = page.locator("#fd-actions").get_attribute("data-phase") or "?"
        if phase not in seen or phase == "target":
            # each step once (the chances of every target as they come), and the dice of the last attack
            no_english(page, locale, f"choosing ({phase})", me)
            seen.add(phase)
        action = pick(offered)
        kind = next(iter(action))
        key = json.dumps(action, separators=(",", ":"))
        try:
            page.locator(f"#fd-actions button.fd-act[data-action='{key}']").first.click(timeout=5000)
        except PlaywrightError:
            continue  # a newer snapshot replaced the buttons meanwhile
        if kind == "target":
            attacks += 1
            expect(page.locator("#fd-last-attack")).to_be_visible(timeout=LONG)
            no_english(page, locale, "the dice of an attack", me)
    assert {"attacker", "target"} <= seen or page.locator("#result").count(), seen

    # the prison list opened (its units' names keep their translation in the title)
    for details in page.locator("details.fd-prison").all():
        details.evaluate("(d) => { d.open = true; }")
    no_english(page, locale, "the prisons", me)

    # resigning: the result, the ranking and the log
    if page.locator("#result").count() == 0:
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#resign-button").click(timeout=LONG)
    result = page.locator("#result")
    expect(result).to_be_visible(timeout=LONG)
    expect(page.locator("#fd-status")).to_have_attribute("data-state", "over", timeout=LONG)
    log = page.locator("#log")
    expect(log).not_to_be_empty(timeout=LONG)
    text = log.inner_text()
    assert "fd." not in text and not re.search(r"\bundefined\b", text), text[-2000:]
    no_english(page, locale, "the result and the log", me)

    # four seats in two teams, three of them the computer: team badges and scores, seats of one name
    teams = create(
        page,
        {
            "players": 4,
            "options": {"turn_seconds": 600, "teams": [0, 1, 0, 1]},
            "computer": [{"seat": s, "level": "random"} for s in (1, 2, 3)],
        },
    )
    page.goto(f"/matches/{teams}")
    expect(page.locator("#fd-team-scores")).to_be_visible(timeout=LONG)
    expect(page.locator(".fd-seat")).to_have_count(4)
    no_english(page, locale, "a team match", me)
    assert not w.errors, w.errors
