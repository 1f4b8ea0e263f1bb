"""tournaments: the language of the channel's posts, and how the channel is shown

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        # Tournaments created before the choice posted in Russian.
        batch.add_column(sa.Column("locale", sa.String(8), nullable=False, server_default="ru"))
        batch.add_column(sa.Column("channel_name", sa.String(256), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("channel_name")
        batch.drop_column("locale")
