"""Clan names as account names are (issue 15): stored NFKC-normalised, unique ignoring letter case,
and refused when they mix scripts to pass for another live clan's name; a disbanded clan gives its
name and skeleton up. On SQLite and PostgreSQL (the ``world`` of ``conftest.py``: ``Alpha`` and
``Beta`` exist; ``out`` and ``fre`` are in no clan)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.clans import service
from app.clans.models import Clan
from app.errors import DomainError, ErrorCode
from app.users.names import skeleton
from tests.clans.conftest import World


async def _found(w: World, who: str, name: str, tag: str) -> Clan:
    return await w.do(service.found, w.users[who], name=name, tag=tag, region="CZ-64", colour="#123456")


async def _refused(w: World, name: str, tag: str = "NEW", who: str = "out") -> dict:
    before = await w.state()
    with pytest.raises(DomainError) as caught:
        await _found(w, who, name, tag)
    assert caught.value.code == ErrorCode.NAME_TAKEN and caught.value.params["field"] == "name"
    assert await w.state() == before
    return caught.value.params


async def test_a_mixed_script_lookalike_of_a_clan_name_is_refused(world: World) -> None:
    params = await _refused(world, "\u0410lpha")  # Cyrillic А
    assert params == {"field": "name", "name": "\u0410lpha", "lookalike": "Alpha"}
    params = await _refused(world, "B\u0435ta", who="fre")  # Cyrillic е
    assert params["lookalike"] == "Beta"


async def test_case_and_width_variants_share_one_key(world: World) -> None:
    assert (await _refused(world, "ALPHA")) == {"field": "name", "name": "ALPHA"}
    clan = await _found(world, "out", "ｆｕｌｌ", "FUL")
    assert (clan.name, clan.name_key, clan.name_skeleton) == ("full", "full", skeleton("full"))
    await _found(world, "fre", "älpha", "UML")
    with pytest.raises(DomainError) as caught:
        await _found(world, "new", "ÄLPHA", "UM2")
    assert caught.value.code == ErrorCode.NAME_TAKEN and caught.value.params == {"field": "name", "name": "ÄLPHA"}


async def test_latin_lookalikes_may_both_exist(world: World) -> None:
    clan = await _found(world, "out", "A1pha", "ONE")
    assert clan.name == "A1pha"


async def test_a_disbanded_clan_gives_its_name_and_skeleton_up(world: World) -> None:
    await world.do(service.leave, world.users["oth"], "BET")
    async with world.sessions() as s:
        beta = await s.scalar(select(Clan).where(Clan.tag == "BET"))
        assert beta is not None and (beta.name_key, beta.name_skeleton) == (None, None)
    clan = await _found(world, "out", "B\u0435ta", "NEW")  # Cyrillic е, now that Beta is gone
    assert clan.name_skeleton == skeleton("Beta")
    await _refused(world, "Beta", "BE2", who="fre")  # and the all-Latin one is refused beside the mixed one
