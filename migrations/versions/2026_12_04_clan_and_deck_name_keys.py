"""clan and deck names as account names are (issue 15): ``clans.name_skeleton`` (indexed, NULL for a
disbanded clan, as ``name_key`` is) holds each live clan name's look-alike skeleton, so a new clan
name mixing scripts cannot pass for an old one; ``decks.name_key`` holds each deck name's NFKC
case-folded key, and ``(user_id, game, name_key)`` replaces ``(user_id, game, name)`` as the unique
key, so ``Anvil`` and ``anvil`` are one deck name.

Existing decks of one user and game whose names now collide: the oldest (by ``created_at``, then
id) keeps its name; each newer one is renamed with `` (2)`` appended (`` (3)``, ... when that is
taken too; the name is shortened to fit 60 characters), so no deck is lost.

The data step imports :mod:`app.users.names`: keys and skeletons must be the ones the server
computes.

Revision ID: 8c21337c338e
Revises: 4d2f8a6c1e93
Create Date: 2026-12-04 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.users.names import name_key, skeleton

revision: str = "8c21337c338e"
down_revision: str | None = "4d2f8a6c1e93"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DECK_NAME_MAX = 60


def upgrade() -> None:
    with op.batch_alter_table("clans", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_skeleton", sa.String(length=120), nullable=True))
        batch_op.create_index(batch_op.f("ix_clans_name_skeleton"), ["name_skeleton"], unique=False)
    with op.batch_alter_table("decks", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(length=180), nullable=True))
    bind = op.get_bind()
    clans = sa.table(
        "clans",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("name_skeleton", sa.String),
    )
    live = sa.select(clans.c.id, clans.c.name).where(clans.c.name_key.is_not(None))
    for clan_id, name in bind.execute(live).all():
        bind.execute(clans.update().where(clans.c.id == clan_id).values(name_skeleton=skeleton(name)))
    decks = sa.table(
        "decks",
        sa.column("id", sa.Integer),
        sa.column("user_id", sa.Integer),
        sa.column("game", sa.String),
        sa.column("name", sa.String),
        sa.column("name_key", sa.String),
        sa.column("created_at", sa.DateTime),
    )
    taken: set[tuple[int, str, str]] = set()
    rows = bind.execute(
        sa.select(decks.c.id, decks.c.user_id, decks.c.game, decks.c.name).order_by(decks.c.created_at, decks.c.id)
    ).all()
    for deck_id, user_id, game, name in rows:
        new_name, n = name, 1
        while (user_id, game, name_key(new_name)) in taken:
            n += 1
            suffix = f" ({n})"
            new_name = name[: DECK_NAME_MAX - len(suffix)] + suffix
        taken.add((user_id, game, name_key(new_name)))
        bind.execute(decks.update().where(decks.c.id == deck_id).values(name=new_name, name_key=name_key(new_name)))
    with op.batch_alter_table("decks", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=180), nullable=False)
        batch_op.drop_constraint("uq_decks_user_game_name", type_="unique")
        batch_op.create_unique_constraint("uq_decks_user_game_name_key", ["user_id", "game", "name_key"])


def downgrade() -> None:
    # names unique ignoring case are unique as they are, so the old key holds
    with op.batch_alter_table("decks", schema=None) as batch_op:
        batch_op.drop_constraint("uq_decks_user_game_name_key", type_="unique")
        batch_op.create_unique_constraint("uq_decks_user_game_name", ["user_id", "game", "name"])
        batch_op.drop_column("name_key")
    with op.batch_alter_table("clans", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_clans_name_skeleton"))
        batch_op.drop_column("name_skeleton")
