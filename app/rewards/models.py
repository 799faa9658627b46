"""Reward tables: ``rewards`` (the catalogue), ``reward_purchases`` (who owns what) and
``equipped_rewards`` (what each player has chosen to show, one per kind).

A reward's ``code`` is what the pages name it by (templates/_reward.html); the database holds no
words. A purchase is unique per ``(user_id, reward_id)``, and its debit in ``points_ledger`` is
unique per ``(user_id, "reward", "reward:<reward_id>")``: two keys, so a second click, or two
at once, can never buy the same reward twice or spend twice.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

#: a reward code: 2-40 lowercase letters, digits and ``_``
CODE_PATTERN = r"^[a-z0-9_]{2,40}$"
CODE_MAX = 40
#: the highest price a reward may have
COST_MAX = 1_000_000


class RewardKind(StrEnum):
    """What a reward is: a board theme, a card back, a profile emblem, a title beside the name."""

    BOARD_THEME = "board_theme"
    CARD_BACK = "card_back"
    EMBLEM = "emblem"
    TITLE = "title"


class Reward(Base):
    """One reward of the catalogue: ``code`` (unique, named by the pages), ``kind``
    (:class:`RewardKind`), ``cost`` in points (at least 1), ``active`` (for sale; an inactive
    reward stays with those who bought it), ``created_by`` (the administrator; NULL for the seed
    catalogue of the migration)."""

    __tablename__ = "rewards"

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(CODE_MAX), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    cost: Mapped[int]
    active: Mapped[bool] = mapped_column(default=True, server_default=true())
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (CheckConstraint("cost > 0", name="cost_positive"),)


class RewardPurchase(Base):
    """A player's purchase of a reward, at ``price`` points (the cost when bought)."""

    __tablename__ = "reward_purchases"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    reward_id: Mapped[int] = mapped_column(ForeignKey("rewards.id", ondelete="CASCADE"))
    price: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=utcnow)

    __table_args__ = (UniqueConstraint("user_id", "reward_id", name="uq_reward_purchases_once"),)


class EquippedReward(Base):
    """The reward of one ``kind`` a player shows (their title beside the name on the profile, their
    emblem, their board and card-back themes): at most one per kind."""

    __tablename__ = "equipped_rewards"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    reward_id: Mapped[int] = mapped_column(ForeignKey("rewards.id", ondelete="CASCADE"))
