"""seat time bank: ``match_seats.bank_ms``, a time bank match's bank of each seat (milliseconds)
when its clock last stopped; null for a per-turn match and for a seat whose bank was never
touched (app/matches/time_control.py).

Revision ID: d1e2f3a4b5c6
Revises: f2b3c4d5e6a7
Create Date: 2026-12-01 10:00:00
"""
from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = 'd1e2f3a4b5c6'
down_revision: str | None = 'f2b3c4d5e6a7'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('match_seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bank_ms', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('match_seats', schema=None) as batch_op:
        batch_op.drop_column('bank_ms')
