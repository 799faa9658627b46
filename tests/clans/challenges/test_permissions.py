"""Who may do what to a challenge (issue 13, item 3), every operation against every kind of actor,
on SQLite and PostgreSQL: a player in no clan (``out``), the leader of the other clan, a member,
an officer, the leader. A refused operation answers its code and reason and changes nothing (every
challenge, board, history, clan points and player points row compared); an allowed one does what
it says and writes a history row in both clans.

Roles are checked through the clans service's ``_role_in``. An administrator (``users.is_admin``)
moderates a clan as an officer would (docs/clans.md), but a challenge is the clan's own play:
outside a clan an administrator may do none of these (``test_an_administrator_plays_no_clan_s_challenges``).
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from app.clans.challenges import service
from app.clans.challenges.models import ChallengeStatus, Side
from app.errors import DomainError
from app.users.models import User
from tests.clans.challenges.conftest import Arena

OK = None
NOT_MEMBER = ("forbidden", "not_member")
NOT_OFFICER = ("forbidden", "not_officer")

#: operation -> {actor: expected (None: allowed; else (code, reason))}; the challenge is ALP's
#: (leader lea, officer off, member mem) against BET (leader oth, officer bof, member bme)
MATRIX: dict[str, dict[str, Any]] = {
    "propose": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK},
    "accept": {"out": NOT_MEMBER, "lea": NOT_MEMBER, "bme": NOT_OFFICER, "bof": OK, "oth": OK},
    "decline": {"out": NOT_MEMBER, "lea": NOT_MEMBER, "bme": NOT_OFFICER, "bof": OK, "oth": OK},
    "withdraw": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK},
    "name_challenger": {"out": NOT_MEMBER, "oth": NOT_MEMBER, "mem": NOT_OFFICER, "off": OK, "lea": OK},
    "name_challenged": {"out": NOT_MEMBER, "lea": NOT_MEMBER, "bme": NOT_OFFICER, "bof": OK, "oth": OK},
    "sign_up": {"out": NOT_MEMBER, "mem": OK, "off": OK, "lea": OK, "bme": OK, "oth": OK},
}
CASES = [(op, actor) for op, row in MATRIX.items() for actor in row]


async def _setup(a: Arena, op: str) -> int | None:
    if op == "propose":
        return None
    cid = await a.propose()
    if op not in ("accept", "decline", "withdraw"):
        await a.accept(cid)
    return cid


async def _run(a: Arena, op: str, actor: int, cid: int | None) -> Any:
    now = a.clock.now()
    match op:
        case "propose":
            return await a.propose(actor=next(n for n, i in a.users.items() if i == actor))
        case "accept" | "decline":
            return await a.w.do(service.answer, actor, cid, accept=op == "accept", now=now)
        case "withdraw":
            return await a.w.do(service.withdraw, actor, cid, now=now)
        case "name_challenger":
            return await a.w.do(service.name_player, actor, cid, 1, side=Side.CHALLENGER, player="tgt", now=now)
        case "name_challenged":
            return await a.w.do(service.name_player, actor, cid, 1, side=Side.CHALLENGED, player="bme", now=now)
        case "sign_up":
            return await a.w.do(service.sign_up, actor, cid, 2, now=now)
    raise AssertionError(op)


async def _check_done(a: Arena, op: str, actor: str, cid: int | None, before: dict[str, Any]) -> None:
    after = await a.effects()
    assert after["history"] == before["history"] + 2  # one row in each clan
    if op == "propose":
        assert len(after["challenges"]) == len(before["challenges"]) + 1
        assert after["challenges"][-1][1] == ChallengeStatus.PROPOSED
        return
    assert cid is not None
    ch = await a.challenge(cid)
    match op:
        case "accept":
            assert ch.status == ChallengeStatus.ACCEPTED
        case "decline":
            assert ch.status == ChallengeStatus.DECLINED
        case "withdraw":
            assert ch.status == ChallengeStatus.WITHDRAWN
        case "name_challenger":
            assert (await a.board(cid, 1)).challenger_player_id == a.users["tgt"]
        case "name_challenged":
            assert (await a.board(cid, 1)).challenged_player_id == a.users["bme"]
        case "sign_up":
            row = await a.board(cid, 2)
            assert a.users[actor] in (row.challenger_player_id, row.challenged_player_id)


@pytest.mark.parametrize(("op", "actor"), CASES, ids=[f"{op}-{actor}" for op, actor in CASES])
async def test_permission_matrix(arena: Arena, op: str, actor: str) -> None:
    cid = await _setup(arena, op)
    expected = MATRIX[op][actor]
    before = await arena.effects()
    if expected is OK:
        await _run(arena, op, arena.users[actor], cid)
        await _check_done(arena, op, actor, cid, before)
    else:
        with pytest.raises(DomainError) as caught:
            await _run(arena, op, arena.users[actor], cid)
        assert (caught.value.code, caught.value.params.get("reason")) == expected
        assert await arena.effects() == before


def test_every_operation_is_in_the_matrix_for_every_kind_of_actor() -> None:
    """Each row names a player in no clan, a leader of the wrong clan, a member, an officer and a leader."""
    for op, row in MATRIX.items():
        assert "out" in row and len(row) >= 5 and any(v is None for v in row.values()), op


@pytest.mark.parametrize("op", list(MATRIX))
async def test_an_administrator_plays_no_clan_s_challenges(arena: Arena, op: str) -> None:
    """An administrator in no clan is refused every challenge operation, as any player in no clan
    is, and nothing changes: moderation (docs/clans.md) covers a clan's details and members, not
    its play."""
    async with arena.w.sessions() as s, s.begin():
        await s.execute(update(User).where(User.id == arena.users["out"]).values(is_admin=True))
    cid = await _setup(arena, op)
    before = await arena.effects()
    with pytest.raises(DomainError) as caught:
        await _run(arena, op, arena.users["out"], cid)
    assert (caught.value.code, caught.value.params.get("reason")) == NOT_MEMBER
    assert await arena.effects() == before
