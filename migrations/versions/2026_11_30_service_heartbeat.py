"""service heartbeat: when a server process last ran, so deadlines move by the downtime after a
restart (``app/matches/heartbeat.py``).

Revision ID: 7c1d2f9a4b60
Revises: e91c230b0a62
Create Date: 2026-11-30 17:45:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7c1d2f9a4b60"
down_revision: str | None = "e91c230b0a62"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "service_heartbeat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_service_heartbeat")),
    )


def downgrade() -> None:
    op.drop_table("service_heartbeat")
