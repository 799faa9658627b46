"""Take the README's screenshots (docs/img/lobby.png, docs/img/stratego_junior.png) from a running
server with Playwright and Debian's Chromium.

    make run &                                   # a server at http://127.0.0.1:8000
    .venv/bin/python scripts/readme_screenshots.py [--base-url URL] [--out docs/img]

It signs up a new player, opens a Battle Runes match with a time bank for others to join (so the
lobby lists one), takes the lobby, then plays Stratego Junior against the computer: a random
setup, and takes the board at the first turn. Each picture is kept under about 150 KB.
"""

from __future__ import annotations

import argparse
import re
import secrets
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
VIEWPORT = {"width": 1060, "height": 700}
PASSWORD = "correct horse battery staple"


def sign_up(page: Page, name: str) -> None:
    """A new account, logged in (the sign-up page lands on the lobby)."""
    page.goto("/signup")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.fill("#password2", PASSWORD)
    page.click("#auth-submit")
    page.wait_for_url("**/lobby")


def lobby(page: Page, out: Path) -> Path:
    """A Battle Runes match waiting for an opponent (10 min + 5 s), then the lobby."""
    page.goto("/lobby")
    page.select_option("#create-game", "battle_runes")
    page.check('input[name="opponent"][value="person"]')
    page.select_option("#create-clock", "bank")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r".*/matches/\d+$"))
    page.goto("/lobby")
    expect(page.locator("#my-matches [data-testid=match-clock]").first).to_be_visible()
    page.select_option("#create-game", "stratego_junior")
    page.check('input[name="opponent"][value="computer"]')
    page.select_option("#create-clock", "bank")
    path = out / "lobby.png"
    page.screenshot(path=str(path))
    return path


def stratego(page: Page, out: Path) -> Path:
    """Stratego Junior (Quest) against the computer: a random setup, then the board at our first turn."""
    created = page.request.post(
        "/api/matches",
        data={"game": "stratego_junior", "options": {"variant": "quest"}, "computer": [{"seat": 1}]},
    )
    assert created.status == 201, created.text()
    page.goto(f"/matches/{created.json()['id']}")
    page.click("#sj-random")
    page.click("#sj-confirm")
    # wait until it is our first turn
    page.wait_for_function(
        "() => { const s = window.matchClient && window.matchClient.snapshot;"
        " return s && s.view && s.view.phase !== 'setup' && s.legal.length > 0; }",
        timeout=60000,
    )
    path = out / "stratego_junior.png"
    page.screenshot(path=str(path))
    return path


def main(argv: list[str] | None = None) -> int:
    """Take both screenshots; print each path and size. :returns: 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "img")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox"])
        context = browser.new_context(base_url=args.base_url, viewport=VIEWPORT)
        context.set_default_timeout(60000)
        page = context.new_page()
        sign_up(page, f"ada{secrets.randbelow(10**6)}")
        for path in (lobby(page, args.out), stratego(page, args.out)):
            print(path, f"{path.stat().st_size // 1024} KB")
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
