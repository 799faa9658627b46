"""The clan ladder, trophies and wall in Chromium (issue 13): a leader founds a clan in Košický
kraj; a member and an officer are in it (set up through the service); the clan earns points this
month (credited in the server's database, as a won challenge would) and the clan page shows its
score; the member posts on the wall (markup shows as text) and the officer removes the post; then
the month close runs (the job's function on the server's database, a moment after this month
ends) and the trophy shows in the clan's cabinet and on the region ladder's past month, reached
from the ladder's pickers."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

from app.clans import month_close, service
from app.clans.models import Clan, Role
from app.clans.months import month_start, next_month
from app.clans.points import credit_clan, month_of
from app.db.base import utcnow
from app.users.models import User
from tests.browser.helpers import in_server_db, signup, unique_name, watch
from tests.conftest import make_settings

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REGION = "SK-KI"


def test_points_wall_month_close_and_the_trophy_in_the_cabinet(new_page, server):
    month = month_of(utcnow())
    pages = {who: new_page() for who in ("leader", "officer", "member")}
    names = {who: unique_name(who[:3]) for who in pages}
    watchers = [watch(p) for p in pages.values()]
    for who, page in pages.items():
        signup(page, names[who])
    leader, officer, member = pages["leader"], pages["officer"], pages["member"]
    tag = f"K{random.randrange(10_000, 99_999)}"

    leader.goto("/clans")
    leader.fill("#found-name", f"Košice {tag}")
    leader.fill("#found-tag", tag)
    leader.select_option("#found-region", REGION)
    leader.click("#found-submit")
    leader.wait_for_url(re.compile(rf".*/clans/{tag}$"))
    expect(leader.locator("#clan-score")).to_contain_text("No points this month yet")
    expect(leader.locator("#trophy-cabinet-empty")).to_be_visible()

    async def setup(sessions) -> None:
        async with sessions() as s:
            ids = {n: await s.scalar(select(User.id).where(User.name == n)) for n in names.values()}
        lead = ids[names["leader"]]
        for who in ("officer", "member"):
            async with sessions() as s:
                invitation = await service.invite(s, lead, tag, names[who], limit=30)
            async with sessions() as s:
                await service.accept(s, ids[names[who]], tag, invitation.id, limit=30)
        async with sessions() as s:
            await service.set_role(s, lead, tag, ids[names["officer"]], Role.OFFICER)
        async with sessions() as s, s.begin():
            clan_id = await s.scalar(select(Clan.id).where(Clan.tag == tag))
            assert await credit_clan(s, clan_id, 120, "adjust", f"browser:{tag}", month=month)

    in_server_db(server, setup)
    leader.reload()
    expect(leader.locator("#clan-score")).to_contain_text("120 points this month")
    expect(leader.locator("#clan-place")).to_have_text("1")

    # the member posts; markup shows as text
    text = f"Friday at 8 <b>{tag}</b> <script>window.hacked=1</script>"
    member.goto(f"/clans/{tag}")
    member.fill("#wall-text", text)
    member.click("#wall-submit")
    post = member.locator(f'#wall-posts li[data-author="{names["member"]}"]')
    expect(post.locator(".wall-text")).to_have_text(text)
    assert member.evaluate("window.hacked") is None

    # the officer removes it
    officer.goto(f"/clans/{tag}")
    officer_post = officer.locator(f'#wall-posts li[data-author="{names["member"]}"]')
    expect(officer_post.locator(".wall-text")).to_have_text(text)
    officer.once("dialog", lambda d: d.accept())
    officer_post.locator("button.wall-remove").click()
    expect(officer.locator("#wall-empty")).to_be_visible()
    expect(officer.locator('#clan-history li[data-code="wall_removed"]')).to_contain_text(
        # the name, its rank badge, the words
        re.compile(rf"{names['officer']}\s+Knight\s+removed a wall post by {names['member']}")
    )
    member.reload()
    expect(member.locator("#wall-empty")).to_be_visible()

    # the month ends: the job closes it (as the server's loop does a second after the turn)
    after_the_turn = month_start(next_month(month)) + timedelta(seconds=1)

    async def close(sessions) -> list[str]:
        await month_close.open_months(sessions, utcnow())
        return await month_close.close_due(sessions, make_settings(server.env["DATABASE_URL"]), after_the_turn)

    in_server_db(server, close)
    leader.reload()
    trophy = leader.locator(f'#trophy-cabinet li[data-month="{month}"][data-region="{REGION}"]')
    expect(trophy).to_have_attribute("data-place", "1")
    expect(trophy.locator(".trophy-gold")).to_have_text("Gold")
    expect(trophy).to_contain_text("Košický kraj")
    expect(leader.locator('#clan-history li[data-code="trophy"]')).to_contain_text("The clan won gold in Košický kraj")

    # the region ladder's past month, through the pickers of the ladder page (linked from /clans)
    leader.goto("/clans")
    leader.click("#clan-ladder-link")
    leader.wait_for_url("**/clans/ladder")
    leader.select_option("#ladder-region", REGION)
    leader.select_option("#ladder-month", month)
    leader.click("#ladder-show")
    leader.wait_for_url(re.compile(rf".*/clans/ladder/{REGION}\?month={month}$"))
    podium = leader.locator(f'#ladder-trophies li[data-tag="{tag}"]')
    expect(podium).to_have_attribute("data-place", "1")
    expect(podium.locator(".trophy-gold")).to_have_text("Gold")
    expect(leader.locator(f'#clan-ladder tr[data-tag="{tag}"] .clan-score')).to_have_text("120")
    for w in watchers:
        assert not w.errors, w.errors
