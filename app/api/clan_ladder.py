"""Clan ladder and clan wall routes (issue 13, items 4 and 7), thin: :mod:`app.clans.ladder` and
:mod:`app.clans.wall` decide.

=================================================  ================================================
``GET /api/clan-ladder?month=&page=``              every region's clans together
                                                   (:func:`~app.clans.ladder.standings`)
``GET /api/clan-ladder/{region}?month=&page=``     one region's ladder, with its trophies
``GET /api/clans/{tag}/ladder``                    the clan's score this month, place in its
                                                   region, trophy cabinet
``GET /api/clans/{tag}/wall``                      the clan wall (:func:`~app.clans.wall.wall`)
``POST /api/clans/{tag}/wall``                     post (``{"text"}``; the clan's players), 201
``POST /api/clans/{tag}/wall/{post_id}/remove``    remove a post (its author, an officer, the
                                                   leader, an administrator)
=================================================  ================================================

A wall change answers with the wall as the actor now sees it. Errors: as the modules list them;
422 ``validation_error`` for a malformed body, path or query (a month is ``YYYY-MM``).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from sqlalchemy import select

from app.api.openapi import errors
from app.clans import ladder, wall
from app.clans.models import Clan
from app.clans.months import MONTH_PATTERN
from app.clans.regions import REGION_MAX, region_codes
from app.clans.routes import IdPath, Page, TagPath
from app.clans.schemas import WallPostIn
from app.errors import DomainError, ErrorCode
from app.ratelimit import RateLimiter
from app.users.deps import CurrentUser, OptionalUser, SessionDep

router = APIRouter(tags=["clans"])

MonthQuery = Annotated[str | None, Query(pattern=MONTH_PATTERN, min_length=7, max_length=7)]
RegionPath = Annotated[str, Path(max_length=REGION_MAX, json_schema_extra={"enum": sorted(region_codes())})]


def wall_limiter(request: Request) -> RateLimiter:
    """The app's limiter of wall posts (``settings.clan_wall_rate_limit``), made on first use."""
    limiter = getattr(request.app.state, "clan_wall_limiter", None)
    if limiter is None:
        settings = request.app.state.settings
        limiter = RateLimiter.from_settings(settings, settings.clan_wall_rate_limit, namespace="clan_wall")
        request.app.state.clan_wall_limiter = limiter
    return limiter


async def _clan_id(session: Any, tag: str) -> int:
    clan_id = await session.scalar(select(Clan.id).where(Clan.tag_key == tag.lower()))
    if clan_id is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no clan {tag[:20]!r}", params={"tag": tag[:20]})
    return int(clan_id)


@router.get("/api/clan-ladder", openapi_extra=errors())
async def overall_ladder(session: SessionDep, month: MonthQuery = None, page: Page = 1) -> dict[str, Any]:
    """The clans of every region by their score in ``month`` (default: this month, UTC), 50 a
    page, best first; each row's ``trophy`` is the place it won in its region at that month's close."""
    return await ladder.standings(session, month, None, page)


@router.get("/api/clan-ladder/{region}", openapi_extra=errors())
async def region_ladder(
    region: RegionPath, session: SessionDep, month: MonthQuery = None, page: Page = 1
) -> dict[str, Any]:
    """One region's clans by their score in ``month`` (default: this month), with the trophies its
    close awarded (``trophies``; empty until the month is closed)."""
    return await ladder.standings(session, month, region, page)


@router.get("/api/clans/{tag}/ladder", openapi_extra=errors("not_found"))
async def clan_ladder(tag: TagPath, session: SessionDep) -> dict[str, Any]:
    """The clan's ladder: ``{"standing": {"month", "region", "score", "clan_points",
    "member_points", "place"}, "trophies": [trophy]}`` (this month; every trophy, latest first)."""
    clan_id = await _clan_id(session, tag)
    return {
        "standing": await ladder.clan_standing(session, clan_id),
        "trophies": await ladder.clan_trophies(session, clan_id),
    }


@router.get("/api/clans/{tag}/wall", openapi_extra=errors("not_found"))
async def get_wall(tag: TagPath, session: SessionDep, user: OptionalUser) -> dict[str, Any]:
    """The clan wall: ``{"posts": [{"id", "text", "author", "at", "can_remove"}], "can_post"}``,
    newest first."""
    return await wall.wall(session, await _clan_id(session, tag), user.id if user else None)


@router.post("/api/clans/{tag}/wall", status_code=201, openapi_extra=errors("not_found", "forbidden", "rate_limited"))
async def post_on_wall(
    tag: TagPath, body: WallPostIn, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Post on the clan wall (the clan's players; ``CLAN_WALL_RATE_LIMIT`` posts per player)."""
    entry = await wall.post(session, user.id, tag, body.text, limiter=wall_limiter(request))
    return await wall.wall(session, entry.clan_id, user.id)


@router.post("/api/clans/{tag}/wall/{post_id}/remove", openapi_extra=errors("not_found", "forbidden"))
async def remove_from_wall(tag: TagPath, post_id: IdPath, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Remove a post: its author, the clan's leader or an officer, or an administrator."""
    await wall.remove(session, user.id, tag, post_id)
    return await wall.wall(session, await _clan_id(session, tag), user.id)
