"""The rewards catalogue and what players and administrators do with it (issue 13, item 6).

=======================  =================================================================
:func:`catalogue`        the rewards (for sale; administrators also see inactive ones), with
                         what the viewer owns and shows
:func:`buy`              a player buys a reward with points: one transaction
:func:`equip`            a player shows a reward they own (one per kind), or none of a kind
:func:`owned`            a player's rewards and what they show (the profile)
:func:`create`           an administrator adds a reward
:func:`update`           an administrator changes a reward's cost or takes it off sale
=======================  =================================================================

Buying cannot overspend or buy twice, however many clicks arrive at once: the debit goes through
:func:`app.points.ledger.credit` (reason ``reward``, ``ref`` ``reward:<id>``), which locks the
player's ``player_points`` row, refuses a balance below zero, and is unique per player, reason
and ref; the ``reward_purchases`` row is unique per player and reward as a second key. A second
purchase of the same reward finds the first one's ledger row and is refused ``already_owned``;
two purchases of different rewards are counted one after the other against the balance. On
SQLite the transaction takes the database's write lock before it reads anything.

Changes commit the session on success and roll back on any error, so a refusal changes nothing.
Errors (:class:`app.errors.DomainError`): ``not_found`` (``reason`` ``reward``, ``code``),
``conflict`` (``reason``: ``insufficient_points`` with ``balance`` and ``cost``,
``already_owned``, ``not_for_sale``, ``not_owned``, ``wrong_kind``), ``forbidden`` (``not_admin``),
``name_taken`` (``field`` ``code``), ``validation_error`` (``field``: ``code``, ``kind``, ``cost``).
"""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.admin.service import check_admin
from app.errors import DomainError, ErrorCode, JsonValue
from app.points.ledger import balance_of, credit
from app.rewards.models import CODE_PATTERN, COST_MAX, EquippedReward, Reward, RewardKind, RewardPurchase
from app.users.service import lock_user

_CODE_RE = re.compile(CODE_PATTERN)


def _conflict(reason: str, message: str, **params: JsonValue) -> DomainError:
    return DomainError(ErrorCode.CONFLICT, message, params={"reason": reason, **params})


def _bad(field: str, message: str) -> DomainError:
    return DomainError(ErrorCode.VALIDATION_ERROR, f"{field}: {message}", params={"field": field, "errors": []})


def reward_json(r: Reward) -> dict[str, Any]:
    """``{"code", "kind", "cost", "active"}`` (the pages name a reward from its code)."""
    return {"code": r.code, "kind": r.kind, "cost": r.cost, "active": r.active}


async def _write_lock(session: AsyncSession, user_id: int) -> None:
    """SQLite: take the database's write lock before reading (PostgreSQL: row locks do the work)."""
    if session.get_bind().dialect.name == "sqlite":
        await lock_user(session, user_id)


async def reward_by_code(session: AsyncSession, code: str) -> Reward:
    """The reward ``code``. :raises DomainError: ``not_found`` (``reason`` ``reward``, ``code``)."""
    reward = await session.scalar(select(Reward).where(Reward.code == code).execution_options(populate_existing=True))
    if reward is None:
        raise DomainError(
            ErrorCode.NOT_FOUND, f"there is no reward {code[:40]!r}", params={"reason": "reward", "code": code[:40]}
        )
    return reward


async def owned(session: AsyncSession, user_id: int) -> dict[str, Any]:
    """A player's rewards: ``{"owned": [{"code", "kind", "cost", "active", "price", "at"}] (oldest
    first), "equipped": {kind: code}}``."""
    rows = await session.execute(
        select(Reward, RewardPurchase)
        .join(RewardPurchase, RewardPurchase.reward_id == Reward.id)
        .where(RewardPurchase.user_id == user_id)
        .order_by(RewardPurchase.id)
    )
    mine = [{**reward_json(r), "price": p.price, "at": p.at.isoformat()} for r, p in rows]
    shown = await session.execute(
        select(EquippedReward.kind, Reward.code)
        .join(Reward, Reward.id == EquippedReward.reward_id)
        .where(EquippedReward.user_id == user_id)
    )
    return {"owned": mine, "equipped": {kind: code for kind, code in shown}}


async def catalogue(session: AsyncSession, viewer_id: int | None, *, everything: bool = False) -> dict[str, Any]:
    """The rewards for sale, cheapest first within each kind (``everything``: inactive ones too,
    for an administrator's page), with the viewer's balance and what they own and show.

    :returns: ``{"rewards": [{"code", "kind", "cost", "active", "owned": bool, "equipped": bool}],
        "balance": int | null, "equipped": {kind: code}}`` (``balance`` null for a visitor).
    """
    stmt = select(Reward).order_by(Reward.kind, Reward.cost, Reward.code)
    if not everything:
        stmt = stmt.where(Reward.active)
    rewards = list(await session.scalars(stmt))
    mine: dict[str, Any] = {"owned": [], "equipped": {}}
    balance = None
    if viewer_id is not None:
        mine = await owned(session, viewer_id)
        balance = (await balance_of(session, viewer_id))[0]
    have = {o["code"] for o in mine["owned"]}
    shown = set(mine["equipped"].values())
    return {
        "rewards": [{**reward_json(r), "owned": r.code in have, "equipped": r.code in shown} for r in rewards],
        "balance": balance,
        "equipped": mine["equipped"],
    }


async def buy(session: AsyncSession, actor: int, code: str) -> dict[str, Any]:
    """The actor buys the reward ``code`` at its cost (see the module docstring).

    :returns: ``{"reward": {...}, "price", "balance"}`` (the balance after paying).
    :raises DomainError: ``not_found`` (``reward``), ``conflict`` (``not_for_sale``,
        ``already_owned``, ``insufficient_points``).
    """
    try:
        await _write_lock(session, actor)
        reward = await reward_by_code(session, code)
        if not reward.active:
            raise _conflict("not_for_sale", "this reward is not for sale any more", code=reward.code)
        params: dict[str, Any] = {"reward": reward.code}
        entry = await credit(session, actor, -reward.cost, "reward", f"reward:{reward.id}", params=params)
        if entry is None:  # the player's ledger has this purchase: a second click
            raise _conflict("already_owned", "you have this reward already", code=reward.code)
        session.add(RewardPurchase(user_id=actor, reward_id=reward.id, price=reward.cost))
        await session.flush()  # the unique (user_id, reward_id) behind the ledger's key
        answer = {"reward": reward_json(reward), "price": reward.cost, "balance": entry.balance_after}
        await session.commit()
        return answer
    except IntegrityError:
        await session.rollback()
        raise _conflict("already_owned", "you have this reward already", code=code[:40]) from None
    except BaseException:
        await session.rollback()
        raise


async def equip(session: AsyncSession, actor: int, kind: str, code: str | None) -> dict[str, Any]:
    """Show the reward ``code`` (which the actor owns, of ``kind``) in place of any other of that
    kind; ``code`` None shows none of the kind.

    :returns: ``{"equipped": {kind: code}}``, every kind the actor now shows.
    :raises DomainError: ``validation_error`` (``kind``), ``not_found`` (``reward``), ``conflict``
        (``not_owned``, ``wrong_kind``).
    """
    try:
        if kind not in set(RewardKind):
            raise _bad("kind", f"one of {', '.join(RewardKind)}")
        await _write_lock(session, actor)
        await session.execute(
            delete(EquippedReward).where(EquippedReward.user_id == actor, EquippedReward.kind == kind)
        )
        if code is not None:
            reward = await reward_by_code(session, code)
            if reward.kind != kind:
                raise _conflict("wrong_kind", f"{reward.code} is a {reward.kind}", code=reward.code, kind=reward.kind)
            bought = await session.scalar(
                select(RewardPurchase.id).where(RewardPurchase.user_id == actor, RewardPurchase.reward_id == reward.id)
            )
            if bought is None:
                raise _conflict("not_owned", "buy this reward first", code=reward.code)
            insert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert
            await session.execute(
                insert(EquippedReward)
                .values(user_id=actor, kind=kind, reward_id=reward.id)
                .on_conflict_do_update(index_elements=["user_id", "kind"], set_={"reward_id": reward.id})
            )
        answer = {"equipped": (await owned(session, actor))["equipped"]}
        await session.commit()
        return answer
    except BaseException:
        await session.rollback()
        raise


def _check_cost(cost: int) -> int:
    if not 1 <= cost <= COST_MAX:
        raise _bad("cost", f"1 to {COST_MAX} points")
    return cost


async def create(session: AsyncSession, actor: int, *, code: str, kind: str, cost: int) -> dict[str, Any]:
    """An administrator adds the reward ``code`` (``CODE_PATTERN``) of ``kind`` at ``cost``
    points, for sale at once. The pages name a new code by the code itself until a word is added
    for it (templates/_reward.html).

    :returns: the reward (:func:`reward_json`).
    :raises DomainError: ``forbidden`` (``not_admin``), ``validation_error`` (``code``, ``kind``,
        ``cost``), ``name_taken`` (``field`` ``code``).
    """
    try:
        await _write_lock(session, actor)
        admin = await check_admin(session, actor)
        if not _CODE_RE.fullmatch(code):
            raise _bad("code", "2 to 40 lowercase letters, digits or _")
        if kind not in set(RewardKind):
            raise _bad("kind", f"one of {', '.join(RewardKind)}")
        reward = Reward(code=code, kind=kind, cost=_check_cost(cost), active=True, created_by=admin.id)
        session.add(reward)
        await session.flush()
        answer = reward_json(reward)
        await session.commit()
        return answer
    except IntegrityError:
        await session.rollback()
        raise DomainError(
            ErrorCode.NAME_TAKEN, f"a reward is called {code!r}", params={"field": "code", "code": code}
        ) from None
    except BaseException:
        await session.rollback()
        raise


async def update(
    session: AsyncSession, actor: int, code: str, *, cost: int | None = None, active: bool | None = None
) -> dict[str, Any]:
    """An administrator changes the cost of the reward ``code`` or puts it on or off sale
    (``active``; None: unchanged). Players who bought it keep it and may still show it; a new
    cost applies to purchases from now on.

    :returns: the reward (:func:`reward_json`).
    :raises DomainError: ``forbidden`` (``not_admin``), ``not_found`` (``reward``),
        ``validation_error`` (``cost``).
    """
    try:
        await _write_lock(session, actor)
        await check_admin(session, actor)
        reward = await reward_by_code(session, code)
        if cost is not None:
            reward.cost = _check_cost(cost)
        if active is not None:
            reward.active = active
        await session.flush()
        answer = reward_json(reward)
        await session.commit()
        return answer
    except BaseException:
        await session.rollback()
        raise
