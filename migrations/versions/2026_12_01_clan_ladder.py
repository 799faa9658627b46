"""clan ladders and wall (issue 13, items 4 and 7): ``ladder_months`` (each month and when its
close finished), ``ladder_closes`` (a region's close of a month is done: the exactly-once marker),
``clan_trophies`` (unique per region, month and place), ``clan_wall_posts``; an index of
``ladder_points`` by season and player for the clan standings.

Revision ID: f2b3c4d5e6a7
Revises: 3b8e6d2c9f41
Create Date: 2026-12-01 09:00:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f2b3c4d5e6a7"
down_revision: str | None = "3b8e6d2c9f41"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "ladder_months",
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("month", name=op.f("pk_ladder_months")),
    )
    op.create_table(
        "ladder_closes",
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("region", sa.String(length=8), nullable=False),
        sa.Column("trophies", sa.Integer(), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["month"], ["ladder_months.month"], name=op.f("fk_ladder_closes_month_ladder_months"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("month", "region", name=op.f("pk_ladder_closes")),
    )
    op.create_table(
        "clan_trophies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("clan_id", sa.Integer(), nullable=False),
        sa.Column("region", sa.String(length=8), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("bonus", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("place BETWEEN 1 AND 3", name=op.f("ck_clan_trophies_place_podium")),
        sa.ForeignKeyConstraint(
            ["clan_id"], ["clans.id"], name=op.f("fk_clan_trophies_clan_id_clans"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clan_trophies")),
        sa.UniqueConstraint("region", "month", "place", name="uq_clan_trophies_place"),
    )
    with op.batch_alter_table("clan_trophies", schema=None) as batch_op:
        batch_op.create_index("ix_clan_trophies_clan_id_month", ["clan_id", "month"], unique=False)
        batch_op.create_index("ix_clan_trophies_month", ["month"], unique=False)

    op.create_table(
        "clan_wall_posts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("clan_id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(length=280), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("removed_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"], ["users.id"], name=op.f("fk_clan_wall_posts_author_id_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["clan_id"], ["clans.id"], name=op.f("fk_clan_wall_posts_clan_id_clans"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["removed_by_id"], ["users.id"], name=op.f("fk_clan_wall_posts_removed_by_id_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clan_wall_posts")),
    )
    with op.batch_alter_table("clan_wall_posts", schema=None) as batch_op:
        batch_op.create_index("ix_clan_wall_posts_clan_id_id", ["clan_id", "id"], unique=False)

    with op.batch_alter_table("ladder_points", schema=None) as batch_op:
        batch_op.create_index("ix_ladder_points_season_user", ["season", "user_id", "points"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("ladder_points", schema=None) as batch_op:
        batch_op.drop_index("ix_ladder_points_season_user")

    with op.batch_alter_table("clan_wall_posts", schema=None) as batch_op:
        batch_op.drop_index("ix_clan_wall_posts_clan_id_id")

    op.drop_table("clan_wall_posts")
    with op.batch_alter_table("clan_trophies", schema=None) as batch_op:
        batch_op.drop_index("ix_clan_trophies_month")
        batch_op.drop_index("ix_clan_trophies_clan_id_month")

    op.drop_table("clan_trophies")
    op.drop_table("ladder_closes")
    op.drop_table("ladder_months")
