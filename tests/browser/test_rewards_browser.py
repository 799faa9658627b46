"""Points, rewards and ranks in Chromium (issue 13, items 5 to 7): a player credited 600 points
(in the server's database, as a job would) is a Master by the threshold; on /rewards they buy a
title, the balance drops, a second click (from another tab showing the page before the purchase)
is refused in words and spends nothing; they show the title, and their profile has it beside the
name, with the rank, the balance and the ledger in words. The rank badge is beside their name on
a match page and on their clan's page."""

from __future__ import annotations

import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import signup, unique_name, watch
from tests.servers import ROOT

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: credits points to a player in the server's database (a separate process: the sync Playwright
#: API keeps an event loop running in the test's thread)
CREDIT = """
import asyncio, sys
from sqlalchemy import select
from app.db.session import make_engine, make_sessionmaker
from app.points.ledger import credit
from app.points.ranks import thresholds_from
from app.settings import get_settings
from app.users.models import User

async def main(name, points):
    settings = get_settings()
    engine = make_engine(settings.database_url)
    async with make_sessionmaker(engine)() as s, s.begin():
        uid = await s.scalar(select(User.id).where(User.name_key == name.lower()))
        await credit(s, uid, points, "adjust", "browser-test", thresholds=thresholds_from(settings))
    await engine.dispose()

asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


def _credit(server, name: str, points: int) -> None:
    env = {**server.env, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", CREDIT, name, str(points)], cwd=ROOT, env=env, check=True, timeout=120)


def test_buy_a_title_refuse_a_second_click_show_it_and_see_the_rank(new_page, server):
    page = new_page()
    w = watch(page)
    name = unique_name("knight")
    signup(page, name)
    _credit(server, name, 600)  # over the Master threshold (RANK_MASTER_POINTS, 500)

    page.goto("/rewards")
    expect(page.locator("#rewards-balance")).to_have_text("600")
    expect(page.get_by_test_id("current-user").locator(".rank-badge")).to_have_text("Master")
    card = page.locator('.reward-card[data-code="title_wandering_knight"]')
    expect(card).to_contain_text("Wandering Knight")
    expect(card).to_contain_text("150 points")
    stale = page.context.new_page()  # another tab, showing the page before the purchase
    stale_watch = watch(stale)
    stale.goto("/rewards")
    expect(stale.locator("#rewards-balance")).to_have_text("600")

    card.locator('button[data-action="buy"]').click()
    expect(page.locator("#rewards-balance")).to_have_text("450")
    expect(card).to_have_attribute("data-owned", "true")
    expect(card.locator('button[data-action="buy"]')).to_have_count(0)

    # the second click, from the other tab: refused in words, nothing spent
    stale.locator('.reward-card[data-code="title_wandering_knight"] button[data-action="buy"]').click()
    expect(stale.locator("#rewards-error")).to_have_text("You have this reward already.")
    stale.reload()
    expect(stale.locator("#rewards-balance")).to_have_text("450")
    stale.close()

    # show the title; the profile has it beside the name, with the rank, balance and ledger
    card.locator('button[data-action="equip"]').click()
    expect(card).to_have_attribute("data-equipped", "true")
    page.goto(f"/users/{name}")
    expect(page.locator("#player-title")).to_have_text("Wandering Knight")
    expect(page.locator("#profile h1 .rank-badge")).to_have_text("Master")
    expect(page.locator("#points-balance")).to_have_text("450")
    expect(page.locator("#ledger tbody tr")).to_have_count(2)
    expect(page.locator('#ledger tr[data-reason="reward"]')).to_contain_text("Bought Wandering Knight")
    expect(page.locator('#ledger tr[data-reason="reward"]')).to_contain_text("-150")
    expect(page.locator('#owned-rewards li[data-code="title_wandering_knight"]')).to_contain_text("(shown)")

    # the rank beside the name on a match page (drawn by the match client from the snapshot)
    r = page.request.post(
        "/api/matches",
        data={"game": "battle_runes", "options": {"turn_seconds": 60}, "computer": [{"seat": 1, "level": "random"}]},
    )
    assert r.status == 201, r.text()
    page.goto(f"/matches/{r.json()['id']}")
    seat = page.locator(".seat-card[data-seat='0']")
    expect(seat.locator("a.player-link")).to_have_text(name)
    expect(seat.locator(".rank-badge")).to_have_text("Master")

    # and on the clan page's member list
    tag = "R" + name[-5:]
    r = page.request.post(
        "/api/clans", data={"name": f"Clan {name}", "tag": tag, "region": "other", "colour": "#335577"}
    )
    assert r.status == 201, r.text()
    page.goto(f"/clans/{tag}")
    row = page.locator(f'#clan-members tr[data-user="{name}"]')
    expect(row.locator("a.player-link")).to_have_text(name)
    expect(row.locator(".rank-badge")).to_have_attribute("data-rank", "master")
    assert not w.errors, w.errors
    assert not [e for e in stale_watch.errors if "409" not in e], stale_watch.errors
