"""A clan challenge in Chromium (issue 13, item 3): two players found two clans; one challenges the
other to a 2-board Battle Runes series from the other clan's page; the other accepts on the
challenge page; each signs up for both boards (a player may play several boards of a series:
each clan has one player here); the boards' matches are played to the end (the challenged player
resigns both); the series result shows on the challenge page (which follows the live boards by
itself) and the clan ladder points on the winning clan's page; then the month ends, the month
close runs (the job's function on the server's database, a moment after the month's turn, as the
server's own loop runs it) and the gold trophy shows in the winning clan's cabinet.

The test has a server of its own: the month close is once per month and region for the whole
database, so a shared server's other tests could close this month first."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select

from app.clans import month_close
from app.clans.models import Clan, ClanPoints
from app.clans.months import month_start, next_month
from app.db.base import utcnow
from tests.browser.conftest import serve
from tests.browser.helpers import in_server_db, reload, signup, unique_name, watch
from tests.conftest import make_settings
from tests.servers import ServerProcess

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REGION = "CZ-64"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ServerProcess]:
    """This module's own server (fresh SQLite database), overriding the session-wide one."""
    yield from serve(tmp_path_factory, "challenge-server")


def _found(page: Page, name: str, tag: str) -> None:
    page.goto("/clans")
    page.fill("#found-name", name)
    page.fill("#found-tag", tag)
    page.select_option("#found-region", REGION)
    page.click("#found-submit")
    page.wait_for_url(re.compile(rf".*/clans/{tag}$"))


def _sign_up_for_both(page: Page, side: str) -> None:
    for board in (1, 2):
        cell = page.locator(f'#challenge-boards tr[data-board="{board}"] .board-{side}')
        cell.locator('button[data-action="signup"]').click()
        expect(cell.locator("a.player-link")).to_be_visible()


def _resign(page: Page) -> None:
    button = page.locator("#resign-button")
    expect(button).to_be_visible()
    page.once("dialog", lambda d: d.accept())
    button.click()
    expect(page.locator("#result")).to_be_visible()


def test_challenge_played_to_its_result_ladder_points_and_the_month_close_trophy(new_page, server):
    a, b = new_page(), new_page()
    watchers = [watch(a), watch(b)]
    a_name, b_name = unique_name("chal"), unique_name("def")
    signup(a, a_name)
    signup(b, b_name)
    n = random.randrange(1000, 9999)
    tag_a, tag_b = f"CA{n}", f"CB{n}"
    _found(a, f"Attackers {n}", tag_a)
    _found(b, f"Defenders {n}", tag_b)

    # a challenges b's clan from its page
    a.goto(f"/clans/{tag_b}")
    form = a.locator("#challenge-form")
    expect(form).to_be_visible()
    a.select_option("#challenge-game", "battle_runes")
    a.select_option("#challenge-turn", "120")
    # a number of boards out of range is named with its bound
    a.fill("#challenge-boards", "0")
    a.click("#challenge-submit")
    expect(a.locator("#challenge-error")).to_have_text("“Boards” is too small: at least 1.")
    a.fill("#challenge-boards", "2")
    a.click("#challenge-submit")
    a.wait_for_url(re.compile(r".*/challenges/\d+$"))
    challenge_url = a.url
    expect(a.locator("#challenge")).to_have_attribute("data-status", "proposed")

    # b finds it among the current challenges of its clan and accepts
    b.goto(f"/clans/{tag_b}")
    b.locator("#challenges-current li a").first.click()
    b.wait_for_url(challenge_url)
    b.click("#challenge-accept")
    expect(b.locator("#challenge")).to_have_attribute("data-status", "accepted")

    _sign_up_for_both(b, "challenged")
    reload(a)
    _sign_up_for_both(a, "challenger")
    # both boards have their two players: their matches are live
    links = a.locator("#challenge-boards .board-match a")
    expect(links).to_have_count(2)
    match_urls = [links.nth(i).get_attribute("href") for i in range(2)]
    assert all(re.fullmatch(r"/matches/\d+", u or "") for u in match_urls), match_urls

    # b resigns both boards
    for url in match_urls:
        b.goto(url)
        _resign(b)

    # the challenge page follows the boards by itself: the result appears without a reload
    a.goto(challenge_url)
    expect(a.locator("#challenge-result")).to_contain_text(f"Attackers {n} won the series, 2–0.", timeout=60000)
    expect(a.locator("#challenge-score")).to_have_text("2–0")
    expect(a.locator('#challenge-boards tr[data-winner="challenger"]')).to_have_count(2)

    # the winning clan's page: its ladder points this month and the finished challenge
    a.goto(f"/clans/{tag_a}")
    expect(a.locator("#clan-ladder-points")).to_have_text("10")
    expect(a.locator("#challenges-past li .challenge-result")).to_have_text("won")
    expect(a.locator('#clan-history li[data-code="challenge_finished"]')).to_contain_text("The clan won the")
    b.goto(f"/clans/{tag_b}")
    expect(b.locator("#clan-ladder-points")).to_have_text("0")
    expect(b.locator("#challenges-past li .challenge-result")).to_have_text("lost")

    # the month the series counted for ends; the month close awards the region's trophies
    async def month_of_series(sessions) -> str:
        async with sessions() as s:
            clan_id = await s.scalar(select(Clan.id).where(Clan.tag == tag_a))
            return str(await s.scalar(select(ClanPoints.month).where(ClanPoints.clan_id == clan_id)))

    month = in_server_db(server, month_of_series)
    after_the_turn = month_start(next_month(month)) + timedelta(seconds=1)

    async def close(sessions) -> list[str]:
        await month_close.open_months(sessions, utcnow())
        return await month_close.close_due(sessions, make_settings(server.env["DATABASE_URL"]), after_the_turn)

    in_server_db(server, close)  # (at a real month's turn the server's own loop may have closed it)
    a.goto(f"/clans/{tag_a}")
    trophy = a.locator(f'#trophy-cabinet li[data-month="{month}"][data-region="{REGION}"]')
    expect(trophy).to_have_attribute("data-place", "1")
    expect(trophy.locator(".trophy-gold")).to_have_text("Gold")
    expect(a.locator('#clan-history li[data-code="trophy"]')).to_contain_text("The clan won gold")
    # the losing clan scored nothing: no trophy
    b.goto(f"/clans/{tag_b}")
    expect(b.locator("#trophy-cabinet-empty")).to_be_visible()
    for w in watchers:  # (but the refused number of boards: its 422 is in the console)
        errors = [e for e in w.errors if "status of 422" not in e]
        assert not errors, w.errors
