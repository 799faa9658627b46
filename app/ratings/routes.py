"""Ladder, profile and match-rating routes under ``/api`` (thin: :mod:`app.ratings.reads` decides).

=====================================  ==============================================================
``GET /api/ladders``                   the rating pools: ``{"pools": [{"key", "game", "part"}]}``
``GET /api/ladders/{pool}?page=N``     one page (``&find_me=true``: the viewer's page) of a pool's ladder (:func:`~app.ratings.reads.ladder`)
``GET /api/ladders/{pool}/season``    one page of a pool's season standings (``?season=2026-11&page=N&find_me=true``; :func:`~app.ratings.reads.season_standings`)
``GET /api/users/{name}/profile``      a player's profile (:func:`~app.ratings.reads.profile`)
``GET /api/matches/{id}/ratings``      a match's rating changes (:func:`~app.ratings.reads.match_ratings`)
=====================================  ==============================================================

Errors: 404 ``not_found`` (``params``: ``pool``, ``name`` or ``match_id``), 422 ``validation_error``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from app.api.openapi import errors
from app.matches.schemas import MatchId
from app.ratings import reads
from app.ratings.pools import POOL_MAX, all_pools
from app.users.deps import OptionalUser, SessionDep
from app.users.models import NAME_MAX

router = APIRouter(prefix="/api", tags=["ratings"])

PoolKey = Annotated[str, Path(max_length=POOL_MAX)]
PlayerName = Annotated[str, Path(min_length=1, max_length=NAME_MAX)]
Page = Annotated[int, Query(ge=1, le=100_000)]
#: a season: a UTC month, ``2026-11``
Season = Annotated[str | None, Query(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")]


def _now(request: Request) -> Any:
    return request.app.state.matches.clock.now()


@router.get("/ladders", openapi_extra=errors())
async def list_pools() -> dict[str, Any]:
    """Every rating pool: ``{"pools": [{"key", "game", "part"}]}``."""
    return {"pools": [reads.pool_json(p) for p in all_pools()]}


@router.get("/ladders/{pool}", openapi_extra=errors("not_found"))
async def get_ladder(
    pool: PoolKey, request: Request, session: SessionDep, user: OptionalUser, page: Page = 1, find_me: bool = False
) -> dict[str, Any]:
    """One page (50 rows) of a pool's ladder, best first, with the viewer's own row and rank;
    ``find_me`` gives the page the viewer is on."""
    viewer = user.id if user else None
    return await reads.ladder(session, pool, page, viewer, _now(request), find_viewer=find_me)


@router.get("/ladders/{pool}/season", openapi_extra=errors("not_found"))
async def get_season(
    pool: PoolKey,
    request: Request,
    session: SessionDep,
    user: OptionalUser,
    season: Season = None,
    page: Page = 1,
    find_me: bool = False,
) -> dict[str, Any]:
    """One page (50 rows) of a pool's season standings by ladder points (``season``: a month,
    the current one by default), with the viewer's row and rank; ``find_me`` gives their page."""
    viewer = user.id if user else None
    return await reads.season_standings(session, pool, season, page, viewer, _now(request), find_viewer=find_me)


@router.get("/users/{name}/profile", openapi_extra=errors("not_found"))
async def get_profile(name: PlayerName, request: Request, session: SessionDep, user: OptionalUser) -> dict[str, Any]:
    """A player's ratings with history, records, recent matches and head-to-head with the viewer."""
    return await reads.profile(session, name, user.id if user else None, _now(request))


@router.get("/matches/{match_id}/ratings", openapi_extra=errors("not_found"))
async def get_match_ratings(match_id: MatchId, session: SessionDep) -> dict[str, Any]:
    """The rating change of each seat of a finished rated match (``applied`` false until then)."""
    return await reads.match_ratings(session, match_id)
