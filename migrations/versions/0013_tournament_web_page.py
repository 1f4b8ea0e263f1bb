"""tournaments: who may open the public web page, and the token of an unlisted page's link

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        # Existing tournaments' pages are public, as their channels are.
        batch.add_column(
            sa.Column("web_visibility", sa.String(16), nullable=False, server_default="public")
        )
        batch.add_column(sa.Column("web_token", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("web_token")
        batch.drop_column("web_visibility")
