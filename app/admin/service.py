"""What an administrator may change about a player (issue 13, item 5), each change in one
transaction with its ``admin_actions`` audit row.

- :func:`set_player_rank`: grant (a higher rank) or revoke (a lower one) a rank: a
  ``rank_changes`` row (reason ``grant`` or ``revoke``, ``ref`` the action's id, ``by_user_id`` the
  administrator) beside the action row with the note.
- :func:`adjust_points`: add or take away points: a ``points_ledger`` row (reason ``adjust``,
  ``ref`` the action's id); never below zero.

Every function checks on the server, under the transaction, that the actor is an administrator
(:func:`check_admin`; the routes' :func:`app.users.deps.require_admin` checks first), commits on
success and rolls back on any error, so a refusal changes nothing. Errors
(:class:`app.errors.DomainError`): ``forbidden`` (``reason`` ``not_admin``), ``not_found``
(``name``), ``conflict`` (``reason`` ``insufficient_points`` with ``balance`` and ``cost``),
``validation_error`` (``field`` ``note`` or ``delta``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.models import NOTE_MAX, AdminAction
from app.errors import DomainError, ErrorCode
from app.points.ledger import credit
from app.points.ranks import Rank, RankThresholds, rank_of, set_rank
from app.users.models import User
from app.users.names import name_key
from app.users.service import lock_user

#: the largest adjustment of points one action may make, either way
ADJUST_MAX = 100_000


def not_admin() -> DomainError:
    """The refusal of a non-administrator: ``forbidden`` (``reason`` ``not_admin``)."""
    return DomainError(ErrorCode.FORBIDDEN, "only an administrator may do this", params={"reason": "not_admin"})


async def check_admin(session: AsyncSession, actor: int) -> User:
    """The acting user, who must be an administrator (read fresh from the database: a right
    taken away by ``scripts/admin.py revoke`` holds from the next request on).

    :raises DomainError: ``forbidden`` (``not_admin``), also for an unknown actor.
    """
    user = await session.scalar(select(User).where(User.id == actor).execution_options(populate_existing=True))
    if user is None or not user.is_admin:
        raise not_admin()
    return user


async def player_by_name(session: AsyncSession, name: str) -> User:
    """The player called ``name`` (any letter case).

    :raises DomainError: ``not_found`` (``params``: ``{"name"}``).
    """
    user = await session.scalar(select(User).where(User.name_key == name_key(name)))
    if user is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no player {name!r}", params={"name": name[:60]})
    return user


def _note(note: str) -> str:
    note = note.strip()
    if len(note) > NOTE_MAX or any(ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in note):
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            f"note: at most {NOTE_MAX} characters, no control characters",
            params={"field": "note", "errors": []},
        )
    return note


def _player(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "rank": user.rank, "is_bot": bool(user.is_bot)}


async def _begin(session: AsyncSession, actor: int, name: str) -> tuple[User, User]:
    """The administrator and the player, with the write lock taken first on SQLite (a transaction
    that reads before it writes may be refused by SQLite's one writer)."""
    if session.get_bind().dialect.name == "sqlite":
        await lock_user(session, actor)
    admin = await check_admin(session, actor)
    return admin, await player_by_name(session, name)


async def set_player_rank(session: AsyncSession, actor: int, name: str, rank: Rank, note: str = "") -> dict[str, Any]:
    """Give the player called ``name`` the rank ``rank``: a grant when it is higher than theirs, a
    revoke when lower. Nothing is written when they hold it already.

    :returns: ``{"user": {"id", "name", "rank", "is_bot"}, "old", "new", "changed": bool,
        "action_id": int | null}``.
    :raises DomainError: ``forbidden`` (``not_admin``), ``not_found`` (``name``),
        ``validation_error`` (``note``).
    """
    try:
        note = _note(note)
        admin, player = await _begin(session, actor, name)
        old = await rank_of(session, player.id, lock=True)
        action_id = None
        if old != rank:
            action = AdminAction(
                by_user_id=admin.id,
                user_id=player.id,
                kind="rank",
                params={"old": old.value, "new": rank.value},
                note=note,
            )
            session.add(action)
            await session.flush()
            action_id = action.id
            reason = "grant" if rank.level > old.level else "revoke"
            await set_rank(session, player.id, rank, reason, str(action.id), by_user_id=admin.id)
            await session.refresh(player)
        answer: dict[str, Any] = {
            "user": _player(player),
            "old": old.value,
            "new": rank.value,
            "changed": old != rank,
            "action_id": action_id,
        }
        await session.commit()
        return answer
    except BaseException:
        await session.rollback()
        raise


async def adjust_points(
    session: AsyncSession, actor: int, name: str, delta: int, note: str = "", *, thresholds: RankThresholds
) -> dict[str, Any]:
    """Add ``delta`` points to the player called ``name`` (negative: take them away).

    A positive adjustment counts towards the rank thresholds, as every credit does.

    :param delta: non-zero, at most :data:`ADJUST_MAX` either way.
    :returns: ``{"user": {...}, "delta", "balance", "action_id"}``.
    :raises DomainError: ``forbidden`` (``not_admin``), ``not_found`` (``name``), ``conflict``
        (``insufficient_points``: the balance would go below zero), ``validation_error``
        (``delta``, ``note``).
    """
    try:
        note = _note(note)
        if delta == 0 or abs(delta) > ADJUST_MAX:
            raise DomainError(
                ErrorCode.VALIDATION_ERROR,
                f"delta: a non-zero number of points up to {ADJUST_MAX} either way",
                params={"field": "delta", "errors": []},
            )
        admin, player = await _begin(session, actor, name)
        action = AdminAction(by_user_id=admin.id, user_id=player.id, kind="points", params={"delta": delta}, note=note)
        session.add(action)
        await session.flush()
        entry = await credit(
            session, player.id, delta, "adjust", action.id, params={"action_id": action.id}, thresholds=thresholds
        )
        assert entry is not None  # a new action's id is a new reference
        action.params = {"delta": delta, "balance_after": entry.balance_after}
        await session.refresh(player)
        answer = {"user": _player(player), "delta": delta, "balance": entry.balance_after, "action_id": action.id}
        await session.commit()
        return answer
    except BaseException:
        await session.rollback()
        raise


async def actions_on(session: AsyncSession, actor: int, name: str, limit: int = 50) -> dict[str, Any]:
    """The latest administrators' actions on the player called ``name`` (administrators only).

    :returns: ``{"user": {...}, "actions": [{"id", "kind", "params", "note", "by": {"id", "name"}
        | null, "at"}]}``, latest first.
    :raises DomainError: ``forbidden`` (``not_admin``), ``not_found`` (``name``).
    """
    await check_admin(session, actor)
    player = await player_by_name(session, name)
    rows = await session.execute(
        select(AdminAction, User.name)
        .outerjoin(User, User.id == AdminAction.by_user_id)
        .where(AdminAction.user_id == player.id)
        .order_by(AdminAction.id.desc())
        .limit(limit)
    )
    actions = [
        {
            "id": a.id,
            "kind": a.kind,
            "params": a.params,
            "note": a.note,
            "by": {"id": a.by_user_id, "name": by} if a.by_user_id is not None else None,
            "at": a.at.isoformat(),
        }
        for a, by in rows
    ]
    return {"user": _player(player), "actions": actions}
