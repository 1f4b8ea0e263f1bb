"""delivery across replicas: outbox rows claimed by a process, leases, handled updates

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("claimed_by", sa.String(length=64), nullable=True))
        batch.add_column(
            sa.Column("maybe_duplicate", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch.add_column(sa.Column("reported_at", sa.DateTime(timezone=True), nullable=True))
    # The organizer was told of these one by one already: the first digest leaves them out.
    op.execute(
        "UPDATE outbox SET reported_at = finished_at WHERE status IN ('unreachable', 'uncertain')"
    )
    op.create_table(
        "leases",
        sa.Column("name", sa.String(length=128), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_leases")),
    )
    op.create_table(
        "handled_updates",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_handled_updates")),
    )
    op.create_index(
        op.f("ix_handled_updates_expires_at"), "handled_updates", ["expires_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_handled_updates_expires_at"), table_name="handled_updates")
    op.drop_table("handled_updates")
    op.drop_table("leases")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("reported_at")
        batch.drop_column("maybe_duplicate")
        batch.drop_column("claimed_by")
