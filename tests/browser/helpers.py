"""Page-level helpers for the browser tests (sign up, create, join, pick runes, read frames)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import re
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from app.db.session import make_engine, make_sessionmaker

PASSWORD = "correct horse battery staple"
_names = itertools.count(1)


def unique_name(prefix: str) -> str:
    return f"{prefix}{int(time.time() * 1000) % 1_000_000}{next(_names)}"


@dataclass
class Watcher:
    """Everything a page received on its websockets (and sent: :attr:`sent`), plus its JavaScript
    errors."""

    frames: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)

    def hellos(self) -> list[dict[str, Any]]:
        """The ``hello`` frames the page sent, oldest first."""
        return [f for f in map(json.loads, self.sent) if isinstance(f, dict) and f.get("type") == "hello"]

    def snapshots(self) -> list[dict[str, Any]]:
        out = []
        for text in self.frames:
            frame = json.loads(text)
            if frame.get("type") == "snapshot":
                out.append(frame)
        return out


def watch(page: Page) -> Watcher:
    """Record every websocket frame the page receives and sends, and every uncaught error (call
    before goto)."""
    w = Watcher()

    def on_ws(ws):
        ws.on(
            "framereceived", lambda payload: w.frames.append(payload if isinstance(payload, str) else payload.decode())
        )
        ws.on("framesent", lambda payload: w.sent.append(payload if isinstance(payload, str) else payload.decode()))

    page.on("websocket", on_ws)
    page.on("pageerror", lambda exc: w.errors.append(str(exc)))
    page.on("console", lambda msg: w.errors.append(msg.text) if msg.type == "error" else None)
    return w


def reload(page: Page) -> None:
    """Load the page again, as a player pressing F5 would.

    The clan, challenge and tournament pages reload themselves when their poll sees a change; when
    that reload starts while ours is on its way, Chromium aborts one of the two navigations
    (``net::ERR_ABORTED``). Either way the page ends up freshly loaded, which is all a caller asks, so
    that abort waits for the page's own load instead of failing the test. Any other error is raised.
    """
    try:
        page.reload()
    except PlaywrightError as exc:
        if "ERR_ABORTED" not in str(exc):
            raise
        page.wait_for_load_state("load")


def signup(page: Page, name: str) -> None:
    page.goto("/signup")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#auth-submit")
    page.wait_for_url("**/lobby")
    expect(page.get_by_test_id("current-user")).to_contain_text(name)


def create_match(
    page: Page, *, computer: str | None = None, turn_seconds: int = 60, options: dict[str, int] | None = None
) -> int:
    """Fill the lobby's "create a match" form and submit it; returns the new match id."""
    page.goto("/lobby")
    page.select_option("#create-game", "battle_runes")
    if computer:
        page.check('input[name="opponent"][value="computer"]')
        expect(page.locator("#level-label")).to_be_visible()
        page.select_option("#create-level", computer)
    else:
        page.check('input[name="opponent"][value="person"]')
    page.select_option("#create-turn", str(turn_seconds))
    for key, value in (options or {}).items():
        page.fill(f"#opt-{key}", str(value))
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


def join_from_lobby(page: Page, match_id: int) -> None:
    page.goto("/lobby")
    button = page.locator(f'#open-matches li[data-match-id="{match_id}"] button:has-text("Join")')
    expect(button).to_be_visible()
    button.click()
    page.wait_for_url(re.compile(rf".*/matches/{match_id}$"))


def wait_turn_or_result(page: Page, turn: int, timeout: float = 15000) -> bool:
    """Wait until the page lets us pick for turn ``turn`` (1-based) or shows the result.

    :returns: True when the result is shown.
    """
    page.wait_for_function(
        """(turn) => {
            if (document.querySelector('#result')) return true;
            const br = document.querySelector('.br');
            return !!br && Number(br.dataset.turn) === turn - 1
                && !!document.querySelector('.br-mine .rune.selectable');
        }""",
        arg=turn,
        timeout=timeout,
    )
    return page.locator("#result").count() > 0


def pick_three(
    page: Page, rng: random.Random, *, then_waits: bool = False, prefer: str | None = None, check: bool = True
) -> list[str]:
    """Select 3 of the 5 runes and confirm.

    :param then_waits: check the page then says it waits for the opponent (only true for the
        first of two people to confirm: the second one's confirm resolves the turn at once).
    :param prefer: a rune kind (``"build"``) to pick first, so that matches end sooner.
    :param check: check the page after every click (Confirm stays disabled until the 3rd rune).
        Without checks the runes are chosen with click events sent to the cards themselves, not
        with the mouse at their place: the opponent's choice arriving between two clicks changes
        the status lines above the hand, and under load a mouse click at the old place landed on
        another card (the clean-clone CI saw "2 of 3 chosen").
    """
    cards = page.locator(".br-mine .rune.selectable")
    expect(cards).to_have_count(5)
    faces = cards.evaluate_all("(els) => els.map((e) => [e.dataset.rune, e.dataset.kind])")
    kinds = dict(faces)
    ids = [rune for rune, _ in faces]
    rng.shuffle(ids)
    if prefer:
        ids.sort(key=lambda rune: kinds[rune] != prefer)
    chosen = ids[:3]
    confirm = page.locator("#confirm-pick")
    for n, rune in enumerate(chosen):
        card = page.locator(f'.br-mine .rune.selectable[data-rune="{rune}"]')
        if not check:
            card.dispatch_event("click")
            continue
        expect(confirm).to_be_disabled()
        card.click()
        expect(page.locator("#pick-count")).to_have_text(f"{n + 1} / 3 chosen")
        expect(page.locator(f'.br-mine .rune[data-rune="{rune}"]')).to_have_attribute("aria-pressed", "true")
    if check:
        # a 4th rune is refused with a hint
        other = next(r for r in ids if r not in chosen)
        page.click(f'.br-mine .rune.selectable[data-rune="{other}"]')
        expect(page.locator("#pick-hint")).to_contain_text("only 3")
        expect(page.locator("#pick-count")).to_have_text("3 / 3 chosen")
    expect(confirm).to_be_enabled()
    confirm.click()
    if then_waits:
        expect(page.locator("#br-status")).to_have_attribute("data-state", "waiting")
        expect(page.locator("#br-status")).to_contain_text("Waiting for the opponent")
    return chosen


def in_server_db(server, fn: Callable[[Any], Awaitable[Any]]) -> Any:
    """Run ``fn(sessionmaker)`` on the test server's database, in a thread of its own (Playwright's
    sync API keeps an event loop in this one)."""
    out: dict[str, Any] = {}

    async def main() -> None:
        engine = make_engine(server.env["DATABASE_URL"])
        try:
            out["value"] = await fn(make_sessionmaker(engine))
        finally:
            await engine.dispose()

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # handed to the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(180)
    assert not thread.is_alive(), "the database call did not finish"
    if "error" in out:
        raise out["error"]
    return out.get("value")


#: the text a person reads on the page now: every visible element's text (but ``<code>``: an
#: address to copy), and the attributes read aloud or shown on hover
_VISIBLE_JS = """() => {
  let text = document.body.innerText;
  // machine text shown to copy (a match's address with its random part) is not words
  for (const code of document.querySelectorAll('code')) text = text.replace(code.innerText, ' ');
  const parts = [document.title, text];
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder], [alt]')) {
    for (const a of ['title', 'aria-label', 'placeholder', 'alt']) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
  }
  return parts;
}"""


def english_on_page(page: Page, locale: str, *names: str) -> dict[str, str]:
    """The English words a person reads on ``page`` in ``locale`` (issue 15's walk of the game
    boards), each with the text it stands in; ``names`` (players' names) may stay as they are.
    Uses the vocabulary of ``tests/i18n/walk.py``: every word of the English sources."""
    from tests.i18n.walk import english_in_text

    return english_in_text(page.evaluate(_VISIBLE_JS), locale, *names)
