"""The reads behind the clan pages and their JSON twins (issue 13, item 7: the clan list and the
clan page). Every function takes an open session and returns JSON-safe dicts (times as ISO 8601
strings, UTC; players as ``{"id", "name", "rank", "is_bot"}``; regions as codes, named by the pages)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.clans.models import Clan, ClanHistory, ClanInvitation, ClanMember, InvitationKind, Role
from app.clans.regions import all_regions
from app.clans.service import check_region
from app.errors import DomainError, ErrorCode
from app.users.models import User

#: clans per page of the list
PAGE_ROWS = 20
#: history rows on the clan page (the latest)
HISTORY_ROWS = 50
_ROLE_ORDER = {Role.LEADER: 0, Role.OFFICER: 1, Role.MEMBER: 2}


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def _player(user: User) -> dict[str, Any]:
    """A player as the clan pages show them: ``{"id", "name", "rank", "is_bot"}`` (the rank
    beside the name)."""
    return {"id": user.id, "name": user.name, "rank": user.rank, "is_bot": bool(user.is_bot)}


def regions_json() -> list[dict[str, str]]:
    """``[{"code", "country", "name"}]``: every region, in page order."""
    return [r.model_dump() for r in all_regions()]


def clan_json(clan: Clan) -> dict[str, Any]:
    """``{"id", "name", "tag", "region", "description", "colour", "members", "created_at"}``."""
    return {
        "id": clan.id,
        "name": clan.name,
        "tag": clan.tag,
        "region": clan.region,
        "description": clan.description,
        "colour": clan.colour,
        "members": clan.members,
        "created_at": _iso(clan.created_at),
    }


async def list_clans(session: AsyncSession, *, q: str = "", region: str | None = None, page: int = 1) -> dict[str, Any]:
    """One page of the clans that exist (not disbanded), most players first, then by name.

    :param q: part of a clan's name or tag, any case (empty: every clan).
    :param region: a region code, or None for every region.
    :param page: 1-based; past the end gives no rows.
    :returns: ``{"clans": [clan], "page", "pages", "per_page", "total", "q", "region"}``.
    :raises DomainError: ``validation_error`` (``field``: ``region``) for an unknown region.
    """
    where: list[ColumnElement[bool]] = [Clan.disbanded_at.is_(None)]
    if region:
        where.append(Clan.region == check_region(region))
    q = q.strip()
    if q:
        where.append(
            or_(Clan.name_key.contains(q.lower(), autoescape=True), Clan.tag_key.contains(q.lower(), autoescape=True))
        )
    total = int(await session.scalar(select(func.count()).select_from(Clan).where(*where)) or 0)
    stmt = (
        select(Clan)
        .where(*where)
        .order_by(Clan.members.desc(), Clan.name_key, Clan.id)
        .limit(PAGE_ROWS)
        .offset((page - 1) * PAGE_ROWS)
    )
    clans = [clan_json(c) for c in (await session.scalars(stmt))]
    pages = max(1, -(-total // PAGE_ROWS))
    return {
        "clans": clans,
        "page": page,
        "pages": pages,
        "per_page": PAGE_ROWS,
        "total": total,
        "q": q,
        "region": region,
    }


async def _viewer_clan(session: AsyncSession, viewer_id: int) -> tuple[ClanMember | None, Clan | None]:
    member = await session.scalar(select(ClanMember).where(ClanMember.user_id == viewer_id))
    clan = await session.get(Clan, member.clan_id) if member else None
    return member, clan


async def my_clan(session: AsyncSession, viewer_id: int) -> dict[str, Any]:
    """The viewer's clan and pending invitations and requests: ``{"clan": clan | null, "role":
    str | null, "invitations": [{"id", "kind", "clan": clan, "created_at"}]}``."""
    member, clan = await _viewer_clan(session, viewer_id)
    rows = await session.execute(
        select(ClanInvitation, Clan)
        .join(Clan, Clan.id == ClanInvitation.clan_id)
        .where(ClanInvitation.user_id == viewer_id)
        .order_by(ClanInvitation.id)
    )
    invitations = [
        {"id": inv.id, "kind": inv.kind, "clan": clan_json(c), "created_at": _iso(inv.created_at)} for inv, c in rows
    ]
    return {
        "clan": clan_json(clan) if clan else None,
        "role": member.role if member else None,
        "invitations": invitations,
    }


def _allowed(role: str | None, logged_in: bool, in_a_clan: bool, pending: str | None, members: int) -> list[str]:
    """What the viewer may do on the clan page (the same rules as :mod:`app.clans.service`)."""
    if not logged_in:
        return []
    if role is None:
        if in_a_clan:
            return []
        if pending == InvitationKind.INVITE:
            return ["accept", "decline"]
        if pending == InvitationKind.REQUEST:
            return ["withdraw"]
        return ["request"]
    can = ["leave"] if role != Role.LEADER or members == 1 else []
    if role in (Role.LEADER, Role.OFFICER):
        can += ["update", "invite", "answer_requests", "remove_members"]
    if role == Role.LEADER:
        can += ["remove_officers", "promote", "demote", "hand_over", "disband"]
    return can


async def clan_page(session: AsyncSession, tag: str, viewer_id: int | None) -> dict[str, Any]:
    """Everything the clan page shows.

    :returns: ``{"clan": clan, "members": [{"user", "role", "joined_at"}] (leader, officers,
        members; by name), "history": [{"id", "code", "params", "actor": user | null, "at"}]
        (latest first), "pending": [{"id", "kind", "user", "by": user, "created_at"}] (every pending
        invitation and request for the leader and officers; the viewer's own for anyone else),
        "viewer": {"role": str | null, "clan_tag": str | null, "can": [str]} | null}``.
    :raises DomainError: ``not_found`` (``params``: ``{"tag"}``), also for a disbanded clan.
    """
    clan = await session.scalar(select(Clan).where(Clan.tag_key == tag.lower()))
    if clan is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no clan {tag[:20]!r}", params={"tag": tag[:20]})
    rows = await session.execute(
        select(ClanMember, User).join(User, User.id == ClanMember.user_id).where(ClanMember.clan_id == clan.id)
    )
    ordered = sorted(((m, u) for m, u in rows), key=lambda mu: (_ROLE_ORDER[Role(mu[0].role)], mu[1].name.lower()))
    members = [{"user": _player(u), "role": m.role, "joined_at": _iso(m.joined_at)} for m, u in ordered]
    actor = aliased(User)
    history_rows = await session.execute(
        select(ClanHistory, actor)
        .outerjoin(actor, actor.id == ClanHistory.actor_id)
        .where(ClanHistory.clan_id == clan.id)
        .order_by(ClanHistory.id.desc())
        .limit(HISTORY_ROWS)
    )
    history = [
        {
            "id": h.id,
            "code": h.code,
            "params": h.params,
            "actor": _player(a) if a else None,
            "at": _iso(h.at),
        }
        for h, a in history_rows
    ]
    viewer = None
    pending: list[dict[str, Any]] = []
    if viewer_id is not None:
        member, own_clan = await _viewer_clan(session, viewer_id)
        role = member.role if member and member.clan_id == clan.id else None
        player, by = aliased(User), aliased(User)
        stmt = (
            select(ClanInvitation, player, by)
            .join(player, player.id == ClanInvitation.user_id)
            .join(by, by.id == ClanInvitation.by_user_id)
            .where(ClanInvitation.clan_id == clan.id)
            .order_by(ClanInvitation.id)
        )
        if role not in (Role.LEADER, Role.OFFICER):
            stmt = stmt.where(ClanInvitation.user_id == viewer_id)
        for inv, p, b in await session.execute(stmt):
            pending.append(
                {
                    "id": inv.id,
                    "kind": inv.kind,
                    "user": _player(p),
                    "by": _player(b),
                    "created_at": _iso(inv.created_at),
                }
            )
        own = next((p["kind"] for p in pending if p["user"]["id"] == viewer_id), None)
        viewer = {
            "role": role,
            "clan_tag": own_clan.tag if own_clan else None,
            "can": _allowed(role, True, member is not None, own, clan.members),
        }
    return {"clan": clan_json(clan), "members": members, "history": history, "pending": pending, "viewer": viewer}
