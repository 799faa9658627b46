"""Browser tests: a real uvicorn server on a free port with a temp SQLite database, driven by
Playwright through Debian's Chromium (``/usr/bin/chromium``; never ``playwright install``).

Chromium missing: the tests skip locally and fail in CI (``CI=true``), like :func:`require_service`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import IN_CI
from tests.servers import ServerProcess, migrate, server_env

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [pytest.mark.browser, pytest.mark.slow]

try:
    import playwright  # noqa: F401
except ImportError:  # the test modules import it: skip them locally, let CI fail on them
    if not IN_CI:
        collect_ignore_glob = ["test_*.py"]


def require_chromium() -> None:
    """Skip locally, fail in CI, when Chromium or the playwright package is missing."""
    problem = None
    if not Path(CHROMIUM).exists():
        problem = f"Chromium not found at {CHROMIUM}"
    else:
        try:
            import playwright  # noqa: F401
        except ImportError:
            problem = "the playwright package is not installed"
    if problem:
        if IN_CI:
            pytest.fail(f"browser tests are required in CI but {problem}")
        pytest.skip(problem)


def serve(tmp_path_factory, name: str) -> Iterator[ServerProcess]:
    """A real server on a free port, with a fresh migrated SQLite database in a directory called
    ``name``; stopped when the generator closes (the body of the ``server`` fixtures)."""
    require_chromium()
    tmp = tmp_path_factory.mktemp(name)
    env = server_env(f"sqlite+aiosqlite:///{tmp / 'arena.db'}", BOT_DELAY_SECONDS="0.2", CLOCK_TICK_SECONDS="0.2")
    migrate(env)
    srv = ServerProcess(env, tmp / "server.log")
    try:
        srv.start()
    except RuntimeError as exc:
        pytest.fail(str(exc))
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[ServerProcess]:
    """A real server on a free port, with a fresh migrated SQLite database (session-wide)."""
    yield from serve(tmp_path_factory, "browser-server")


@pytest.fixture(scope="module")
def browser(server):
    """A headless Chromium per test module. Not per session: Playwright's sync API runs an event
    loop in this thread while it is open, which would break ``asyncio.run`` in later test files."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=15000)  # assertions wait for their state (Playwright's default: 5 s)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def new_page(browser, server):
    """Factory: a page in a fresh browser context (its own cookies), closed after the test."""
    contexts = []

    def make(viewport: dict | None = None):
        ctx = browser.new_context(base_url=server.base_url, viewport=viewport or {"width": 1280, "height": 900})
        # generous: the 2-core machines are shared, and a wait ends as soon as its state is there
        ctx.set_default_timeout(30000)
        contexts.append(ctx)
        return ctx.new_page()

    yield make
    for ctx in contexts:
        ctx.close()
