"""clan challenges (issue 13, item 3): ``challenges`` (a series of boards between two clans: game,
match options, boards 1-10, deadline, status, result) and ``challenge_boards`` (each board's two
players, its match, its result or forfeit; unique per challenge and board).

Revision ID: a7c3e5f9b1d2
Revises: e5c6d7a8b9f0
Create Date: 2026-11-30 22:40:27.689253
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "a7c3e5f9b1d2"
down_revision: str | None = "e5c6d7a8b9f0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("challenged_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("boards", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("deadline_done", sa.Boolean(), nullable=False),
        sa.Column("challenger_wins", sa.Integer(), nullable=False),
        sa.Column("challenged_wins", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(length=8), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("boards >= 1 AND boards <= 10", name=op.f("ck_challenges_boards_range")),
        sa.CheckConstraint("challenger_id <> challenged_id", name=op.f("ck_challenges_two_clans")),
        sa.ForeignKeyConstraint(
            ["challenged_id"], ["clans.id"], name=op.f("fk_challenges_challenged_id_clans"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["challenger_id"], ["clans.id"], name=op.f("fk_challenges_challenger_id_clans"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["created_by"], ["users.id"], name=op.f("fk_challenges_created_by_users"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
    )
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_challenges_challenged_id"), ["challenged_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_challenges_challenger_id"), ["challenger_id"], unique=False)
        batch_op.create_index("ix_challenges_status_deadline", ["status", "deadline"], unique=False)

    op.create_table(
        "challenge_boards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenge_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("challenger_player_id", sa.Integer(), nullable=True),
        sa.Column("challenged_player_id", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("starting_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("winner", sa.String(length=12), nullable=True),
        sa.Column("forfeit", sa.String(length=12), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["challenge_id"],
            ["challenges.id"],
            name=op.f("fk_challenge_boards_challenge_id_challenges"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["challenged_player_id"],
            ["users.id"],
            name=op.f("fk_challenge_boards_challenged_player_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["challenger_player_id"],
            ["users.id"],
            name=op.f("fk_challenge_boards_challenger_player_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_challenge_boards_match_id_matches"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenge_boards")),
        sa.UniqueConstraint("challenge_id", "board", name="uq_challenge_boards_challenge_board"),
    )
    with op.batch_alter_table("challenge_boards", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_challenge_boards_match_id"), ["match_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("challenge_boards", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_challenge_boards_match_id"))

    op.drop_table("challenge_boards")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index("ix_challenges_status_deadline")
        batch_op.drop_index(batch_op.f("ix_challenges_challenger_id"))
        batch_op.drop_index(batch_op.f("ix_challenges_challenged_id"))

    op.drop_table("challenges")
