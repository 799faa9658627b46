"""The Scratch Knight ranks (issue 13, item 5; the Scratch Wars rulebook's clan website,
``../shared/seeds/000_772d88cd841a14f2.txt``): every player is a **Knight** on sign-up; a
tournament win, a win over a Lord or enough points make a Knight a **Master**; enough points make a
**Lord**, then a **Leader**. An administrator may grant or revoke any rank (an audit row each time).

A rank is ``users.rank``; every change goes through :func:`set_rank`, which writes its
``rank_changes`` row in the caller's transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import DomainError, ErrorCode
from app.points.models import RankChange
from app.settings import Settings
from app.users.models import User


class Rank(StrEnum):
    """A player's rank, lowest first (``Rank.KNIGHT < Rank.MASTER`` compares by :attr:`level`)."""

    KNIGHT = "knight"
    MASTER = "master"
    LORD = "lord"
    LEADER = "leader"

    @property
    def level(self) -> int:
        """0 for a Knight up to 3 for a Leader."""
        return list(Rank).index(self)


#: why a rank changed (``rank_changes.reason``)
RANK_REASONS = ("threshold", "tournament_win", "beat_lord", "grant", "revoke")


@dataclass(frozen=True, slots=True)
class RankThresholds:
    """Lifetime points (``player_points.earned``) that make a player a Master, a Lord, a Leader
    (settings ``RANK_MASTER_POINTS``, ``RANK_LORD_POINTS``, ``RANK_LEADER_POINTS``)."""

    master: int = 500
    lord: int = 2000
    leader: int = 5000

    def rank_for(self, earned: int) -> Rank:
        """The highest rank ``earned`` points reach by themselves (a Knight below every threshold)."""
        for rank, needed in ((Rank.LEADER, self.leader), (Rank.LORD, self.lord), (Rank.MASTER, self.master)):
            if earned >= needed:
                return rank
        return Rank.KNIGHT


async def rank_of(session: AsyncSession, user_id: int, *, lock: bool = False) -> Rank:
    """A player's rank. ``lock`` takes the ``users`` row's lock (``FOR UPDATE`` on PostgreSQL).

    :raises DomainError: ``not_found`` when there is no such player."""
    stmt = select(User.rank).where(User.id == user_id)
    if lock:
        stmt = stmt.with_for_update()
    value = await session.scalar(stmt)
    if value is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such player", params={"user_id": user_id})
    return Rank(value)


async def set_rank(
    session: AsyncSession, user_id: int, new: Rank, reason: str, ref: str = "", *, by_user_id: int | None = None
) -> bool:
    """Set a player's rank to ``new`` and write the ``rank_changes`` row, in the caller's
    transaction (not committed here). Locks the player's ``users`` row first.

    :param reason: one of :data:`RANK_REASONS`.
    :returns: False (and nothing written) when the player already holds ``new``.
    :raises ValueError: for a reason not in :data:`RANK_REASONS`.
    """
    if reason not in RANK_REASONS:
        raise ValueError(f"unknown rank reason {reason!r}")
    old = await rank_of(session, user_id, lock=True)
    if old == new:
        return False
    await session.execute(update(User).where(User.id == user_id).values(rank=new.value))
    session.add(
        RankChange(user_id=user_id, old=old.value, new=new.value, reason=reason, ref=ref, by_user_id=by_user_id)
    )
    await session.flush()
    return True


async def promote_to_at_least(session: AsyncSession, user_id: int, rank: Rank, reason: str, ref: str = "") -> bool:
    """Raise a player to ``rank`` if they are below it (never lowers a rank): a tournament win or a
    win over a Lord makes a Knight a Master; points thresholds (:func:`app.points.ledger.credit`).

    :returns: True when the rank changed.
    """
    current = await rank_of(session, user_id, lock=True)
    if current.level >= rank.level:
        return False
    return await set_rank(session, user_id, rank, reason, ref)


def thresholds_from(settings: Settings) -> RankThresholds:
    """The rank thresholds the server's settings set."""
    return RankThresholds(settings.rank_master_points, settings.rank_lord_points, settings.rank_leader_points)


async def rank_at(session: AsyncSession, user_id: int, at: datetime) -> Rank:
    """The rank a player held at ``at`` (UTC): the ``new`` rank of their last ``rank_changes`` row
    up to ``at``, a Knight before any (every rank starts as a Knight and changes only through
    :func:`set_rank`, which writes that row). A job that runs late (a consumer catching up after
    a restart) still judges by the rank at the moment that mattered, not the one of today."""
    value = await session.scalar(
        select(RankChange.new)
        .where(RankChange.user_id == user_id, RankChange.at <= at)
        .order_by(RankChange.at.desc(), RankChange.id.desc())
        .limit(1)
    )
    return Rank(value) if value is not None else Rank.KNIGHT
