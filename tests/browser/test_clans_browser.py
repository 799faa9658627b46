"""Clans in Chromium (issue 13, first part): a player founds a clan from /clans (reached from the
header), a second player asks to join from the clan page, the leader accepts in the management
section, and the new member shows on the clan page with their role, for both players; the
history says what happened, and a name with markup shows as text."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import signup, unique_name, watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_found_request_accept_and_the_member_shows(new_page):
    leader, joiner = new_page(), new_page()
    watchers = [watch(leader), watch(joiner)]
    lead_name, join_name = unique_name("lead"), unique_name("join")
    signup(leader, lead_name)
    signup(joiner, join_name)
    tag = f"T{random.randrange(10_000, 99_999)}"
    clan_name = f"Knights <b>{tag}</b>"

    leader.locator("#nav-clans").click()
    leader.wait_for_url("**/clans")
    leader.fill("#found-name", clan_name)
    leader.fill("#found-tag", tag)
    leader.select_option("#found-region", "CZ-64")
    leader.fill("#found-description", "We play <i>Scratch Wars</i> on Fridays.\nEveryone welcome!")
    leader.click("#found-submit")
    leader.wait_for_url(re.compile(rf".*/clans/{tag}$"))
    expect(leader.locator("#clan-name")).to_have_text(clan_name)  # the markup shows as text
    # the description keeps its two lines (a line break used to be refused as a control character)
    assert (
        leader.locator("#clan-description").inner_text() == "We play <i>Scratch Wars</i> on Fridays.\nEveryone welcome!"
    )
    expect(leader.locator("#clan-region")).to_have_text("Jihomoravský kraj")
    expect(leader.locator(f'#clan-members tr[data-user="{lead_name}"] .clan-role')).to_have_text("Leader")

    joiner.goto("/clans")
    joiner.fill("#clan-q", tag.lower())
    joiner.locator("#clan-search button").click()
    joiner.locator(f'#clan-list tr[data-tag="{tag}"] a').click()
    joiner.wait_for_url(re.compile(rf".*/clans/{tag}$"))
    joiner.click("#clan-request")
    expect(joiner.locator("#clan-requested")).to_be_visible()

    leader.reload()
    request = leader.locator(f'#clan-pending li[data-user="{join_name}"][data-kind="request"]')
    expect(request).to_be_visible()
    request.locator('button[data-action="accept"]').click()
    member_row = leader.locator(f'#clan-members tr[data-user="{join_name}"]')
    expect(member_row.locator(".clan-role")).to_have_text("Member")
    expect(leader.locator("#clan-count")).to_have_text("2")
    expect(leader.locator("#clan-pending-empty")).to_be_visible()
    expect(leader.locator('#clan-history li[data-code="joined"]')).to_contain_text(f"{join_name} joined")

    joiner.reload()
    expect(joiner.locator(f'#clan-members tr[data-user="{join_name}"] .clan-role')).to_have_text("Member")
    expect(joiner.locator("#clan-leave")).to_be_visible()
    expect(joiner.locator("#clan-manage")).to_have_count(0)
    for w in watchers:
        assert not w.errors, w.errors


NARROW = {"width": 390, "height": 800}


def test_the_clan_forms_say_the_rule_and_the_clan_page_fits_a_phone(new_page):
    page = new_page(NARROW)
    w = watch(page)
    signup(page, unique_name("pia"))
    page.goto("/clans")
    expect(page.locator("#found-form")).to_contain_text("Tag (2-6 letters A-Z or digits)")
    error = page.locator("#found-error")  # next to the form's button, where the player looks
    tag_rule = "A tag has 2 to 6 letters A-Z or digits."
    page.fill("#found-name", "Polish Club")
    for bad_tag in ("A B", "ČR", "A"):
        page.fill("#found-tag", bad_tag)
        page.click("#found-submit")
        expect(error).to_be_visible()
        expect(error).to_be_in_viewport()
        expect(error).to_have_text(tag_rule)
        expect(page.locator("#found-submit")).to_be_enabled()
        page.evaluate("document.getElementById('found-error').hidden = true")  # the next answer shows it again
    page.fill("#found-tag", "PC1")
    page.fill("#found-name", "P")
    page.click("#found-submit")
    expect(error).to_be_visible()
    expect(error).to_have_text("A clan name has 2 to 40 characters.")

    tag = f"P{random.randrange(10_000, 99_999)}"
    page.fill("#found-name", f"Polish {tag}")
    page.fill("#found-tag", tag)
    page.click("#found-submit")
    page.wait_for_url(re.compile(rf".*/clans/{tag}$"))
    expect(page.locator("#wall-text")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    # the wall's one-line box is one line high, not a tall narrow column
    height = page.locator("#wall-text").evaluate("(e) => e.getBoundingClientRect().height")
    assert height < 60, height
    errors = [e for e in w.errors if "status of 422" not in e]  # the refused forms above
    assert not errors, errors
