"""``GET /api/users/{name}/points``: a player's rank, balance, latest ledger lines and rewards
(:func:`app.points.reads.player_points`), the JSON twin of the points part of ``/users/{name}``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from app.api.openapi import errors
from app.points.reads import player_points
from app.users.deps import SessionDep
from app.users.models import NAME_MAX

router = APIRouter(prefix="/api", tags=["points"])


@router.get("/users/{name}/points", openapi_extra=errors("not_found"))
async def get_points(
    name: Annotated[str, Path(min_length=1, max_length=NAME_MAX)], session: SessionDep
) -> dict[str, Any]:
    """``{"user": {"id", "name", "rank", "is_bot"}, "balance", "earned", "ledger": [{"delta",
    "reason", "params", "balance_after", "at"}], "owned": [reward], "equipped": {kind: code}}``."""
    return await player_points(session, name)
