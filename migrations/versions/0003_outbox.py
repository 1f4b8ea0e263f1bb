"""outbox: messages to send, messages edited in place, unreachable chats, scheduled pushes

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _message_columns(table: str) -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("attachment_kind", sa.String(length=16), nullable=True),
        sa.Column("attachment_name", sa.String(length=255), nullable=True),
        sa.Column("attachment", sa.LargeBinary(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f(f"fk_{table}_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("dedupe_key", sa.String(length=255), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("not_before", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("CURRENT_TIMESTAMP"),
            nullable=False,
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("telegram_message_id", sa.BigInteger(), nullable=True),
        sa.Column("error", sa.String(length=255), nullable=True),
        *_message_columns("outbox"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
        sa.UniqueConstraint("dedupe_key", name=op.f("uq_outbox_dedupe_key")),
    )
    op.create_index("ix_outbox_status_id", "outbox", ["status", "id"])
    op.create_table(
        "message_anchors",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_message_anchors")),
    )
    op.create_table(
        "unreachable_chats",
        sa.Column("chat_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.String(length=255), nullable=False),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_unreachable_chats")),
    )
    op.create_table(
        "scheduled_pushes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        *_message_columns("scheduled_pushes"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scheduled_pushes")),
        sa.UniqueConstraint("key", name=op.f("uq_scheduled_pushes_key")),
    )
    op.create_index(
        op.f("ix_scheduled_pushes_due_at"), "scheduled_pushes", ["due_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_scheduled_pushes_due_at"), table_name="scheduled_pushes")
    op.drop_table("scheduled_pushes")
    op.drop_table("unreachable_chats")
    op.drop_table("message_anchors")
    op.drop_index("ix_outbox_status_id", table_name="outbox")
    op.drop_table("outbox")
