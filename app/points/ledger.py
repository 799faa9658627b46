"""The points ledger (issue 13, item 5): :func:`credit` is the one way a player's points move.

Every credit and debit is a ``points_ledger`` row with its ``reason`` and ``ref``; applying the same
``(user, reason, ref)`` twice changes nothing (a key of the table, so two processes that both pass
the check still cannot both write); the balance never goes negative (checked under the
``player_points`` row lock, and a check constraint of the table behind it). A credit that lifts a
player's lifetime points over a rank threshold promotes them (:mod:`app.points.ranks`) in the same
transaction.

:func:`credit` runs in the caller's transaction and does not commit, so a job can credit points and
record that it ran in one commit.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import DomainError, ErrorCode
from app.points.models import REF_MAX, PlayerPoints, PointsEntry
from app.points.ranks import RankThresholds, promote_to_at_least, rank_of

#: why points moved (``points_ledger.reason``), with the ``ref`` each uses
REASONS = {
    "rated_win": "match id",
    "challenge_win": "challenge id",
    "tournament_place": "tournament id",
    "beat_lord": "match id",
    "month_trophy": "region:month:place",
    "reward": "purchase id",
    "adjust": "an administrator's note id",
}


async def credit(
    session: AsyncSession,
    user_id: int,
    delta: int,
    reason: str,
    ref: str | int,
    *,
    params: dict[str, Any] | None = None,
    thresholds: RankThresholds | None = None,
) -> PointsEntry | None:
    """Add ``delta`` points (negative: spend them) to a player, once per ``(reason, ref)``.

    Locks the player's ``player_points`` row (created at 0 when missing) for the rest of the
    caller's transaction; nothing is committed here.

    :param reason: a key of :data:`REASONS`.
    :param ref: what caused it (its idempotency key with ``reason``), at most 64 characters.
    :param thresholds: when given, a credit that lifts ``earned`` over a threshold promotes the
        player (never demotes).
    :returns: the new ledger row, or None when this ``(reason, ref)`` was applied before.
    :raises DomainError: ``conflict`` (``reason`` ``insufficient_points``, ``balance``, ``cost``)
        when a debit would take the balance below zero.
    :raises ValueError: for an unknown reason, a zero delta or a reference too long.
    """
    ref = str(ref)
    if reason not in REASONS:
        raise ValueError(f"unknown points reason {reason!r}")
    if delta == 0 or len(ref) > REF_MAX:
        raise ValueError("a ledger entry moves some points and has a reference of at most 64 characters")
    row = await _lock_row(session, user_id)
    done = await session.scalar(
        select(PointsEntry.id).where(
            PointsEntry.user_id == user_id, PointsEntry.reason == reason, PointsEntry.ref == ref
        )
    )
    if done is not None:
        return None
    balance, earned = row
    if balance + delta < 0:
        raise DomainError(
            ErrorCode.CONFLICT,
            "not enough points",
            params={"reason": "insufficient_points", "balance": balance, "cost": -delta},
        )
    balance += delta
    earned += max(delta, 0)
    await session.execute(
        update(PlayerPoints).where(PlayerPoints.user_id == user_id).values(balance=balance, earned=earned)
    )
    entry = PointsEntry(
        user_id=user_id, delta=delta, reason=reason, ref=ref, balance_after=balance, params=params or {}
    )
    session.add(entry)
    await session.flush()
    if thresholds is not None and delta > 0:
        target = thresholds.rank_for(earned)
        if target.level > (await rank_of(session, user_id)).level:
            await promote_to_at_least(session, user_id, target, "threshold", f"{reason}:{ref}")
    return entry


async def balance_of(session: AsyncSession, user_id: int) -> tuple[int, int]:
    """A player's ``(balance, earned)`` points; ``(0, 0)`` before their first credit."""
    row = (
        await session.execute(select(PlayerPoints.balance, PlayerPoints.earned).where(PlayerPoints.user_id == user_id))
    ).first()
    return (row[0], row[1]) if row else (0, 0)


async def _lock_row(session: AsyncSession, user_id: int) -> tuple[int, int]:
    """Create the player's ``player_points`` row when missing and lock it; its balance and earned."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await session.execute(
        insert(PlayerPoints).values(user_id=user_id).on_conflict_do_nothing(index_elements=["user_id"])
    )
    row = (
        await session.execute(
            select(PlayerPoints.balance, PlayerPoints.earned).where(PlayerPoints.user_id == user_id).with_for_update()
        )
    ).one()
    return row[0], row[1]
