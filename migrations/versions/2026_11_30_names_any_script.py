"""names in any script (issue 15): ``users.name_key`` and ``clans.name_key`` hold the NFKC
case-folded name, which case folding may make up to three times longer (``ß`` is ``ss``), so both
columns widen; ``users.name_skeleton`` (indexed) holds each name's look-alike skeleton, filled for
the names already there, so a new name mixing scripts cannot pass for an old one
(``app/users/names.py``). Existing keys are recomputed (names of ASCII letters keep theirs).

The data step imports :mod:`app.users.names`: the skeleton must be the one the server computes.

Revision ID: f3b8c1d2e4a5
Revises: e1a2b3c4d5f6
Create Date: 2026-11-30 23:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.users.names import name_key, skeleton

revision: str = "f3b8c1d2e4a5"
down_revision: str | None = "e1a2b3c4d5f6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=24), type_=sa.String(length=72))
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=72), nullable=True))
        batch_op.create_index(batch_op.f("ix_users_name_skeleton"), ["name_skeleton"], unique=False)
    with op.batch_alter_table("clans", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=40), type_=sa.String(length=120))
    bind = op.get_bind()
    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("name_skeleton", sa.String),
    )
    for user_id, name in bind.execute(sa.select(users.c.id, users.c.name)).all():
        bind.execute(
            users.update().where(users.c.id == user_id).values(name_key=name_key(name), name_skeleton=skeleton(name))
        )
    clans = sa.table(
        "clans", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String)
    )
    for clan_id, name in bind.execute(sa.select(clans.c.id, clans.c.name).where(clans.c.name_key.is_not(None))).all():
        bind.execute(clans.update().where(clans.c.id == clan_id).values(name_key=name_key(name)))


def downgrade() -> None:
    with op.batch_alter_table("clans", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=120), type_=sa.String(length=40))
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_users_name_skeleton"))
        batch_op.drop_column("name_skeleton")
        batch_op.alter_column("name_key", existing_type=sa.String(length=72), type_=sa.String(length=24))
