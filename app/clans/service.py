"""Every change a player makes to a clan (issue 13, item 2), each checked on the server, each in
one transaction that also writes a ``clan_history`` row (a code from :data:`HISTORY_CODES` and its
parameters).

Every function takes an open session (it commits on success and rolls back on any error, so a
refused request changes nothing), the acting player's id (``actor``) and, for an existing clan,
its tag (any letter case). Who may do what:

=============================  ===========================================================
found                          a player in no clan
update (description, colour,   the leader or an officer
region)
invite a player                the leader or an officer
request to join                a player in no clan
accept / decline an invitation the invited player (an officer or the leader may withdraw it)
accept / decline a request     the leader or an officer (the player may withdraw it)
leave                          a member or officer; the leader only as the last member
                               (the clan is then disbanded)
remove a member                the leader (members and officers), an officer (members)
promote / demote an officer    the leader
hand over leadership           the leader, to another player of the clan (who becomes leader;
                               the old leader becomes an officer)
disband                        the leader
=============================  ===========================================================

An administrator (``users.is_admin``) moderates any clan as an officer would, without joining it
(:data:`MODERATION`): they may change its description, colour and region, remove a member (not an
officer, not the leader) and decline or withdraw a pending request or invitation. They may not
invite, accept, promote, demote, hand over, disband or leave for a clan they are not in: those
stay with its players. An administrator who is in a clan has their own role there, and the
moderation rights besides.

Errors (:class:`app.errors.DomainError`): ``not_found`` (``params``: ``tag`` for a clan, ``name``
for a player; ``reason`` ``invitation`` with ``invitation_id``, ``member`` with ``user_id``), ``forbidden`` (``reason``: ``not_member`` - the actor is not in
this clan, ``not_officer``, ``not_leader``, ``not_invited`` - the invitation is someone else's,
``rank`` - an officer acting on an officer or the leader), ``conflict`` (``reason``:
``already_in_clan`` (``name`` when it is another player), ``clan_full`` (``limit``),
``already_invited``, ``already_requested``, ``leader_must_hand_over``, ``already_officer``,
``not_officer``, ``is_leader``, ``self``), ``name_taken`` (``field``: ``name`` or ``tag``, and the
value; ``lookalike`` for a name mixing scripts that passes for another clan's) and ``validation_error`` (``field``: ``region``, ``tag``, ``colour``, ``name`` or
``description``).

Concurrency: a change to a clan first locks its row (PostgreSQL ``SELECT ... FOR UPDATE``; SQLite:
a no-op ``UPDATE`` that takes the database's one write lock), so two joins at the member limit are
counted one after the other. One clan per player is also the primary key of ``clan_members``: a
join that races another join of the same player fails on it and is answered ``already_in_clan``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.challenges.models import CHALLENGE_HISTORY_CODES
from app.clans.models import (
    CLAN_NAME_MAX,
    DESCRIPTION_MAX,
    Clan,
    ClanHistory,
    ClanInvitation,
    ClanMember,
    InvitationKind,
    Role,
)
from app.clans.regions import region_codes
from app.db.base import utcnow
from app.errors import DomainError, ErrorCode, JsonValue
from app.users.models import User
from app.users.names import clean_name, is_mixed_script, name_key, skeleton
from app.users.service import lock_user

#: every ``clan_history.code``; the clan page says each in words (templates/clan.html)
HISTORY_CODES = frozenset(
    {
        "founded",  # name, tag, region
        "updated",  # fields: the names of the changed fields
        "invited",  # user
        "requested",  # user
        "joined",  # user, via: invite | request
        "declined",  # user, kind: the player declined the invitation / an officer the request
        "withdrawn",  # user, kind: the clan withdrew the invitation / the player the request
        "left",  # user
        "removed",  # user
        "promoted",  # user
        "demoted",  # user
        "leader",  # user (the new leader), previous
        "disbanded",  # (nothing)
        "trophy",  # place, region, month, score, bonus (the month close, app/clans/month_close.py)
        "wall_removed",  # post_id, user: the post's author | null (app/clans/wall.py)
    }
)
#: and the challenges' (app/clans/challenges/models.py, said by templates/_challenge.html)
HISTORY_CODES |= CHALLENGE_HISTORY_CODES

#: what an administrator may do in any clan, as an officer (the service's functions)
MODERATION = frozenset({"update_clan", "remove", "decline"})

TAG_RE = re.compile(r"^[A-Za-z0-9]{2,6}$")
#: tags a clan may not take: pages live at ``/clans/<word>`` (``/clans/ladder``, app/web/clan_ladder.py)
RESERVED_TAGS = frozenset({"ladder"})
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")

P = ParamSpec("P")
T = TypeVar("T")


def _transaction(fn: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    """Commit after ``fn`` (whose first argument is the session); roll back on any error. A unique
    key that a concurrent change took first is answered as :func:`_integrity_error` says."""

    @wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        session = args[0]
        assert isinstance(session, AsyncSession)
        try:
            result = await fn(*args, **kwargs)
            await session.commit()
            return result
        except IntegrityError as exc:
            await session.rollback()
            raise _integrity_error(str(exc.orig)) from None
        except BaseException:
            await session.rollback()
            raise

    return run


def _integrity_error(text: str) -> DomainError:
    """The answer to a unique key a concurrent change took first (``text``: the database's message,
    which names the key): ``name_taken`` for a clan name or tag, ``conflict`` ``already_in_clan``
    for a player's second clan, else ``conflict`` ``concurrent_change``."""
    for field in ("name", "tag"):
        if f"{field}_key" in text:
            return DomainError(ErrorCode.NAME_TAKEN, f"a clan took this {field} first", params={"field": field})
    reason = "already_in_clan" if "clan_members" in text else "concurrent_change"
    return _conflict(reason, f"a concurrent change won: {reason}")


def _bad(field: str, message: str) -> DomainError:
    return DomainError(ErrorCode.VALIDATION_ERROR, f"{field}: {message}", params={"field": field, "errors": []})


def _forbidden(reason: str, message: str) -> DomainError:
    return DomainError(ErrorCode.FORBIDDEN, message, params={"reason": reason})


def _conflict(reason: str, message: str, **params: JsonValue) -> DomainError:
    return DomainError(ErrorCode.CONFLICT, message, params={"reason": reason, **params})


def _user_ref(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name}


def check_region(region: str) -> str:
    """``region`` when it is a code of :mod:`app.clans.regions`.

    :raises DomainError: ``validation_error`` (``field``: ``region``).
    """
    if region not in region_codes():
        raise _bad("region", f"unknown region {region[:20]!r}")
    return region


def check_colour(colour: str) -> str:
    """``colour`` (``#rrggbb``) in lowercase. :raises DomainError: ``validation_error`` (``field``: ``colour``)."""
    if not COLOUR_RE.fullmatch(colour):
        raise _bad("colour", "an emblem colour is #rrggbb")
    return colour.lower()


def _check_text(field: str, value: str, low: int, high: int, allowed: str = "") -> str:
    """``value`` trimmed, when it has ``low`` to ``high`` characters and no control character but
    those in ``allowed`` (``"\n"``: a description keeps its lines).

    :raises DomainError: ``validation_error`` (``field``).
    """
    value = value.strip()
    control = any((ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0) and ch not in allowed for ch in value)
    if not low <= len(value) <= high or control:
        raise _bad(field, f"{low} to {high} characters, no control characters")
    return value


def _is_sqlite(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "sqlite"


async def lock_clan(session: AsyncSession, tag: str) -> Clan:
    """The clan ``tag`` (any case), its row locked until the session ends (see the module's notes),
    read fresh from the database.

    :raises DomainError: ``not_found`` (``params``: ``{"tag"}``), also for a disbanded clan.
    """
    key = tag.lower()
    if _is_sqlite(session):
        await session.execute(update(Clan).where(Clan.tag_key == key).values(id=Clan.id))
        stmt = select(Clan).where(Clan.tag_key == key)
    else:
        stmt = select(Clan).where(Clan.tag_key == key).with_for_update()
    clan = await session.scalar(stmt.execution_options(populate_existing=True))
    if clan is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no clan {tag[:20]!r}", params={"tag": tag[:20]})
    return clan


async def membership(session: AsyncSession, user_id: int) -> ClanMember | None:
    """The player's ``clan_members`` row (their one clan and role), or None."""
    stmt = select(ClanMember).where(ClanMember.user_id == user_id).execution_options(populate_existing=True)
    return await session.scalar(stmt)


async def _actor(session: AsyncSession, actor: int) -> User:
    user = await session.get(User, actor)
    if user is None:
        raise DomainError(ErrorCode.UNAUTHORIZED, "no such account")
    return user


async def _role_in(session: AsyncSession, clan: Clan, actor: int, *roles: Role, moderation: bool = False) -> ClanMember:
    """The actor's membership of ``clan`` when their role is one of ``roles``.

    :param moderation: the operation is one an administrator (``users.is_admin``) may do in any
        clan, as an officer would (:data:`MODERATION`): when the actor's own role does not allow
        it and they are an administrator, they get a membership with the role ``officer`` that is
        not stored (they do not join the clan; an officer's limits hold: members only are removed).
    :raises DomainError: ``forbidden`` (``reason``: ``not_member``, ``not_officer``, ``not_leader``).
    """
    member = await membership(session, actor)
    if member is not None and member.clan_id == clan.id and member.role in roles:
        return member
    if moderation and Role.OFFICER in roles and await session.scalar(select(User.is_admin).where(User.id == actor)):
        return ClanMember(user_id=actor, clan_id=clan.id, role=Role.OFFICER)
    if member is None or member.clan_id != clan.id:
        raise _forbidden("not_member", "you are not in this clan")
    if member.role not in roles:
        if roles == (Role.LEADER,):
            raise _forbidden("not_leader", "only the clan's leader may do this")
        raise _forbidden("not_officer", "only the clan's leader or an officer may do this")
    return member


def _history(session: AsyncSession, clan: Clan, actor: int | None, code: str, now: datetime, **params: Any) -> None:
    assert code in HISTORY_CODES, code
    session.add(ClanHistory(clan_id=clan.id, actor_id=actor, code=code, params=params, at=now))


async def _not_in_a_clan(session: AsyncSession, user: User, *, other: bool) -> None:
    member = await membership(session, user.id)
    if member is not None:
        params: dict[str, JsonValue] = {"name": user.name} if other else {}
        raise _conflict("already_in_clan", f"{user.name} is in a clan already", **params)


def _check_room(clan: Clan, limit: int) -> None:
    if clan.members >= limit:
        raise _conflict("clan_full", f"the clan has its {limit} players", limit=limit)


async def _drop_pending(session: AsyncSession, user_id: int) -> None:
    """Delete every pending invitation and request of a player who has just joined a clan."""
    await session.execute(delete(ClanInvitation).where(ClanInvitation.user_id == user_id))


async def _name_free(session: AsyncSession, name: str) -> None:
    """Refuse a clan name another live clan has in any letter case, or one that looks like another
    clan's when either of the two mixes scripts (``Аlpha`` with a Cyrillic ``А`` beside ``Alpha``;
    two Latin names such as ``A1pha`` and ``Alpha`` may both exist, as for account names in
    :func:`app.users.service.register`).

    :raises DomainError: ``name_taken`` (``field`` ``name``, ``name``; for a look-alike also
        ``lookalike``: the existing clan's name).
    """
    shape = skeleton(name)
    if not _is_sqlite(session):
        # one founding per look-alike class at a time, so two look-alikes cannot both pass the
        # check below (SQLite has one writer at a time already)
        await session.execute(select(func.pg_advisory_xact_lock(func.hashtext(shape))))
    if await session.scalar(select(Clan.id).where(Clan.name_key == name_key(name))) is not None:
        raise DomainError(ErrorCode.NAME_TAKEN, f"a clan is called {name!r}", params={"field": "name", "name": name})
    mixed = is_mixed_script(name)
    for other in await session.scalars(select(Clan.name).where(Clan.name_skeleton == shape).limit(50)):
        if mixed or is_mixed_script(other):
            raise DomainError(
                ErrorCode.NAME_TAKEN,
                f"that name looks like the clan {other!r}, mixing letters of several scripts",
                params={"field": "name", "name": name, "lookalike": other},
            )


@_transaction
async def found(
    session: AsyncSession,
    actor: int,
    *,
    name: str,
    tag: str,
    region: str,
    colour: str,
    description: str = "",
    now: datetime | None = None,
) -> Clan:
    """Found a clan with the actor as its leader (and only member); their pending invitations and
    requests are dropped.

    :param name: 2-40 characters after NFKC (stored so, :func:`app.users.names.clean_name`); ``tag``:
        2-6 letters or digits (both unique ignoring case; the name may not pass for another clan's
        by mixing scripts, see :func:`_name_free`).
    :param region: a region code; ``colour``: ``#rrggbb``; ``description``: up to 500 characters.
    :returns: the new clan.
    :raises DomainError: ``validation_error``, ``name_taken`` (``field``), ``conflict``
        ``already_in_clan``.
    """
    now = now or utcnow()
    name = _check_text("name", clean_name(name), 2, CLAN_NAME_MAX)
    if not TAG_RE.fullmatch(tag):
        raise _bad("tag", "a tag is 2 to 6 letters or digits")
    if tag.lower() in RESERVED_TAGS:
        raise _bad("tag", f"the tag {tag!r} is reserved")
    region, colour = check_region(region), check_colour(colour)
    description = _check_text("description", description, 0, DESCRIPTION_MAX, "\n")
    user = await _actor(session, actor)
    await lock_user(session, actor)
    await _not_in_a_clan(session, user, other=False)
    await _name_free(session, name)
    if await session.scalar(select(Clan.id).where(Clan.tag_key == tag.lower())) is not None:
        raise DomainError(ErrorCode.NAME_TAKEN, f"a clan has the tag {tag!r}", params={"field": "tag", "tag": tag})
    clan = Clan(
        name=name,
        name_key=name_key(name),
        name_skeleton=skeleton(name),
        tag=tag,
        tag_key=tag.lower(),
        region=region,
        colour=colour,
        description=description,
        members=1,
        created_at=now,
    )
    session.add(clan)
    await session.flush()
    session.add(ClanMember(user_id=actor, clan_id=clan.id, role=Role.LEADER, joined_at=now))
    await _drop_pending(session, actor)
    _history(session, clan, actor, "founded", now, name=name, tag=tag, region=region)
    await session.flush()
    return clan


@_transaction
async def update_clan(
    session: AsyncSession,
    actor: int,
    tag: str,
    *,
    description: str | None = None,
    colour: str | None = None,
    region: str | None = None,
    now: datetime | None = None,
) -> Clan:
    """Change the description, the emblem colour or the region (None: unchanged).

    :raises DomainError: ``not_found``, ``forbidden`` (``not_member``, ``not_officer``),
        ``validation_error``.
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    await _role_in(session, clan, actor, Role.LEADER, Role.OFFICER, moderation=True)
    changed = []
    if description is not None:
        value = _check_text("description", description, 0, DESCRIPTION_MAX, "\n")
        if value != clan.description:
            clan.description = value
            changed.append("description")
    if colour is not None and check_colour(colour) != clan.colour:
        clan.colour = check_colour(colour)
        changed.append("colour")
    if region is not None and check_region(region) != clan.region:
        clan.region = region
        changed.append("region")
    if changed:
        _history(session, clan, actor, "updated", now, fields=changed)
    return clan


async def _pending(session: AsyncSession, clan: Clan, user_id: int) -> ClanInvitation | None:
    stmt = select(ClanInvitation).where(ClanInvitation.clan_id == clan.id, ClanInvitation.user_id == user_id)
    return await session.scalar(stmt)


def _already(pending: ClanInvitation) -> DomainError:
    if pending.kind == InvitationKind.INVITE:
        return _conflict("already_invited", "the clan has invited this player already")
    return _conflict("already_requested", "this player has asked to join already")


@_transaction
async def invite(
    session: AsyncSession, actor: int, tag: str, player: str, *, limit: int, now: datetime | None = None
) -> ClanInvitation:
    """Invite the player called ``player`` (any case) to the clan.

    :param limit: the member limit (``settings.clan_max_members``).
    :raises DomainError: ``not_found`` (``tag``; ``name`` for an unknown player), ``forbidden``
        (``not_member``, ``not_officer``), ``conflict`` (``already_in_clan`` with ``name``,
        ``already_invited``, ``already_requested``, ``clan_full``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    await _role_in(session, clan, actor, Role.LEADER, Role.OFFICER)
    target = await session.scalar(select(User).where(User.name_key == name_key(player)))
    if target is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no player {player!r}", params={"name": player[:40]})
    await _not_in_a_clan(session, target, other=True)
    pending = await _pending(session, clan, target.id)
    if pending is not None:
        raise _already(pending)
    _check_room(clan, limit)
    invitation = ClanInvitation(
        clan_id=clan.id, user_id=target.id, kind=InvitationKind.INVITE, by_user_id=actor, created_at=now
    )
    session.add(invitation)
    _history(session, clan, actor, "invited", now, user=_user_ref(target))
    await session.flush()
    return invitation


@_transaction
async def request_to_join(
    session: AsyncSession, actor: int, tag: str, *, limit: int, now: datetime | None = None
) -> ClanInvitation:
    """Ask to join the clan.

    :raises DomainError: ``not_found``, ``conflict`` (``already_in_clan``, ``already_invited``,
        ``already_requested``, ``clan_full`` with ``limit``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    user = await _actor(session, actor)
    await _not_in_a_clan(session, user, other=False)
    pending = await _pending(session, clan, actor)
    if pending is not None:
        raise _already(pending)
    _check_room(clan, limit)
    request = ClanInvitation(
        clan_id=clan.id, user_id=actor, kind=InvitationKind.REQUEST, by_user_id=actor, created_at=now
    )
    session.add(request)
    _history(session, clan, actor, "requested", now, user=_user_ref(user))
    await session.flush()
    return request


async def _invitation(session: AsyncSession, clan: Clan, invitation_id: int) -> ClanInvitation:
    invitation = await session.get(ClanInvitation, invitation_id, populate_existing=True)
    if invitation is None or invitation.clan_id != clan.id:
        raise DomainError(
            ErrorCode.NOT_FOUND,
            "no such invitation or request",
            params={"reason": "invitation", "invitation_id": invitation_id},
        )
    return invitation


@_transaction
async def accept(
    session: AsyncSession, actor: int, tag: str, invitation_id: int, *, limit: int, now: datetime | None = None
) -> ClanMember:
    """Accept an invitation (the invited player) or a join request (the leader or an officer): the
    player joins as a member, and their other pending invitations and requests are dropped.

    :raises DomainError: ``not_found`` (``invitation_id``), ``forbidden`` (``not_invited``,
        ``not_member``, ``not_officer``), ``conflict`` (``already_in_clan``, ``clan_full``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    invitation = await _invitation(session, clan, invitation_id)
    if invitation.kind == InvitationKind.INVITE:
        if invitation.user_id != actor:
            raise _forbidden("not_invited", "this invitation is for another player")
    else:
        await _role_in(session, clan, actor, Role.LEADER, Role.OFFICER)
    joiner = await _actor(session, invitation.user_id)
    await lock_user(session, joiner.id)
    await _not_in_a_clan(session, joiner, other=joiner.id != actor)
    _check_room(clan, limit)
    member = ClanMember(user_id=joiner.id, clan_id=clan.id, role=Role.MEMBER, joined_at=now)
    session.add(member)
    clan.members += 1
    await _drop_pending(session, joiner.id)
    _history(session, clan, actor, "joined", now, user=_user_ref(joiner), via=invitation.kind)
    await session.flush()
    return member


@_transaction
async def decline(
    session: AsyncSession, actor: int, tag: str, invitation_id: int, *, now: datetime | None = None
) -> None:
    """Decline an invitation (the invited player) or a request (the leader or an officer); or
    withdraw one's own: the clan its invitation, the player their request.

    :raises DomainError: ``not_found`` (``invitation_id``), ``forbidden`` (``not_member``,
        ``not_officer``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    invitation = await _invitation(session, clan, invitation_id)
    player = await _actor(session, invitation.user_id)
    own = invitation.user_id == actor
    if not own:
        await _role_in(session, clan, actor, Role.LEADER, Role.OFFICER, moderation=True)
    # the invited player declines an invitation, the clan a request; the other side withdraws
    declined = own == (invitation.kind == InvitationKind.INVITE)
    await session.delete(invitation)
    code = "declined" if declined else "withdrawn"
    _history(session, clan, actor, code, now, user=_user_ref(player), kind=invitation.kind)


async def _disband(session: AsyncSession, clan: Clan, actor: int, now: datetime) -> None:
    await session.execute(delete(ClanMember).where(ClanMember.clan_id == clan.id))
    await session.execute(delete(ClanInvitation).where(ClanInvitation.clan_id == clan.id))
    clan.members = 0
    clan.name_key = None
    clan.name_skeleton = None
    clan.tag_key = None
    clan.disbanded_at = now
    _history(session, clan, actor, "disbanded", now)


@_transaction
async def leave(session: AsyncSession, actor: int, tag: str, *, now: datetime | None = None) -> bool:
    """Leave the clan. The leader may leave only as its last player, which disbands it.

    :returns: True when the clan was disbanded.
    :raises DomainError: ``not_found``, ``forbidden`` (``not_member``), ``conflict``
        (``leader_must_hand_over``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    member = await _role_in(session, clan, actor, Role.LEADER, Role.OFFICER, Role.MEMBER)
    user = await _actor(session, actor)
    if member.role == Role.LEADER:
        if clan.members > 1:
            raise _conflict("leader_must_hand_over", "hand the leadership over before leaving")
        _history(session, clan, actor, "left", now, user=_user_ref(user))
        await _disband(session, clan, actor, now)
        return True
    await session.delete(member)
    clan.members -= 1
    _history(session, clan, actor, "left", now, user=_user_ref(user))
    return False


async def _target(session: AsyncSession, clan: Clan, actor: int, user_id: int) -> tuple[ClanMember, User]:
    """Another player of ``clan`` (by id). :raises DomainError: ``conflict`` ``self``, ``not_found``."""
    if user_id == actor:
        raise _conflict("self", "not on yourself")
    member = await membership(session, user_id)
    user = await session.get(User, user_id)
    if member is None or member.clan_id != clan.id or user is None:
        raise DomainError(
            ErrorCode.NOT_FOUND, "no such player in this clan", params={"reason": "member", "user_id": user_id}
        )
    return member, user


@_transaction
async def remove(session: AsyncSession, actor: int, tag: str, user_id: int, *, now: datetime | None = None) -> None:
    """Remove a player from the clan: the leader removes officers and members, an officer members.

    :raises DomainError: ``not_found`` (``user_id``), ``forbidden`` (``not_member``,
        ``not_officer``, ``rank``), ``conflict`` (``self``: leave instead).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    me = await _role_in(session, clan, actor, Role.LEADER, Role.OFFICER, moderation=True)
    member, user = await _target(session, clan, actor, user_id)
    if member.role == Role.LEADER or (me.role == Role.OFFICER and member.role == Role.OFFICER):
        raise _forbidden("rank", "an officer may remove members only")
    await session.delete(member)
    clan.members -= 1
    _history(session, clan, actor, "removed", now, user=_user_ref(user))


@_transaction
async def set_role(
    session: AsyncSession, actor: int, tag: str, user_id: int, role: Role, *, now: datetime | None = None
) -> ClanMember:
    """Promote a member to officer (``role`` officer), demote an officer (``role`` member), or hand
    the leadership over (``role`` leader: the actor becomes an officer). The leader only.

    :raises DomainError: ``not_found`` (``user_id``), ``forbidden`` (``not_member``, ``not_officer``
        or ``not_leader``), ``conflict`` (``already_officer``, ``not_officer``, ``self``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    me = await _role_in(session, clan, actor, Role.LEADER)
    member, user = await _target(session, clan, actor, user_id)
    if role == Role.OFFICER:
        if member.role != Role.MEMBER:
            raise _conflict("already_officer", "this player is an officer already")
        member.role = Role.OFFICER
        _history(session, clan, actor, "promoted", now, user=_user_ref(user))
    elif role == Role.MEMBER:
        if member.role != Role.OFFICER:
            raise _conflict("not_officer", "this player is not an officer")
        member.role = Role.MEMBER
        _history(session, clan, actor, "demoted", now, user=_user_ref(user))
    else:
        previous = await _actor(session, actor)
        me.role = Role.OFFICER
        member.role = Role.LEADER
        _history(session, clan, actor, "leader", now, user=_user_ref(user), previous=_user_ref(previous))
    return member


@_transaction
async def disband(session: AsyncSession, actor: int, tag: str, *, now: datetime | None = None) -> None:
    """Disband the clan (the leader only): every player leaves, pending invitations go, the name
    and tag are free again; the row and its history stay.

    :raises DomainError: ``not_found``, ``forbidden`` (``not_member``, ``not_leader``).
    """
    now = now or utcnow()
    clan = await lock_clan(session, tag)
    await _role_in(session, clan, actor, Role.LEADER)
    await _disband(session, clan, actor, now)
