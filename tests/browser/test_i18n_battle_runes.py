"""Issue 15 on the Battle Runes board: a player whose site speaks Czech, Slovak, Ukrainian, Russian or
Hungarian opens a match for a person (the waiting panel), then plays the computer, and at every
step (picking runes, a 4th rune refused, the reveal with
its step-by-step table, the history and the log, the result after resigning) the page shows no
English word outside proper names (``english_on_page``). The runes keep their original Russian
names on the cards, with the page's language's name in the card's title.

The whole page is walked, so the match page's frame (templates/match.html, match_client.js: clocks,
seat cards, fair play, chat) must be translated too; :func:`board_english` names the board's own
words first, so a failure says which part still speaks English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import create_match, english_on_page, signup, unique_name, watch
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ["cs", "sk", "uk", "ru", "hu"]
#: the words each language's board shows for the status line, the reveal and the result
EXPECTED = {
    "cs": {"pick": "vyber 3", "count": "vybráno 1 / 3", "revealed": "Tah 1 odkrytý", "lose": "Prohrál(a) jsi."},
    "sk": {"pick": "vyber 3", "count": "vybraté 1 / 3", "revealed": "Ťah 1 odkrytý", "lose": "Prehral(a) si."},
    "uk": {"pick": "вибери 3", "count": "вибрано 1 / 3", "revealed": "Хід 1 відкрито", "lose": "Ти програв(-ла)."},
    "ru": {"pick": "выбери 3", "count": "выбрано 1 / 3", "revealed": "Ход 1 открыт", "lose": "Ты проиграл(а)."},
    "hu": {"pick": "válassz ki 3", "count": "1 / 3 kiválasztva", "revealed": "1. kör felfedve", "lose": "Vesztettél."},
}
#: the board's own parts: the game's root (status, scores, hands, reveal, history, result) and the
#: log, without what other scripts draw there: the rematch offer match_rematch.js places under the
#: result, and match_client.js's cancel button with its duration ("1 hour") in the waiting panel
_BOARD_JS = """() => {
  const others = [...document.querySelectorAll('#rematch-panel, #waiting-for-players .waiting-cancel')];
  const parts = [];
  for (const root of document.querySelectorAll('#game-root, #log')) {
    let text = root.innerText;
    for (const other of others) if (root.contains(other)) text = text.replace(other.innerText, ' ');
    parts.push(text);
    for (const el of root.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
      if (others.some((other) => other.contains(el))) continue;
      for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
        const v = el.getAttribute(a);
        if (v) parts.push(v);
      }
    }
  }
  return parts;
}"""


def board_english(page: Page, locale: str, *names: str) -> dict[str, str]:
    """The English words of the board and the log only (the part this game draws)."""
    return english_in_text(page.evaluate(_BOARD_JS), locale, *names)


def seat_names(page: Page) -> list[str]:
    """The players' names as the board shows them (the computer's seat is named by match_client.js)."""
    return page.evaluate("[0, 1].map((s) => window.matchClient.seatName(s))")


def no_english(page: Page, locale: str, where: str, *names: str) -> None:
    board = board_english(page, locale, *names)
    assert board == {}, f"{locale}, {where}: English words on the Battle Runes board: {board}"
    found = english_on_page(page, locale, *names)
    assert found == {}, f"{locale}, {where}: English words on the page: {found}"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_match_against_the_computer_speaks_the_players_language(new_page, locale):
    page = new_page()
    w = watch(page)
    me = unique_name("runa")
    signup(page, me)
    r = page.request.post("/api/users/me/language", data={"language": locale})
    assert r.ok, r.text()
    page.goto("/lobby")
    expect(page.locator("html")).to_have_attribute("lang", locale)
    words = EXPECTED[locale]

    # waiting for a person to join: the invitation, the link, this match's scores
    create_match(page, turn_seconds=120, options={"win_score": 40})
    expect(page.locator("#waiting-for-players")).to_be_visible(timeout=LONG)
    expect(page.locator("#match-rules")).to_contain_text("40")
    # the match's address to share is shown as it is ("…/matches/7")
    no_english(page, locale, "waiting for an opponent", me, page.url)

    page.goto("/lobby")
    level = page.locator("#create-level option").first.get_attribute("value")
    create_match(page, computer=level, turn_seconds=120)
    expect(page.locator("html")).to_have_attribute("lang", locale)

    # picking: both hands, the status line, the empty reveal and history
    cards = page.locator(".br-mine .rune.selectable")
    expect(cards).to_have_count(5, timeout=LONG)
    expect(page.locator("#br-status")).to_contain_text(words["pick"], timeout=LONG)
    names = seat_names(page)
    assert me in names
    # a card shows the original Russian name; its title has the page's language's name beside it
    first = cards.first
    assert re.search(r"[А-Яа-яЁё]", first.locator(".rune-name").inner_text())
    if locale != "ru":
        assert re.search(r"^\S.* \(.+\): .+", first.get_attribute("title") or "")
    no_english(page, locale, "picking", *names)

    # choosing: one rune, then three, then a fourth is refused with a hint
    ids = cards.evaluate_all("(els) => els.map((e) => e.dataset.rune)")
    page.click(f'.br-mine .rune.selectable[data-rune="{ids[0]}"]')
    expect(page.locator("#pick-count")).to_have_text(words["count"])
    for rune in ids[1:4]:
        page.click(f'.br-mine .rune.selectable[data-rune="{rune}"]')
    expect(page.locator("#pick-hint")).not_to_be_empty()
    expect(page.locator("#confirm-pick")).to_be_enabled()
    no_english(page, locale, "three runes chosen", *names)

    # the reveal: the breakdown, the step-by-step table, the history and the log
    page.click("#confirm-pick")
    expect(page.locator("#last-turn h3")).to_contain_text(words["revealed"], timeout=LONG)
    # the next turn's hand, or (rarely: doubled destruction from 25) the end after one turn
    expect(page.locator(".br-mine .rune.selectable, #result").first).to_be_visible(timeout=LONG)
    page.locator("#history details").first.evaluate("(d) => { d.open = true; }")
    expect(page.locator("#log li").last).to_be_visible()
    no_english(page, locale, "the reveal", *names)

    # the result after resigning (unless the first turn ended the match)
    result = page.locator("#result")
    if not result.is_visible():
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("#resign-button").click(timeout=LONG)
        expect(result).to_be_visible(timeout=LONG)
        expect(result.locator(".result-headline")).to_have_text(words["lose"])
    no_english(page, locale, "the result", *names)
    assert not w.errors, w.errors
