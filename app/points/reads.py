"""The reads behind a player's points on their profile (issue 13, items 5 to 7) and its JSON twin
``GET /api/users/{name}/points``: rank, balance, the latest ledger lines, rewards owned and shown.

Ledger lines carry codes (``reason``) and parameters (``params``: ``match_id`` and ``game`` for a
win, ``reward`` for a purchase, ``action_id`` for an administrator's adjustment); the pages say
them in words (templates/_points.html). An administrator's note is not part of them: it is in
``admin_actions``, which only administrators read.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import DomainError, ErrorCode
from app.points.ledger import balance_of
from app.points.models import PointsEntry
from app.rewards.service import owned
from app.users.models import User
from app.users.names import name_key

#: ledger lines a profile shows (the latest)
LEDGER_ROWS = 20


async def ledger_lines(session: AsyncSession, user_id: int, limit: int = LEDGER_ROWS) -> list[dict[str, Any]]:
    """A player's latest ledger rows, latest first: ``[{"delta", "reason", "params",
    "balance_after", "at"}]``."""
    rows = await session.scalars(
        select(PointsEntry).where(PointsEntry.user_id == user_id).order_by(PointsEntry.id.desc()).limit(limit)
    )
    return [
        {
            "delta": e.delta,
            "reason": e.reason,
            "params": e.params,
            "balance_after": e.balance_after,
            "at": e.at.isoformat(),
        }
        for e in rows
    ]


async def player_points(session: AsyncSession, name: str) -> dict[str, Any]:
    """Everything the profile shows about the points of the player called ``name``.

    :returns: ``{"user": {"id", "name", "rank", "is_bot"}, "balance", "earned", "ledger":
        [line] (:func:`ledger_lines`), "owned": [reward], "equipped": {kind: code}}``.
    :raises DomainError: ``not_found`` (``name``).
    """
    user = await session.scalar(select(User).where(User.name_key == name_key(name)))
    if user is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no player {name!r}", params={"name": name[:60]})
    balance, earned = await balance_of(session, user.id)
    rewards = await owned(session, user.id)
    return {
        "user": {"id": user.id, "name": user.name, "rank": user.rank, "is_bot": bool(user.is_bot)},
        "balance": balance,
        "earned": earned,
        "ledger": await ledger_lines(session, user.id),
        **rewards,
    }
