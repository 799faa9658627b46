"""Clan routes under ``/api/clans`` (thin: :mod:`app.clans.service` decides, :mod:`app.clans.reads`
reads). Changes need a login (401 ``unauthorized``) and answer with the clan page's data
(:func:`app.clans.reads.clan_page`) as the actor now sees it.

================================================  ==================================================
``GET /api/regions``                              ``{"regions": [{"code", "country", "name"}]}``
``GET /api/clans?q=&region=&page=N``              one page of clans (:func:`~app.clans.reads.list_clans`)
``GET /api/users/me/clan``                        your clan, role and pending invitations
``POST /api/clans``                               found a clan (:class:`~app.clans.schemas.ClanIn`), 201
``GET /api/clans/{tag}``                          the clan page's data
``PATCH /api/clans/{tag}``                        change description, colour, region
``POST /api/clans/{tag}/invitations``             invite a player (``{"name"}``), 201
``POST /api/clans/{tag}/requests``                ask to join, 201
``POST /api/clans/{tag}/invitations/{id}/accept``   accept an invitation or a request
``POST /api/clans/{tag}/invitations/{id}/decline``  decline or withdraw one
``POST /api/clans/{tag}/leave``                   leave (the last player's leaving disbands)
``POST /api/clans/{tag}/members/{user_id}/remove``  remove a player
``POST /api/clans/{tag}/members/{user_id}/role``    ``{"role": "officer" | "member" | "leader"}``
``POST /api/clans/{tag}/disband``                 disband (the leader)
================================================  ==================================================

Errors: as :mod:`app.clans.service` lists them; 422 ``validation_error`` for a malformed body,
path or query.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request

from app.api.openapi import errors
from app.clans import reads, service
from app.clans.models import CLAN_TAG_MAX, CLAN_TAG_MIN, Role
from app.clans.regions import REGION_MAX, region_codes
from app.clans.schemas import TAG_PATTERN, ClanIn, ClanUpdate, InviteIn, RoleIn
from app.matches.schemas import MAX_INT
from app.users.deps import CurrentUser, OptionalUser, SessionDep

router = APIRouter(prefix="/api/clans", tags=["clans"])
#: the routes outside ``/api/clans/{tag}``'s space (a tag could be "me")
outside_router = APIRouter(prefix="/api", tags=["clans"])

TagPath = Annotated[str, Path(min_length=CLAN_TAG_MIN, max_length=CLAN_TAG_MAX, pattern=TAG_PATTERN)]
IdPath = Annotated[int, Path(ge=1, le=MAX_INT)]
Page = Annotated[int, Query(ge=1, le=100_000)]


def _limit(request: Request) -> int:
    return int(request.app.state.settings.clan_max_members)


@outside_router.get("/regions", openapi_extra=errors(database=False))
async def list_regions() -> dict[str, Any]:
    """Every region a clan may belong to: ``{"regions": [{"code", "country", "name"}]}``."""
    return {"regions": reads.regions_json()}


@router.get("", openapi_extra=errors())
async def list_clans(
    session: SessionDep,
    q: Annotated[str, Query(max_length=40)] = "",
    region: Annotated[
        str | None, Query(max_length=REGION_MAX, json_schema_extra={"enum": sorted(region_codes())})
    ] = None,
    page: Page = 1,
) -> dict[str, Any]:
    """Clans whose name or tag contains ``q``, in ``region`` (a code), 20 a page, most players first."""
    return await reads.list_clans(session, q=q, region=region or None, page=page)


@outside_router.get("/users/me/clan", openapi_extra=errors())
async def my_clan(session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Your clan (or null), your role, and your pending invitations and join requests."""
    return await reads.my_clan(session, user.id)


@router.post("", status_code=201, openapi_extra=errors("name_taken", "conflict"))
async def found_clan(body: ClanIn, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Found a clan; you are its leader. 409 ``name_taken`` (``field``), ``conflict`` ``already_in_clan``."""
    clan = await service.found(
        session,
        user.id,
        name=body.name,
        tag=body.tag,
        region=body.region,
        colour=body.colour,
        description=body.description,
    )
    return await reads.clan_page(session, clan.tag, user.id)


@router.get("/{tag}", openapi_extra=errors("not_found"))
async def get_clan(tag: TagPath, session: SessionDep, user: OptionalUser) -> dict[str, Any]:
    """The clan: members with roles, history, pending invitations (officers), what you may do."""
    return await reads.clan_page(session, tag, user.id if user else None)


@router.patch("/{tag}", openapi_extra=errors("not_found", "forbidden"))
async def update_clan(tag: TagPath, body: ClanUpdate, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Change the description, emblem colour or region (the leader or an officer)."""
    await service.update_clan(
        session, user.id, tag, description=body.description, colour=body.colour, region=body.region
    )
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/invitations", status_code=201, openapi_extra=errors("not_found", "forbidden", "conflict"))
async def invite(
    tag: TagPath, body: InviteIn, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Invite a player by name (the leader or an officer)."""
    await service.invite(session, user.id, tag, body.name, limit=_limit(request))
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/requests", status_code=201, openapi_extra=errors("not_found", "forbidden", "conflict"))
async def request_to_join(tag: TagPath, request: Request, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Ask to join the clan."""
    await service.request_to_join(session, user.id, tag, limit=_limit(request))
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/invitations/{invitation_id}/accept", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def accept(
    tag: TagPath, invitation_id: IdPath, request: Request, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Accept an invitation (the invited player) or a join request (the leader or an officer)."""
    await service.accept(session, user.id, tag, invitation_id, limit=_limit(request))
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/invitations/{invitation_id}/decline", openapi_extra=errors("not_found", "forbidden"))
async def decline(tag: TagPath, invitation_id: IdPath, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Decline an invitation or a request, or withdraw your own."""
    await service.decline(session, user.id, tag, invitation_id)
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/leave", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def leave(tag: TagPath, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Leave the clan: ``{"disbanded": bool}`` (the last player's leaving disbands it)."""
    return {"disbanded": await service.leave(session, user.id, tag)}


@router.post("/{tag}/members/{user_id}/remove", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def remove(tag: TagPath, user_id: IdPath, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Remove a player (the leader: officers and members; an officer: members)."""
    await service.remove(session, user.id, tag, user_id)
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/members/{user_id}/role", openapi_extra=errors("not_found", "forbidden", "conflict"))
async def set_role(
    tag: TagPath, user_id: IdPath, body: RoleIn, session: SessionDep, user: CurrentUser
) -> dict[str, Any]:
    """Promote to officer, demote to member, or hand the leadership over (the leader)."""
    await service.set_role(session, user.id, tag, user_id, Role(body.role))
    return await reads.clan_page(session, tag, user.id)


@router.post("/{tag}/disband", openapi_extra=errors("not_found", "forbidden"))
async def disband(tag: TagPath, session: SessionDep, user: CurrentUser) -> dict[str, Any]:
    """Disband the clan (the leader): ``{"disbanded": true}``."""
    await service.disband(session, user.id, tag)
    return {"disbanded": True}
