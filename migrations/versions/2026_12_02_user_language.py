"""users.language: the language a player chose for the site (issue 15; app/i18n/), NULL until
they choose (the pages then follow the ``arena_lang`` cookie or the browser's Accept-Language).

Revision ID: 9c4e1a7b2d63
Revises: a7c3e5f9b1d2
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9c4e1a7b2d63"
down_revision: str | None = "a7c3e5f9b1d2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language")
