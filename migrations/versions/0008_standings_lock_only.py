"""standings: only the results lock remains (standings are computed on read)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("standings") as batch:
        batch.drop_column("computed_at")
        batch.drop_column("body")


def downgrade() -> None:
    with op.batch_alter_table("standings") as batch:
        batch.add_column(sa.Column("body", sa.Text(), nullable=True))
        batch.add_column(sa.Column("computed_at", sa.DateTime(timezone=True), nullable=True))
