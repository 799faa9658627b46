"""Issue 15 in the browser, for tournaments and rewards: in each of Czech, Slovak, Ukrainian,
Russian and Hungarian, a Master organises a knockout from the tournaments page's form, a Knight
registers, withdraws (the confirmation in the page's language), registers again and checks in, the
Master starts it (confirmed), the Knight withdraws from the running tournament (confirmed: the
match is forfeited) and the page follows it to its end; then the Knight, credited points, buys a
title on the rewards page, shows it and sees it on the profile. Every page and every dialog on the
way has no English word outside proper names (``english_on_page``)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import select, update

from app.points.ledger import credit
from app.points.ranks import thresholds_from
from app.settings import get_settings
from app.users.models import User
from tests.browser.helpers import english_on_page, in_server_db, signup, unique_name, watch
from tests.i18n.walk import english_in_text

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG = 60000  # a wait ends as soon as its state is there; the machine is shared and slow
LOCALES = ("cs", "sk", "uk", "ru", "hu")


def _speak(page: Page, locale: str) -> None:
    """The player's language, as the header's picker stores it."""
    r = page.request.post("/api/users/me/language", data={"language": locale})
    assert r.status == 200, r.text()


def _no_english(page: Page, locale: str, *names: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", locale)
    assert english_on_page(page, locale, *names) == {}, page.url


def _set_up(server, master: str, knight: str) -> None:
    """``master`` is a Master (ranks are issue 13's: set directly); ``knight`` has 600 points."""

    async def go(sessionmaker):
        async with sessionmaker() as s, s.begin():
            await s.execute(update(User).where(User.name_key == master.lower()).values(rank="master"))
            uid = await s.scalar(select(User.id).where(User.name_key == knight.lower()))
            thresholds = thresholds_from(get_settings())
            await credit(s, uid, 600, "adjust", "browser-i18n", thresholds=thresholds)

    in_server_db(server, go)


@pytest.mark.parametrize("locale", LOCALES)
def test_a_tournament_and_a_reward_in_the_players_language(new_page, server, locale):
    org, player = new_page(), new_page()
    org_watch, player_watch = watch(org), watch(player)
    master, knight = unique_name("Zora"), unique_name("Oleg")
    cup = f"Pohár {knight[-4:]}"
    names = (master, knight, cup)
    dialogs: list[str] = []
    for page, name in ((org, master), (player, knight)):
        signup(page, name)
        _speak(page, locale)
        page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    _set_up(server, master, knight)

    # the Master organises a knockout from the form
    org.goto("/tournaments")
    expect(org.locator("#tournament-form")).to_be_visible()
    _no_english(org, locale, *names)
    form = org.locator("#tournament-form")
    form.locator("[name=name]").fill(cup)
    form.locator("[name=game]").select_option("battle_runes")
    form.locator("[name=format]").select_option("knockout")
    form.locator("[name=max_players]").fill("4")
    form.locator("[name=starts_in]").fill("30")
    form.locator("#tournament-create").click()
    org.wait_for_url(re.compile(r"/tournaments/\d+$"), timeout=LONG)
    url = org.url
    expect(org.locator("#tournament-status")).to_have_attribute("data-status", "registering")
    _no_english(org, locale, *names)
    org.locator("#tournament-register").click()
    org.locator("#tournament-check-in").click(timeout=LONG)
    expect(org.locator("#tournament-checked-in")).to_be_visible(timeout=LONG)
    _no_english(org, locale, *names)

    # the Knight registers, withdraws, registers again and checks in
    player.goto(url)
    _no_english(player, locale, *names)
    player.locator("#tournament-register").click()
    expect(player.locator("#tournament-check-in")).to_be_visible(timeout=LONG)
    player.locator("#tournament-withdraw").click()
    expect(player.locator("#tournament-register")).to_be_visible(timeout=LONG)
    player.locator("#tournament-register").click()
    player.locator("#tournament-check-in").click(timeout=LONG)
    expect(player.locator("#tournament-checked-in")).to_be_visible(timeout=LONG)
    _no_english(player, locale, *names)

    # the Master starts it: running, with its bracket
    expect(org.locator("#tournament-players tbody tr")).to_have_count(2, timeout=LONG)
    org.locator("#tournament-start").click()
    expect(org.locator("#tournament-status")).to_have_attribute("data-status", "running", timeout=LONG)
    expect(org.locator("#tournament-rounds a.match-link")).to_have_count(1, timeout=LONG)
    _no_english(org, locale, *names)

    # the Knight's page follows the start by itself (its poll reloads it; a reload of ours could
    # collide with that one); the Knight withdraws: the match is forfeited, the Master wins
    expect(player.locator("#tournament-status")).to_have_attribute("data-status", "running", timeout=LONG)
    _no_english(player, locale, *names)
    player.locator("#tournament-withdraw").click()
    expect(player.locator("#tournament-status")).to_have_attribute("data-status", "finished", timeout=LONG)
    expect(player.locator("#tournament-standings tbody tr")).to_have_count(2)
    _no_english(player, locale, *names)
    player.goto("/tournaments")
    expect(player.locator("#tournaments-finished")).to_contain_text(cup)
    _no_english(player, locale, *names)

    # every confirmation: withdraw (registering), start, withdraw (running), in the page's language
    assert len(dialogs) == 3, dialogs
    assert english_in_text(dialogs, locale) == {}, dialogs

    # the rewards: buy a title, show it, see it on the profile
    player.goto("/rewards")
    expect(player.locator("#rewards-balance")).to_have_text(re.compile(r"^\d"))
    _no_english(player, locale, *names)
    card = player.locator('.reward-card[data-code="title_wandering_knight"]')
    card.locator('button[data-action="buy"]').click()
    expect(card).to_have_attribute("data-owned", "true", timeout=LONG)
    _no_english(player, locale, *names)
    card.locator('button[data-action="equip"]').click()
    expect(card).to_have_attribute("data-equipped", "true", timeout=LONG)
    _no_english(player, locale, *names)
    player.goto(f"/users/{knight}")
    expect(player.locator("#player-title")).to_be_visible()
    expect(player.locator('#ledger tr[data-reason="reward"]')).to_have_count(1)
    _no_english(player, locale, *names)
    # (the Master's tournament page follows the end by itself; once it shows it, it stops asking)
    expect(org.locator("#tournament-status")).to_have_attribute("data-status", "finished", timeout=LONG)
    _no_english(org, locale, *names)
    org.goto(f"/users/{master}")
    expect(org.locator('#ledger tr[data-reason="tournament_place"]')).to_have_count(1, timeout=LONG)
    _no_english(org, locale, *names)
    assert not org_watch.errors and not player_watch.errors, (org_watch.errors, player_watch.errors)
