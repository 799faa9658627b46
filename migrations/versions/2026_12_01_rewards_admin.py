"""rewards and the administrators' audit (issue 13, items 5 and 6): ``admin_actions`` (every grant
or revoke of a rank and adjustment of points by an administrator, with the note), ``rewards`` (the
catalogue, seeded with two board themes, two card backs, two emblems and two titles; the pages
name them from their codes), ``reward_purchases`` (unique per player and reward) and
``equipped_rewards`` (one shown reward per player and kind).

Revision ID: e5c6d7a8b9f0
Revises: f7a8b9c0d1e2
Create Date: 2026-12-01 09:00:00
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "e5c6d7a8b9f0"
down_revision: str | None = "f7a8b9c0d1e2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the seed catalogue: (code, kind, cost in points); words in templates/_reward.html
SEED = [
    ("board_oak", "board_theme", 100),
    ("board_marble", "board_theme", 150),
    ("back_runes", "card_back", 80),
    ("back_stars", "card_back", 120),
    ("emblem_dragon", "emblem", 200),
    ("emblem_crown", "emblem", 300),
    ("title_wandering_knight", "title", 150),
    ("title_rune_keeper", "title", 250),
]


def upgrade() -> None:
    json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")
    op.create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("params", json, nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["users.id"], name=op.f("fk_admin_actions_by_user_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_admin_actions_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_actions")),
    )
    with op.batch_alter_table("admin_actions", schema=None) as batch_op:
        batch_op.create_index("ix_admin_actions_user_id_id", ["user_id", "id"], unique=False)

    rewards = op.create_table(
        "rewards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("cost", sa.Integer(), nullable=False),
        sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("cost > 0", name=op.f("ck_rewards_cost_positive")),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_rewards_created_by_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rewards")),
        sa.UniqueConstraint("code", name=op.f("uq_rewards_code")),
    )
    op.create_table(
        "equipped_rewards",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reward_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["reward_id"], ["rewards.id"], name=op.f("fk_equipped_rewards_reward_id_rewards"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_equipped_rewards_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "kind", name=op.f("pk_equipped_rewards")),
    )
    op.create_table(
        "reward_purchases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("reward_id", sa.Integer(), nullable=False),
        sa.Column("price", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["reward_id"], ["rewards.id"], name=op.f("fk_reward_purchases_reward_id_rewards"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_reward_purchases_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reward_purchases")),
        sa.UniqueConstraint("user_id", "reward_id", name="uq_reward_purchases_once"),
    )
    now = datetime.now(UTC)
    op.bulk_insert(
        rewards,
        [
            {"code": code, "kind": kind, "cost": cost, "active": True, "created_by": None, "created_at": now}
            for code, kind, cost in SEED
        ],
    )


def downgrade() -> None:
    op.drop_table("reward_purchases")
    op.drop_table("equipped_rewards")
    op.drop_table("rewards")
    with op.batch_alter_table("admin_actions", schema=None) as batch_op:
        batch_op.drop_index("ix_admin_actions_user_id_id")
    op.drop_table("admin_actions")
