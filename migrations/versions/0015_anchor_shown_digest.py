"""message_anchors: a digest of the text and keyboard a message kept up to date in place was
last sent with, so an edit that would change nothing is not sent (Telegram refuses it)

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Messages anchored before have none: their next edit is sent as before.
    with op.batch_alter_table("message_anchors") as batch:
        batch.add_column(sa.Column("shown_digest", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("message_anchors") as batch:
        batch.drop_column("shown_digest")
