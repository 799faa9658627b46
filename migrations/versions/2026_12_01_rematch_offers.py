"""rematch offers: at most one per finished match (``app/matches/rematch.py``).

Revision ID: 3b8e5d1f7a24
Revises: f3b8c1d2e4a5
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "3b8e5d1f7a24"
down_revision: str | None = 'f3b8c1d2e4a5'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rematch_offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("offered_by", sa.Integer(), nullable=True),
        sa.Column("agreed", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("declined_by", sa.Integer(), nullable=True),
        sa.Column("rematch_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_rematch_offers_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["offered_by"], ["users.id"], name=op.f("fk_rematch_offers_offered_by_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["declined_by"], ["users.id"], name=op.f("fk_rematch_offers_declined_by_users"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["rematch_id"], ["matches.id"], name=op.f("fk_rematch_offers_rematch_id_matches"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rematch_offers")),
        sa.UniqueConstraint("match_id", name=op.f("uq_rematch_offers_match_id")),
    )


def downgrade() -> None:
    op.drop_table("rematch_offers")
