"""rating counts, history and standings indexes: ``rating_counts`` (players per rating value per pool), kept by
the ratings consumer, so that a ladder page and a player's rank sum about a thousand counts instead
of skipping the index entries of every player above them (filled from the ``ratings`` rows already
there); ``ix_rating_changes_history`` ``(user_id, pool, at, match_id, rating_after)`` replaces
``(user_id, pool, at)``, so the profile's chart reads the index alone; ``ix_ladder_points_standings``
``(pool, season, points, wins, user_id)`` replaces ``(pool, season, points)``, so a season's
standings page and a rank read it alone, ties included (docs/performance.md, "Ladders and profiles").

Revision ID: c5d7e9f1a2b3
Revises: c7e4a91b2d18
Create Date: 2026-11-30 21:05:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = 'c5d7e9f1a2b3'
down_revision: str | None = 'c7e4a91b2d18'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('rating_counts',
    sa.Column('pool', sa.String(length=40), nullable=False),
    sa.Column('rating', sa.Integer(), nullable=False),
    sa.Column('players', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('pool', 'rating', name=op.f('pk_rating_counts'))
    )
    op.execute(
        "INSERT INTO rating_counts (pool, rating, players) "
        "SELECT pool, rating, count(*) FROM ratings GROUP BY pool, rating"
    )
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.create_index(
            'ix_rating_changes_history', ['user_id', 'pool', 'at', 'match_id', 'rating_after'], unique=False
        )
        batch_op.drop_index('ix_rating_changes_user_id_pool_at')
    with op.batch_alter_table('ladder_points', schema=None) as batch_op:
        batch_op.create_index(
            'ix_ladder_points_standings', ['pool', 'season', 'points', 'wins', 'user_id'], unique=False
        )
        batch_op.drop_index('ix_ladder_points_pool_season_points')


def downgrade() -> None:
    with op.batch_alter_table('ladder_points', schema=None) as batch_op:
        batch_op.create_index('ix_ladder_points_pool_season_points', ['pool', 'season', 'points'], unique=False)
        batch_op.drop_index('ix_ladder_points_standings')
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.create_index('ix_rating_changes_user_id_pool_at', ['user_id', 'pool', 'at'], unique=False)
        batch_op.drop_index('ix_rating_changes_history')
    op.drop_table('rating_counts')
