"""result_deliveries (consumer, result_id): the index a claim reads its floor from (the newest row
the consumer applied, ``app.matches.results``), so a claim looks only at the newest result rows
instead of walking every row ever written (issue 9).

Revision ID: 4d2f8a6c1e93
Revises: 9c4e1a7b2d63
Create Date: 2026-12-03 10:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "4d2f8a6c1e93"
down_revision: str | None = "9c4e1a7b2d63"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_result_deliveries_consumer_result", "result_deliveries", ["consumer", "result_id"])


def downgrade() -> None:
    op.drop_index("ix_result_deliveries_consumer_result", table_name="result_deliveries")
