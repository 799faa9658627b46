"""Who may do what to a clan (issue 13, item 2), every operation against every kind of actor, on
SQLite and PostgreSQL: a player in no clan (``out``), the leader of another clan (``oth``: nobody
acts for a clan they are not in), a member, an officer, the leader, and where it matters the
player an invitation or request is for. A refused operation answers its code and reason and
changes nothing (every clan row, membership, pending invitation and history row compared); an
allowed one does what it says and adds its history row.

Nobody but an administrator may act for a clan from outside it; what an administrator may do is
in ``tests/clans/test_admin_permissions.py``.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.clans import service
from app.clans.models import Role
from app.errors import DomainError
from tests.clans.conftest import LIMIT, World

OK = None
NOT_MEMBER = ("forbidden", "not_member")
NOT_OFFICER = ("forbidden", "not_officer")
NOT_LEADER = ("forbidden", "not_leader")
IN_CLAN = ("conflict", "already_in_clan")

#: operation -> {actor: expected (None: allowed; else (code, reason))}
MATRIX: dict[str, dict[str, Any]] = {
    "found": {"out": OK, "oth": IN_CLAN, "mem": IN_CLAN, "off": IN_CLAN, "lea": IN_CLAN},
    "update": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK},
    "invite": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK},
    "request": {"out": OK, "oth": IN_CLAN, "mem": IN_CLAN, "off": IN_CLAN, "lea": IN_CLAN},
    "accept_request": {
        "out": NOT_MEMBER,
        "oth": NOT_MEMBER,
        "mem": NOT_OFFICER,
        "off": OK,
        "lea": OK,
        "new": NOT_MEMBER,
    },
    "decline_request": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK, "new": OK},
    "accept_invite": {
        "out": ("forbidden", "not_invited"),
        "oth": ("forbidden", "not_invited"),
        "mem": ("forbidden", "not_invited"),
        "off": ("forbidden", "not_invited"),
        "lea": ("forbidden", "not_invited"),
        "inv": OK,
    },
    "decline_invite": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK, "inv": OK},
    "leave": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": OK, "off": OK, "lea": ("conflict", "leader_must_hand_over")},
    "remove_member": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK},
    "remove_officer": {
        "out": NOT_MEMBER,
        "oth": NOT_MEMBER,
        "mem": NOT_OFFICER,
        "off": ("forbidden", "rank"),
        "lea": OK,
    },
    "remove_leader": {
        "out": NOT_MEMBER,
        "oth": NOT_MEMBER,
        "mem": NOT_OFFICER,
        "off": ("forbidden", "rank"),
        "lea": ("conflict", "self"),
    },
    "promote": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_LEADER, "off": NOT_LEADER, "lea": OK},
    "demote": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_LEADER, "off": NOT_LEADER, "lea": OK},
    "hand_over": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_LEADER, "off": NOT_LEADER, "lea": OK},
    "disband": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_LEADER, "off": NOT_LEADER, "lea": OK},
}

CASES = [(op, actor) for op, row in MATRIX.items() for actor in row]


async def _run(w: World, op: str, actor: int) -> Any:
    u = w.users
    match op:
        case "found":
            return await w.do(service.found, actor, name="Gamma", tag="GAM", region="other", colour="#123456")
        case "update":
            return await w.do(service.update_clan, actor, "ALP", description="Brno <b>rules</b>", region="CZ-20")
        case "invite":
            return await w.do(service.invite, actor, "ALP", "FRE", limit=LIMIT)
        case "request":
            return await w.do(service.request_to_join, actor, "ALP", limit=LIMIT)
        case "accept_request":
            return await w.do(service.accept, actor, "ALP", w.request_id, limit=LIMIT)
        case "decline_request":
            return await w.do(service.decline, actor, "ALP", w.request_id)
        case "accept_invite":
            return await w.do(service.accept, actor, "ALP", w.invite_id, limit=LIMIT)
        case "decline_invite":
            return await w.do(service.decline, actor, "ALP", w.invite_id)
        case "leave":
            return await w.do(service.leave, actor, "ALP")
        case "remove_member":
            return await w.do(service.remove, actor, "ALP", u["tgt"])
        case "remove_officer":
            return await w.do(service.remove, actor, "ALP", u["tof"])
        case "remove_leader":
            return await w.do(service.remove, actor, "ALP", u["lea"])
        case "promote":
            return await w.do(service.set_role, actor, "ALP", u["tgt"], Role.OFFICER)
        case "demote":
            return await w.do(service.set_role, actor, "ALP", u["tof"], Role.MEMBER)
        case "hand_over":
            return await w.do(service.set_role, actor, "ALP", u["tgt"], Role.LEADER)
        case "disband":
            return await w.do(service.disband, actor, "ALP")
    raise AssertionError(op)


async def _check_done(w: World, op: str, name: str) -> None:
    """What an allowed ``op`` by ``name`` must have done."""
    codes = await w.history_codes()
    match op:
        case "found":
            assert await w.role(name) == ("GAM", "leader")
            assert await w.history_codes("GAM") == ["founded"]
        case "update":
            assert codes[-1] == "updated"
            state = await w.state()
            alpha = next(c for c in state["clans"] if c[1] == "Alpha")
            assert alpha[4] == "CZ-20" and alpha[6] == "Brno <b>rules</b>"
        case "invite":
            assert codes[-1] == "invited"
            assert any(p[2] == w.users["fre"] and p[3] == "invite" for p in (await w.state())["pending"])
        case "request":
            assert codes[-1] == "requested"
            assert any(p[2] == w.users[name] and p[3] == "request" for p in (await w.state())["pending"])
        case "accept_request":
            assert await w.role("new") == ("ALP", "member") and codes[-1] == "joined"
        case "accept_invite":
            assert await w.role("inv") == ("ALP", "member") and codes[-1] == "joined"
        case "decline_request" | "decline_invite":
            own = name in ("new", "inv")
            assert codes[-1] == ("declined" if own == (op == "decline_invite") else "withdrawn")
            assert await w.role("new") == (None, None) and await w.role("inv") == (None, None)
            wanted = w.request_id if op == "decline_request" else w.invite_id
            assert wanted not in [p[0] for p in (await w.state())["pending"]]
        case "leave":
            assert await w.role(name) == (None, None) and codes[-1] == "left"
        case "remove_member":
            assert await w.role("tgt") == (None, None) and codes[-1] == "removed"
        case "remove_officer":
            assert await w.role("tof") == (None, None) and codes[-1] == "removed"
        case "promote":
            assert await w.role("tgt") == ("ALP", "officer") and codes[-1] == "promoted"
        case "demote":
            assert await w.role("tof") == ("ALP", "member") and codes[-1] == "demoted"
        case "hand_over":
            assert await w.role("tgt") == ("ALP", "leader") and await w.role("lea") == ("ALP", "officer")
            assert codes[-1] == "leader"
        case "disband":
            assert codes[-1] == "disbanded"
            state = await w.state()
            alpha = next(c for c in state["clans"] if c[1] == "Alpha")
            assert alpha[2] is None and alpha[3] is None and alpha[7] == 0 and alpha[8] is not None
            assert not [m for m in state["members"] if m[1] == alpha[0]]
            assert not [p for p in state["pending"] if p[1] == alpha[0]]
        case _:
            raise AssertionError(op)


@pytest.mark.parametrize(("op", "actor"), CASES, ids=[f"{op}-{actor}" for op, actor in CASES])
async def test_permission_matrix(world: World, op: str, actor: str) -> None:
    expected = MATRIX[op][actor]
    before = await world.state()
    if expected is OK:
        await _run(world, op, world.users[actor])
        after = await world.state()
        assert after["history"] > before["history"]
        await _check_done(world, op, actor)
        # the member count kept on the clan row equals its membership rows
        for clan in after["clans"]:
            assert clan[7] == len([m for m in after["members"] if m[1] == clan[0]])
    else:
        with pytest.raises(DomainError) as caught:
            await _run(world, op, world.users[actor])
        assert (caught.value.code, caught.value.params.get("reason")) == expected
        assert await world.state() == before


def test_every_operation_is_in_the_matrix_for_every_kind_of_actor() -> None:
    """Each row names the non-member, a leader of another clan, a member, an officer and the leader."""
    for op, row in MATRIX.items():
        assert {"out", "oth", "mem", "off", "lea"} <= set(row), op
