"""Issue 15's browser walk of the table around the boards, in each of cs sk uk ru hu: the lobby with
its create form for every game (players, seats, teams, the clock's hint, the game's options) and the
listed matches' option tags; a match page's frame (seats and clocks, presence, the turn alert in the
tab's title, the chat, the spectator count, the resign question, the rematch offer after the result);
the replay with its controls. At each, ``english_on_page`` finds no English word. The board itself
(``#game-root``, drawn by each game's module) is left to the games' walks, but the frame's own texts in
it (the rematch panel) are read."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import signup, unique_name, watch
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ["cs", "sk", "uk", "ru", "hu"]

#: one waiting match per game whose options all differ from the defaults (their tags are listed)
TAGGED = [
    {
        "game": "battle_runes",
        "options": {
            "win_score": 40,
            "start_score": 10,
            "max_turns": 5,
            "r2p5_bonus_kind": "construction",
            "zero_blocks_swap_all": False,
            "spectators": False,
            "rated": True,
        },
    },
    {
        "game": "fantasy_duel",
        "players": 4,
        "options": {
            "packs": 2,
            "teams": [0, 1, 0, 1],
            "stalemate_rounds": 3,
            "recruit_swap_prison": "loser",
            "poison_attacker_ignores_taunt_and_fire": True,
        },
    },
    {
        "game": "scratch_wars",
        "options": {
            "level": 2,
            "effects": "every_effect_attacks",
            "random_loadouts": True,
            "permanent_order": "loadout",
        },
    },
    {
        "game": "stratego_junior",
        "options": {"variant": "quest", "memory_aid": True, "move_cap": 30, "black_knight_return_optional": True},
    },
    {
        "game": "treasure_beasts",
        "options": {
            "max_rounds": 10,
            "creature_actions": "one_total",
            "threat_scope": "global",
            "turn_ends_at_zero_ap": False,
            "center_treasure": 5,
        },
    },
]

#: the text a person reads on the page, leaving out the board's own contents (#game-root's, but
#: for the rematch panel the frame puts under the result); every <option> of a shown <select>
_FRAME_TEXT_JS = """() => {
  const board = (el) => {
    const root = el.closest('#game-root');
    return !!root && el !== root && !el.closest('#rematch-panel');
  };
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('script, style, select') || board(el) || !el.checkVisibility()) continue;
    if (node.textContent.trim()) parts.push(node.textContent);
  }
  for (const select of document.querySelectorAll('select')) {
    if (board(select) || !select.checkVisibility()) continue;
    for (const option of select.options) if (!option.hidden) parts.push(option.text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    if (board(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
  }
  return parts;
}"""


#: every "name" in the page's game data (cards, heroes: proper names)
_CARD_NAMES_JS = """() => {
  const out = [];
  const walk = (x) => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (k === 'name' && typeof v === 'string') out.push(v);
        else walk(v);
      }
    }
  };
  walk(JSON.parse(document.getElementById('game-data').textContent));
  return out;
}"""


def english_in_frame(page: Page, locale: str, *names: str) -> dict[str, str]:
    """``english_on_page`` for the table: the page without the board's own contents."""
    return english_in_text(page.evaluate(_FRAME_TEXT_JS), locale, *names)


def english_in(page: Page, selector: str, locale: str, *names: str) -> dict[str, str]:
    """The English words of the frame's own parts drawn inside the board (``selector``): the cancel
    button and its question, the panel of a match that never started."""
    parts = page.locator(selector).evaluate_all(
        "(els) => els.flatMap((e) => [e.innerText, ...[...e.querySelectorAll('[title], [aria-label]')]"
        ".map((x) => x.getAttribute('title') || x.getAttribute('aria-label'))])"
    )
    return english_in_text(parts, locale, *names)


def post(page: Page, path: str, body: dict | None = None) -> dict:
    """POST ``body`` as the page's player (its cookies), from the page's own site."""
    site = re.match(r"https?://[^/]+", page.url)
    assert site, page.url
    r = page.request.post(path, data=body or {}, headers={"Origin": site.group(0)})
    assert r.ok, (path, r.status, r.text())
    return r.json() if r.status != 204 else {}


def lobby_walk(page: Page, locale: str, names: list[str]) -> None:
    """The create form for every game in its states, and the listed matches with their tags."""
    page.goto("/lobby")
    expect(page.locator("html")).to_have_attribute("lang", locale)
    expect(page.locator("#my-matches li.match-item")).to_have_count(len(TAGGED), timeout=LONG)
    expect(page.locator("#my-matches .option-tag").first).to_be_visible(timeout=LONG)
    assert english_in_frame(page, locale, *names) == {}
    games = page.locator("#create-game option").evaluate_all("(os) => os.map((o) => o.value)")
    for game in games:
        page.select_option("#create-game", game)
        expect(page.locator("#game-options [data-option]").first).to_be_attached(timeout=LONG)
        for opponent in ("person", "computer", "custom"):
            page.check(f'input[name="opponent"][value="{opponent}"]')
            assert english_in_frame(page, locale, *names) == {}, (game, opponent)
        page.select_option("#create-clock", "bank")
        expect(page.locator("#bank-choice")).to_be_visible()
        assert english_in_frame(page, locale, *names) == {}, (game, "bank")
        page.select_option("#create-clock", "turn")
        if page.locator("#players-label").is_visible():
            page.select_option("#create-players", "4")
            if page.locator("#teams-label").is_visible():
                page.select_option("#create-teams", index=1)
                expect(page.locator("#team-plan")).to_be_visible()
            assert english_in_frame(page, locale, *names) == {}, (game, "players")
        # every option shown, each of its values (a shown-only-if option comes with its condition)
        for select in page.locator("#game-options select").all():
            if select.is_visible():
                for value in select.locator("option").evaluate_all("(os) => os.map((o) => o.value)"):
                    select.select_option(value)
                    assert english_in_frame(page, locale, *names) == {}, (game, value)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_table_speaks_the_language(new_page, locale):
    page = new_page()
    w = watch(page)
    me = unique_name("Wanda")
    signup(page, me)
    post(page, "/api/users/me/language", {"language": locale})
    for spec in TAGGED:
        post(page, "/api/matches", {"players": 2, **spec})
    # other players' names listed in the lobby (open matches of the earlier languages)
    names = [me, *page.locator(".player-link").all_inner_texts()]
    lobby_walk(page, locale, names)
    names += page.locator(".player-link").all_inner_texts()

    # a waiting match of mine: cancelling it from its page asks first, then the board says why it ended
    waiting = page.locator("#my-matches li.match-item").first.get_attribute("data-match-id")
    page.goto(f"/matches/{waiting}")
    expect(page.locator("#cancel-match")).to_be_visible(timeout=LONG)
    assert english_in(page, "#cancel-match-box", locale) == {}
    page.locator("#cancel-match").click()
    expect(page.locator("#cancel-match-yes")).to_be_visible()
    assert english_in(page, "#cancel-match-box", locale) == {}
    page.locator("#cancel-match-yes").click()
    expect(page.locator("#match-aborted")).to_be_visible(timeout=LONG)
    expect(page.locator("#seed-unused")).to_be_visible(timeout=LONG)
    assert english_in(page, "#match-aborted", locale) == {}
    assert english_in_frame(page, locale, *names) == {}, "aborted"

    # a match against the computer: the frame while it is the player's turn
    # (Scratch Wars: its log lines, drawn by the game's module, are translated; random loadouts start
    # the duel at once, with the start spin both seats choose at the same time)
    match = post(
        page,
        "/api/matches",
        {"game": "scratch_wars", "options": {"random_loadouts": True}, "computer": [{"seat": 1, "level": None}]},
    )
    page.goto(f"/matches/{match['id']}")
    expect(page.locator("#conn-status")).to_have_attribute("data-state", "online", timeout=LONG)
    expect(page.locator("body")).to_have_attribute("data-my-turn", "true", timeout=LONG)
    # the game's card names are proper names (the log names the loadouts)
    names += page.evaluate(_CARD_NAMES_JS)
    assert page.title().startswith("(●)")
    expect(page.get_by_test_id("presence-0")).to_be_visible(timeout=LONG)
    expect(page.locator("#chat-lines .chat-empty")).to_be_visible(timeout=LONG)
    assert english_in_frame(page, locale, *names) == {}, "match"
    page.get_by_test_id("chat-good_luck").click()
    expect(page.locator("#chat-lines .chat-line")).to_have_count(1, timeout=LONG)
    # a spectator: the count on the player's page, the chat's note on the spectator's
    watcher = new_page()
    watcher.goto(f"/matches/{match['id']}?lang={locale}")
    expect(page.get_by_test_id("spectator-count")).to_have_attribute("data-count", "1", timeout=LONG)
    expect(watcher.locator("#chat-note")).to_be_visible(timeout=LONG)
    assert english_in_frame(watcher, locale, *names) == {}, "spectator"
    assert english_in_frame(page, locale, *names) == {}, "match with chat and a spectator"
    # resign: the question, then the result with the rematch offer
    questions: list[str] = []

    def answer(dialog) -> None:
        questions.append(dialog.message)
        dialog.accept()

    page.once("dialog", answer)
    page.locator("#resign-button").click(timeout=LONG)
    expect(page.locator("#rematch-offer")).to_be_visible(timeout=LONG)
    expect(page.locator("#replay-item")).to_be_visible(timeout=LONG)
    expect(page.locator("#seed-check.ok")).to_be_visible(timeout=LONG)
    assert questions and english_in_text(questions, locale) == {}, questions
    assert english_in_frame(page, locale, *names) == {}, "result"
    expect(watcher.locator("#seed-check.ok")).to_be_visible(timeout=LONG)
    assert english_in_frame(watcher, locale, *names) == {}, "spectator at the result"

    # the replay, at its first step and its last
    page.goto(f"/matches/{match['id']}/replay")
    expect(page.locator("#replay-app")).to_have_attribute("data-ready", "true", timeout=LONG)
    expect(page.locator("#replay-pos")).to_have_text(re.compile(r"^1 / \d+$"))
    assert english_in_frame(page, locale, *names) == {}, "replay start"
    page.locator("#replay-last").click()
    expect(page.locator("#replay-last")).to_be_disabled()
    assert english_in_frame(page, locale, *names) == {}, "replay end"
    assert not w.errors, w.errors


def test_the_walk_finds_english_in_the_english_lobby(new_page):
    """The check can fail: in English the listed tags, the form and the seats are English words."""
    page = new_page()
    me = unique_name("Wanda")
    signup(page, me)
    post(page, "/api/users/me/language", {"language": "en"})
    post(page, "/api/matches", {"players": 2, **TAGGED[0]})
    page.goto("/lobby")
    expect(page.locator("#my-matches .option-tag").first).to_be_visible(timeout=LONG)
    found = english_in_frame(page, "en", me)
    assert {"rated", "first", "spectators", "Opponent", "waiting"} <= set(found), found
