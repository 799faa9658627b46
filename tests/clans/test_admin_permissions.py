"""What an administrator may do in a clan (issue 13, items 2 and 5; app/clans/service.py,
"MODERATION"), every operation, on SQLite and PostgreSQL, in the style of
``tests/clans/test_permissions.py`` (which covers the other kinds of actor): an administrator in
no clan (``adm``) and one who is a member of the clan (``mad``). An administrator moderates as an
officer would (details, removing members, declining or withdrawing pending requests and
invitations) without joining; recruiting and the leader's operations stay with the clan's
players. A refusal changes nothing; an allowed operation does what it says and adds its history
row, with the administrator as its actor."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select, update

from app.clans import service
from app.clans.models import ClanHistory
from app.errors import DomainError
from app.users.models import User
from tests.clans.conftest import LIMIT, World, build_world
from tests.clans.test_permissions import IN_CLAN, NOT_LEADER, NOT_MEMBER, NOT_OFFICER, OK, _check_done, _run

RANK = ("forbidden", "rank")
NOT_INVITED = ("forbidden", "not_invited")

#: operation -> {actor: expected}; every operation of tests/clans/test_permissions.py's MATRIX
MATRIX: dict[str, dict[str, Any]] = {
    "found": {"adm": OK, "mad": IN_CLAN},
    "update": {"adm": OK, "mad": OK},
    "invite": {"adm": NOT_MEMBER, "mad": NOT_OFFICER},
    "request": {"adm": OK, "mad": IN_CLAN},
    "accept_request": {"adm": NOT_MEMBER, "mad": NOT_OFFICER},
    "decline_request": {"adm": OK, "mad": OK},
    "accept_invite": {"adm": NOT_INVITED, "mad": NOT_INVITED},
    "decline_invite": {"adm": OK, "mad": OK},
    "leave": {"adm": NOT_MEMBER, "mad": OK},
    "remove_member": {"adm": OK, "mad": OK},
    "remove_officer": {"adm": RANK, "mad": RANK},
    "remove_leader": {"adm": RANK, "mad": RANK},
    "promote": {"adm": NOT_MEMBER, "mad": NOT_LEADER},
    "demote": {"adm": NOT_MEMBER, "mad": NOT_LEADER},
    "hand_over": {"adm": NOT_MEMBER, "mad": NOT_LEADER},
    "disband": {"adm": NOT_MEMBER, "mad": NOT_LEADER},
}
CASES = [(op, actor) for op, row in MATRIX.items() for actor in row]


@pytest.fixture
async def world(db_url) -> AsyncIterator[World]:
    """The clans world, with two administrators: ``adm`` (in no clan) and ``mad`` (a member of ALP)."""
    w = await build_world(db_url)
    async with w.sessions() as s, s.begin():
        admins = [User(name=n, name_key=n, password_hash="x", is_admin=True) for n in ("adm", "mad")]
        s.add_all(admins)
        await s.flush()
        w.users.update({u.name: u.id for u in admins})
    invitation = await w.do(service.invite, w.users["lea"], "ALP", "mad", limit=LIMIT)
    await w.do(service.accept, w.users["mad"], "ALP", invitation.id, limit=LIMIT)
    assert await w.role("mad") == ("ALP", "member")
    yield w
    for engine in w.engines:
        await engine.dispose()


@pytest.mark.parametrize(("op", "actor"), CASES, ids=[f"{op}-{actor}" for op, actor in CASES])
async def test_administrator_permission_matrix(world: World, op: str, actor: str) -> None:
    expected = MATRIX[op][actor]
    before = await world.state()
    if expected is OK:
        await _run(world, op, world.users[actor])
        after = await world.state()
        assert after["history"] > before["history"]
        await _check_done(world, op, actor)
        async with world.sessions() as s:
            last = await s.scalar(select(ClanHistory.actor_id).order_by(ClanHistory.id.desc()).limit(1))
        assert last == world.users[actor]  # the history names the administrator who did it
        assert await world.role("adm") in ((None, None), ("GAM", "leader"))  # moderating joins nobody
        for clan in after["clans"]:
            assert clan[7] == len([m for m in after["members"] if m[1] == clan[0]])
    else:
        with pytest.raises(DomainError) as caught:
            await _run(world, op, world.users[actor])
        assert (caught.value.code, caught.value.params.get("reason")) == expected
        assert await world.state() == before


async def test_an_administrator_who_loses_the_right_moderates_no_more(world: World) -> None:
    async with world.sessions() as s, s.begin():
        await s.execute(update(User).where(User.id == world.users["adm"]).values(is_admin=False))
    before = await world.state()
    for op in ("update", "remove_member", "decline_request"):
        with pytest.raises(DomainError) as caught:
            await _run(world, op, world.users["adm"])
        assert (caught.value.code, caught.value.params.get("reason")) == NOT_MEMBER
    assert await world.state() == before


def test_the_matrix_covers_every_operation() -> None:
    from tests.clans.test_permissions import MATRIX as PLAYERS

    assert set(MATRIX) == set(PLAYERS)
    assert {"update_clan", "remove", "decline"} == service.MODERATION
