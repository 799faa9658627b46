"""The clan rules besides permissions, on SQLite and PostgreSQL: the member limit, one clan per
player (as a key of the database too), names and tags unique ignoring case, checked inputs, the
leader's leaving and handing over, disbanding, and the history each change writes."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from app.clans import reads, service
from app.clans.models import ClanMember, Role
from app.errors import DomainError
from app.users.models import User
from tests.clans.conftest import LIMIT, World


async def _refused(w: World, code: str, reason_or_field: str | None, fn, *args, **kwargs) -> DomainError:
    """``fn`` is refused with ``code`` (and ``reason`` or ``field``) and changes nothing."""
    before = await w.state()
    with pytest.raises(DomainError) as caught:
        await w.do(fn, *args, **kwargs)
    err = caught.value
    assert err.code == code
    if reason_or_field is not None:
        assert reason_or_field in (err.params.get("reason"), err.params.get("field"))
    assert await w.state() == before
    return err


async def test_the_member_limit_refuses_invitations_requests_and_joins(world: World) -> None:
    u = world.users
    # ALP has 5 players; with the limit at 6 one more may join
    await world.do(service.accept, u["lea"], "ALP", world.request_id, limit=6)
    err = await _refused(world, "conflict", "clan_full", service.accept, u["inv"], "ALP", world.invite_id, limit=6)
    assert err.params["limit"] == 6
    await _refused(world, "conflict", "clan_full", service.request_to_join, u["out"], "ALP", limit=6)
    await _refused(world, "conflict", "clan_full", service.invite, u["lea"], "ALP", "out", limit=6)
    page = await world.do(reads.clan_page, "ALP", None)
    assert page["clan"]["members"] == len(page["members"]) == 6


async def test_joining_drops_the_players_other_invitations_and_a_second_join_is_refused(world: World) -> None:
    u = world.users
    other = await world.do(service.invite, u["oth"], "BET", "inv", limit=LIMIT)
    await world.do(service.accept, u["inv"], "ALP", world.invite_id, limit=LIMIT)
    assert await world.role("inv") == ("ALP", "member")
    assert other.id not in [p[0] for p in (await world.state())["pending"]]
    # an officer of BET invites a player who is in ALP now
    err = await _refused(world, "conflict", "already_in_clan", service.invite, u["oth"], "BET", "INV", limit=LIMIT)
    assert err.params["name"] == "inv"


async def test_one_clan_per_player_is_a_key_of_the_database(world: World) -> None:
    bet = (await world.do(reads.clan_page, "BET", None))["clan"]["id"]
    async with world.sessions() as s:
        s.add(ClanMember(user_id=world.users["mem"], clan_id=bet, role=Role.MEMBER))
        with pytest.raises(IntegrityError):
            await s.commit()


async def test_names_and_tags_are_unique_ignoring_case(world: World) -> None:
    out = world.users["out"]
    kw = {"region": "other", "colour": "#000000"}
    err = await _refused(world, "name_taken", "name", service.found, out, name="ALPHA", tag="NEW", **kw)
    assert err.params["name"] == "ALPHA"
    err = await _refused(world, "name_taken", "tag", service.found, out, name="New", tag="alp", **kw)
    assert err.params["tag"] == "alp"


@pytest.mark.parametrize(
    ("field", "values"),
    [
        ("tag", {"tag": "A"}),
        ("tag", {"tag": "ABCDEFG"}),
        ("tag", {"tag": "A-B"}),
        ("tag", {"tag": "AB\n"}),
        ("tag", {"tag": "ÁBC"}),
        ("region", {"region": "CZ-99"}),
        ("colour", {"colour": "red"}),
        ("colour", {"colour": "#12345g"}),
        ("colour", {"colour": "#123456\n"}),
        ("name", {"name": " x "}),
        ("name", {"name": "bad\x00name"}),
        ("description", {"description": "x" * 501}),
    ],
)
async def test_found_checks_every_field(world: World, field: str, values: dict) -> None:
    kw = {"name": "Gamma", "tag": "GAM", "region": "other", "colour": "#abcdef", "description": "", **values}
    await _refused(world, "validation_error", field, service.found, world.users["out"], **kw)


async def test_update_checks_region_and_colour(world: World) -> None:
    lea = world.users["lea"]
    await _refused(world, "validation_error", "region", service.update_clan, lea, "ALP", region="mars")
    await _refused(world, "validation_error", "colour", service.update_clan, lea, "ALP", colour="#fff")


async def test_unknown_clan_player_invitation_and_member(world: World) -> None:
    u = world.users
    err = await _refused(world, "not_found", None, service.request_to_join, u["out"], "NOPE", limit=LIMIT)
    assert err.params == {"tag": "NOPE"}
    err = await _refused(world, "not_found", None, service.invite, u["lea"], "ALP", "nobody", limit=LIMIT)
    assert err.params == {"name": "nobody"}
    # BET's leader may not answer ALP's request through BET's tag: the invitation is ALP's
    err = await _refused(world, "not_found", None, service.accept, u["oth"], "BET", world.request_id, limit=LIMIT)
    assert err.params == {"reason": "invitation", "invitation_id": world.request_id}
    err = await _refused(world, "not_found", None, service.remove, u["lea"], "ALP", u["oth"])
    assert err.params == {"reason": "member", "user_id": u["oth"]}


async def test_double_invitations_and_requests_are_refused(world: World) -> None:
    u = world.users
    await _refused(world, "conflict", "already_invited", service.invite, u["lea"], "ALP", "inv", limit=LIMIT)
    await _refused(world, "conflict", "already_requested", service.invite, u["lea"], "ALP", "new", limit=LIMIT)
    await _refused(world, "conflict", "already_requested", service.request_to_join, u["new"], "ALP", limit=LIMIT)
    await _refused(world, "conflict", "already_invited", service.request_to_join, u["inv"], "ALP", limit=LIMIT)


async def test_promote_demote_refuse_the_wrong_role(world: World) -> None:
    u = world.users
    await _refused(world, "conflict", "already_officer", service.set_role, u["lea"], "ALP", u["off"], Role.OFFICER)
    await _refused(world, "conflict", "not_officer", service.set_role, u["lea"], "ALP", u["mem"], Role.MEMBER)
    await _refused(world, "conflict", "self", service.set_role, u["lea"], "ALP", u["lea"], Role.LEADER)


async def test_a_new_leader_may_leave_after_handing_over_and_the_last_player_disbands(world: World) -> None:
    u = world.users
    old_id = (await world.do(reads.clan_page, "ALP", None))["clan"]["id"]
    await world.do(service.set_role, u["lea"], "ALP", u["mem"], Role.LEADER)
    assert await world.role("mem") == ("ALP", "leader") and await world.role("lea") == ("ALP", "officer")
    assert await world.do(service.leave, u["lea"], "ALP") is False
    for name in ("off", "tof", "tgt"):
        await world.do(service.remove, u["mem"], "ALP", u[name])
    assert await world.do(service.leave, u["mem"], "ALP") is True
    codes = await world.history_codes()
    assert codes[-2:] == ["left", "disbanded"]
    state = await world.state()
    assert not [p for p in state["pending"] if p[1] == old_id] and not [m for m in state["members"] if m[1] == old_id]
    # the name and tag are free again; the old clan's page is gone
    clan = await world.do(service.found, u["out"], name="alpha", tag="alp", region="CZ-10", colour="#ffffff")
    assert clan.tag == "alp"
    page = await world.do(reads.clan_page, "ALP", None)
    assert page["clan"]["name"] == "alpha" and [m["user"]["name"] for m in page["members"]] == ["out"]


async def test_the_history_tells_every_change_with_its_player(world: World) -> None:
    page = await world.do(reads.clan_page, "ALP", world.users["lea"])
    history = list(reversed(page["history"]))
    assert [h["code"] for h in history] == [
        "founded",
        "invited",
        "joined",
        "invited",
        "joined",
        "invited",
        "joined",
        "requested",
        "joined",
        "promoted",
        "promoted",
        "requested",
        "invited",
    ]
    assert history[0]["params"] == {"name": "Alpha", "tag": "ALP", "region": "CZ-64"}
    assert history[2]["params"]["user"]["name"] == "off" and history[2]["params"]["via"] == "invite"
    assert history[8]["actor"]["name"] == "lea" and history[8]["params"]["via"] == "request"
    assert history[-1]["actor"]["name"] == "off" and history[-1]["params"]["user"]["name"] == "inv"


async def test_the_page_shows_roles_pending_and_what_the_viewer_may_do(world: World) -> None:
    u = world.users
    page = await world.do(reads.clan_page, "alp", u["lea"])
    assert [(m["user"]["name"], m["role"]) for m in page["members"]] == [
        ("lea", "leader"),
        ("off", "officer"),
        ("tof", "officer"),
        ("mem", "member"),
        ("tgt", "member"),
    ]
    assert sorted((p["user"]["name"], p["kind"]) for p in page["pending"]) == [("inv", "invite"), ("new", "request")]
    assert "disband" in page["viewer"]["can"] and "leave" not in page["viewer"]["can"]
    member = await world.do(reads.clan_page, "ALP", u["mem"])
    assert member["pending"] == [] and member["viewer"] == {"role": "member", "clan_tag": "ALP", "can": ["leave"]}
    invited = await world.do(reads.clan_page, "ALP", u["inv"])
    assert [p["kind"] for p in invited["pending"]] == ["invite"]
    assert invited["viewer"]["can"] == ["accept", "decline"]
    assert (await world.do(reads.clan_page, "ALP", u["oth"]))["viewer"]["can"] == []
    assert (await world.do(reads.clan_page, "ALP", u["out"]))["viewer"]["can"] == ["request"]
    assert (await world.do(reads.clan_page, "ALP", None))["viewer"] is None


async def test_the_list_searches_filters_and_pages(world: World) -> None:
    every = await world.do(reads.list_clans)
    assert [c["tag"] for c in every["clans"]] == ["ALP", "BET"] and every["total"] == 2
    assert [c["tag"] for c in (await world.do(reads.list_clans, q="bet"))["clans"]] == ["BET"]
    assert [c["tag"] for c in (await world.do(reads.list_clans, q="%"))["clans"]] == []
    assert [c["tag"] for c in (await world.do(reads.list_clans, region="CZ-64"))["clans"]] == ["ALP"]
    assert (await world.do(reads.list_clans, page=2))["clans"] == []
    with pytest.raises(DomainError):
        await world.do(reads.list_clans, region="XX")
    mine = await world.do(reads.my_clan, world.users["inv"])
    assert mine["clan"] is None and [(i["kind"], i["clan"]["tag"]) for i in mine["invitations"]] == [("invite", "ALP")]
    async with world.sessions() as s:
        assert await s.scalar(select(ClanMember.role).where(ClanMember.user_id == world.users["lea"])) == "leader"


async def test_the_list_pages_by_twenty_most_players_first(world: World) -> None:
    async with world.sessions() as s, s.begin():
        users = [User(name=f"f{i:02}", name_key=f"f{i:02}", password_hash="x") for i in range(20)]
        s.add_all(users)
        await s.flush()
        founders = [u.id for u in users]
    for i, uid in enumerate(founders):
        await world.do(service.found, uid, name=f"Clan {i:02}", tag=f"C{i:02}", region="SK-PV", colour="#010203")
    first, second = await world.do(reads.list_clans, page=1), await world.do(reads.list_clans, page=2)
    assert (first["total"], first["pages"], len(first["clans"]), len(second["clans"])) == (22, 2, 20, 2)
    # ALP (5 players) first; then BET and the new clans (1 player each) by name
    assert first["clans"][0]["tag"] == "ALP" and first["clans"][1]["tag"] == "BET"
    assert [c["tag"] for c in second["clans"]] == ["C18", "C19"]
    by_region = await world.do(reads.list_clans, region="SK-PV", page=1)
    assert by_region["total"] == 20 and by_region["pages"] == 1
