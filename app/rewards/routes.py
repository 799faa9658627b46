"""Rewards routes under ``/api/rewards`` (issue 13, item 6; thin: :mod:`app.rewards.service`
decides). The page is ``/rewards`` (:mod:`app.web.rewards`).

=================================  ==========================================================
``GET /api/rewards``               the catalogue, your balance, what you own and show
                                   (administrators: inactive rewards too)
``POST /api/rewards/{code}/buy``   buy a reward with points
``POST /api/users/me/equipped``    ``{"kind", "code" | null}``: show an owned reward (or none)
``POST /api/rewards``              ``{"code", "kind", "cost"}``: add a reward (administrators), 201
``PATCH /api/rewards/{code}``      ``{"cost"?, "active"?}``: change or take off sale (administrators)
=================================  ==========================================================
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from app.api.openapi import errors
from app.rewards import service
from app.rewards.models import CODE_MAX, CODE_PATTERN
from app.rewards.schemas import EquipIn, RewardIn, RewardUpdate
from app.users.deps import AdminUser, CurrentUser, OptionalUser, SessionDep

router = APIRouter(prefix="/api/rewards", tags=["rewards"])
#: the routes outside ``/api/rewards/{code}``'s space (a reward could be called "equip")
outside_router = APIRouter(prefix="/api", tags=["rewards"])

CodePath = Annotated[str, Path(min_length=2, max_length=CODE_MAX, pattern=CODE_PATTERN)]


@router.get("", openapi_extra=errors())
async def list_rewards(session: SessionDep, user: OptionalUser) -> dict[str, Any]:
    """``{"rewards": [{"code", "kind", "cost", "active", "owned", "equipped"}], "balance": int |
    null, "equipped": {kind: code}}``: the rewards for sale (inactive ones too for an
    administrator) and, when logged in, your balance and rewards."""
    everything = bool(user and user.is_admin)
    return await service.catalogue(session, user.id if user else None, everything=everything)


@outside_router.post("/users/me/equipped", openapi_extra=errors("not_found", "conflict"))
async def equip(body: EquipIn, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Show a reward you own as your title, emblem, board theme or card back (``code`` null: none
    of that kind): ``{"equipped": {kind: code}}``. 409 ``conflict`` ``not_owned``, ``wrong_kind``."""
    return await service.equip(session, user.id, body.kind, body.code)


@router.post("/{code}/buy", openapi_extra=errors("not_found", "conflict"))
async def buy(code: CodePath, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Buy a reward at its cost: ``{"reward", "price", "balance"}``. 409 ``conflict``:
    ``insufficient_points`` (``balance``, ``cost``), ``already_owned``, ``not_for_sale``."""
    return await service.buy(session, user.id, code)


@router.post("", status_code=201, openapi_extra=errors("forbidden", "name_taken"))
async def create_reward(body: RewardIn, session: SessionDep, admin: AdminUser) -> dict[str, Any]:
    """Add a reward to the catalogue (administrators): ``{"code", "kind", "cost", "active"}``.
    409 ``name_taken`` (``field`` ``code``)."""
    return await service.create(session, admin.id, code=body.code, kind=body.kind, cost=body.cost)


@router.patch("/{code}", openapi_extra=errors("forbidden", "not_found"))
async def update_reward(code: CodePath, body: RewardUpdate, session: SessionDep, admin: AdminUser) -> dict[str, Any]:
    """Change a reward's cost or put it on or off sale (administrators)."""
    return await service.update(session, admin.id, code, cost=body.cost, active=body.active)
