"""points, ranks and clan points (issue 13): ``player_points`` (balance, lifetime earnings),
``points_ledger`` (every credit and debit, unique per player, reason and reference), ``rank_changes``
(the audit of ``users.rank``), ``clan_points`` (clans' ladder points per month, unique per clan,
reason and reference); ``users.is_admin`` and ``users.rank`` (every existing player a Knight).

Revision ID: e1a2b3c4d5f6
Revises: c5d7e9f1a2b3
Create Date: 2026-11-30 22:35:58.615258
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "e1a2b3c4d5f6"
down_revision: str | None = "c5d7e9f1a2b3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "clan_points",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("clan_id", sa.Integer(), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=24), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("params", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["clan_id"], ["clans.id"], name=op.f("fk_clan_points_clan_id_clans"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clan_points")),
        sa.UniqueConstraint("clan_id", "reason", "ref", name="uq_clan_points_once"),
    )
    with op.batch_alter_table("clan_points", schema=None) as batch_op:
        batch_op.create_index("ix_clan_points_month_clan_id", ["month", "clan_id"], unique=False)

    op.create_table(
        "player_points",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("earned", sa.Integer(), nullable=False),
        sa.CheckConstraint("balance >= 0", name=op.f("ck_player_points_balance_not_negative")),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_points_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_points")),
    )
    op.create_table(
        "points_ledger",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("delta", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=24), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("balance_after", sa.Integer(), nullable=False),
        sa.Column("params", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_points_ledger_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_points_ledger")),
        sa.UniqueConstraint("user_id", "reason", "ref", name="uq_points_ledger_once"),
    )
    with op.batch_alter_table("points_ledger", schema=None) as batch_op:
        batch_op.create_index("ix_points_ledger_user_id_id", ["user_id", "id"], unique=False)

    op.create_table(
        "rank_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("old", sa.String(length=8), nullable=False),
        sa.Column("new", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.String(length=24), nullable=False),
        sa.Column("ref", sa.String(length=64), nullable=False),
        sa.Column("by_user_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["by_user_id"], ["users.id"], name=op.f("fk_rank_changes_by_user_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_rank_changes_user_id_users"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rank_changes")),
    )
    with op.batch_alter_table("rank_changes", schema=None) as batch_op:
        batch_op.create_index("ix_rank_changes_user_id_id", ["user_id", "id"], unique=False)

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("is_admin", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(sa.Column("rank", sa.String(length=8), server_default="knight", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("rank")
        batch_op.drop_column("is_admin")

    with op.batch_alter_table("rank_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_rank_changes_user_id_id")

    op.drop_table("rank_changes")
    with op.batch_alter_table("points_ledger", schema=None) as batch_op:
        batch_op.drop_index("ix_points_ledger_user_id_id")

    op.drop_table("points_ledger")
    op.drop_table("player_points")
    with op.batch_alter_table("clan_points", schema=None) as batch_op:
        batch_op.drop_index("ix_clan_points_month_clan_id")

    op.drop_table("clan_points")
