"""outbox: the key of an edit drawn when it is sent, so a newer one of the same message
supersedes it while both wait (the live table)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Messages stored before have none: they are sent as they were.
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("drawn_edit", sa.String(255), nullable=True))
        batch.create_index("ix_outbox_drawn_edit_status", ["drawn_edit", "status"])


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_index("ix_outbox_drawn_edit_status")
        batch.drop_column("drawn_edit")
