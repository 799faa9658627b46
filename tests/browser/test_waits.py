"""A wait the server asks for (``retry_after``, in seconds, of ``rate_limited`` and ``busy``) is
told in the page's language in a unit a person reads (static/js/messages.js ``formatWait``), not
as thousands of seconds."""

from __future__ import annotations

import pytest

from tests.browser.test_i18n_browser import choose_language

pytestmark = pytest.mark.browser

ERROR_TEXT = """([code, seconds]) => import("/static/js/messages.js").then(
  (m) => m.errorText({ code, message: "wait", params: { retry_after: seconds } }))"""


@pytest.mark.parametrize(
    ("locale", "seconds", "words"),
    [
        ("en", 2818, "Slow down: try again in 47 min."),
        ("en", 7, "Slow down: try again in 7 sec."),
        ("cs", 2818, "Zpomal: zkus to znovu za 47 min."),
        ("hu", 7200, "Lassíts: próbáld újra 2 ó múlva."),  # (ó: óra, Intl's short unit)
    ],
)
def test_a_long_wait_reads_in_minutes_or_hours(new_page, locale, seconds, words):
    page = new_page()
    page.goto("/")
    if locale != "en":
        choose_language(page, locale)
    assert page.evaluate(ERROR_TEXT, ["rate_limited", seconds]).replace("\u00a0", " ") == words
    busy = page.evaluate(ERROR_TEXT, ["busy", 100])  # 100 s: 2 minutes, rounded up
    assert "{" not in busy and "100" not in busy and "2" in busy, busy
