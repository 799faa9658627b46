"""match chat: the quick-chat lines of a match (a seat and a phrase code, never free text), kept so a
reloaded page shows the recent conversation (``app/matches/chat.py``).

Revision ID: 3b8e6d2c9f41
Revises: 3b8e5d1f7a24
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3b8e6d2c9f41"
down_revision: str | None = "3b8e5d1f7a24"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "match_chat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("phrase", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_chat_match_id_matches"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_match_chat_user_id_users"), ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_chat")),
    )
    with op.batch_alter_table("match_chat", schema=None) as batch_op:
        batch_op.create_index("ix_match_chat_match_id_id", ["match_id", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("match_chat", schema=None) as batch_op:
        batch_op.drop_index("ix_match_chat_match_id_id")
    op.drop_table("match_chat")
