"""The clan wall (issue 13, item 7): short messages of a clan's players on its page.

=================  ================================================================================
read               everyone who may see the clan page, logged in or not (the wall is public, like
                   the page; removed posts are shown to nobody)
post               a player of the clan (member, officer, leader); 1-280 characters, no control
                   characters; at most ``CLAN_WALL_RATE_LIMIT`` posts per player (default 5 a
                   minute and 30 a day, over every wall)
remove             the post's author, the clan's leader or an officer (:func:`app.clans.service._role_in`),
                   or an administrator (``users.is_admin``)
=================  ================================================================================

An administrator moderates: they remove posts anywhere but post only on their own clan's wall.

A removed post keeps its row with who removed it and when (``removed_by_id``, ``removed_at``), and
the removal writes a ``wall_removed`` row in the clan's history (the post's id and author, not its
text). Text is stored as written; the pages escape it (Jinja2 autoescaping; ``textContent`` in
``static/js/clan_wall.js``).

Errors (:class:`app.errors.DomainError`): ``not_found`` (``tag``; ``reason`` ``post`` with
``post_id`` for a post that is not on this wall or was removed), ``forbidden`` (``reason``
``not_member``, or ``not_officer`` for a member removing someone else's post),
``validation_error`` (``field`` ``text``), ``rate_limited`` (``retry_after``, seconds).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.clans.models import Role
from app.clans.service import (
    _actor,
    _check_text,
    _forbidden,
    _history,
    _role_in,
    _transaction,
    _user_ref,
    lock_clan,
    membership,
)
from app.clans.wall_models import WALL_POST_MAX, ClanWallPost
from app.db.base import utcnow
from app.errors import DomainError, ErrorCode
from app.ratelimit import RateLimiter
from app.users.models import User

#: posts the clan page shows (the latest)
WALL_ROWS = 30
_OFFICERS = (Role.LEADER, Role.OFFICER)


@_transaction
async def post(
    session: AsyncSession,
    actor: int,
    tag: str,
    text: str,
    *,
    limiter: RateLimiter | None = None,
    now: datetime | None = None,
) -> ClanWallPost:
    """Post ``text`` (trimmed; 1-280 characters) on the clan's wall. The actor must be in the clan.

    :param limiter: counts the actor's posts (key ``user:<id>``); None: no limit. A refused post
        is not counted.
    :raises DomainError: ``validation_error`` (``text``), ``not_found`` (``tag``), ``forbidden``
        (``not_member``), ``rate_limited`` (``retry_after``).
    """
    now = now or utcnow()
    text = _check_text("text", text, 1, WALL_POST_MAX)
    clan = await lock_clan(session, tag)
    member = await membership(session, actor)
    if member is None or member.clan_id != clan.id:
        raise _forbidden("not_member", "only the clan's players post on its wall")
    if limiter is not None:
        key = f"user:{actor}"
        if not await limiter.ahit(key):
            wait = await limiter.aretry_after(key)
            raise DomainError(
                ErrorCode.RATE_LIMITED,
                f"too many wall posts; try again in {wait} seconds",
                params={"retry_after": wait},
            )
    entry = ClanWallPost(clan_id=clan.id, author_id=actor, text=text, at=now)
    session.add(entry)
    await session.flush()
    return entry


@_transaction
async def remove(session: AsyncSession, actor: int, tag: str, post_id: int, *, now: datetime | None = None) -> None:
    """Remove a post from the clan's wall (kept as removed, with who and when; a history row).

    :raises DomainError: ``not_found`` (``tag``; ``reason`` ``post``), ``forbidden``
        (``not_member``, ``not_officer``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    entry = await session.get(ClanWallPost, post_id, populate_existing=True)
    if entry is None or entry.clan_id != clan.id or entry.removed_at is not None:
        raise DomainError(
            ErrorCode.NOT_FOUND, "no such post on this wall", params={"reason": "post", "post_id": post_id}
        )
    if entry.author_id != actor:
        user = await _actor(session, actor)
        if not user.is_admin:
            await _role_in(session, clan, actor, *_OFFICERS)
    entry.removed_at = now
    entry.removed_by_id = actor
    author = await session.get(User, entry.author_id) if entry.author_id is not None else None
    _history(session, clan, actor, "wall_removed", now, post_id=entry.id, user=_user_ref(author) if author else None)


async def wall(session: AsyncSession, clan_id: int, viewer_id: int | None) -> dict[str, Any]:
    """The clan's wall as the viewer sees it.

    :returns: ``{"posts": [{"id", "text", "author": {"id", "name"} | null, "at", "can_remove"}]
        (the latest :data:`WALL_ROWS` not removed, newest first), "can_post": bool}``.
    """
    role = None
    is_admin = False
    if viewer_id is not None:
        member = await membership(session, viewer_id)
        role = member.role if member is not None and member.clan_id == clan_id else None
        is_admin = bool(await session.scalar(select(User.is_admin).where(User.id == viewer_id)))
    author = aliased(User)
    rows = await session.execute(
        select(ClanWallPost, author)
        .outerjoin(author, author.id == ClanWallPost.author_id)
        .where(ClanWallPost.clan_id == clan_id, ClanWallPost.removed_at.is_(None))
        .order_by(ClanWallPost.id.desc())
        .limit(WALL_ROWS)
    )
    moderator = is_admin or role in _OFFICERS
    posts = [
        {
            "id": p.id,
            "text": p.text,
            "author": {"id": a.id, "name": a.name} if a is not None else None,
            "at": p.at.isoformat(),
            "can_remove": viewer_id is not None and (moderator or p.author_id == viewer_id),
        }
        for p, a in rows
    ]
    return {"posts": posts, "can_post": role is not None}
