"""Administrators' routes under ``/api/admin`` (issue 13, item 5). Every route needs an
administrator (:data:`app.users.deps.AdminUser`: 401 ``unauthorized`` for nobody, 403 ``forbidden``
``not_admin`` for anyone else); the service checks again in its transaction
(:mod:`app.admin.service`).

=============================================  =============================================
``POST /api/admin/users/{name}/rank``          ``{"rank", "note"}``: grant or revoke a rank
``POST /api/admin/users/{name}/points``        ``{"delta", "note"}``: adjust points
``GET /api/admin/users/{name}/actions``        the audit: administrators' actions on the player
=============================================  =============================================

The rewards catalogue's administration is under ``/api/rewards`` (:mod:`app.rewards.routes`).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from app.admin import service
from app.admin.schemas import PointsIn, RankIn
from app.api.openapi import errors
from app.points.ranks import Rank, thresholds_from
from app.users.deps import AdminUser, SessionDep
from app.users.models import NAME_MAX

router = APIRouter(prefix="/api/admin", tags=["admin"])

PlayerName = Annotated[str, Path(min_length=1, max_length=NAME_MAX)]


@router.post("/users/{name}/rank", openapi_extra=errors("forbidden", "not_found"))
async def set_rank(name: PlayerName, body: RankIn, session: SessionDep, admin: AdminUser) -> dict[str, Any]:
    """Give a player a rank: a grant when higher than theirs, a revoke when lower; an audit row
    (``admin_actions`` with the note, ``rank_changes`` with ``by_user_id``) each time. Returns
    ``{"user": {"id", "name", "rank", "is_bot"}, "old", "new", "changed", "action_id"}``
    (``changed`` false, and nothing written, when they hold it already)."""
    return await service.set_player_rank(session, admin.id, name, Rank(body.rank), body.note)


@router.post("/users/{name}/points", openapi_extra=errors("forbidden", "not_found", "conflict"))
async def adjust_points(
    name: PlayerName, body: PointsIn, request: Request, session: SessionDep, admin: AdminUser
) -> dict[str, Any]:
    """Add (or take away) points: a ledger row of reason ``adjust`` whose ``ref`` is the audit
    row's id. Returns ``{"user", "delta", "balance", "action_id"}``. 409 ``conflict``
    ``insufficient_points`` when the balance would go below zero."""
    thresholds = thresholds_from(request.app.state.settings)
    return await service.adjust_points(session, admin.id, name, body.delta, body.note, thresholds=thresholds)


@router.get("/users/{name}/actions", openapi_extra=errors("forbidden", "not_found"))
async def list_actions(name: PlayerName, session: SessionDep, admin: AdminUser) -> dict[str, Any]:
    """The latest 50 administrators' actions on a player, with their notes: ``{"user", "actions":
    [{"id", "kind", "params", "note", "by", "at"}]}``."""
    return await service.actions_on(session, admin.id, name)
