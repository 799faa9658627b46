"""bot accounts: ``users.is_bot`` marks an account its owner plays through the API with a program
(docs/bots.md); shown as "BOT" wherever names are shown.

Revision ID: 3b8e5f0c2d71
Revises: a3f8d21c5e07
Create Date: 2026-11-30 20:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3b8e5f0c2d71"
down_revision: str | None = "a3f8d21c5e07"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # a plain ADD COLUMN on SQLite too: a batch copy of ``users`` would drop the old table, and its
    # ON DELETE rules would clear the rows that name a user (match_results.user_id)
    op.add_column("users", sa.Column("is_bot", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    op.drop_column("users", "is_bot")
