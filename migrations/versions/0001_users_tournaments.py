"""users and tournaments

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("telegram_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("first_name", sa.String(length=128), nullable=False),
        sa.Column("last_name", sa.String(length=128), nullable=True),
        sa.Column("username", sa.String(length=64), nullable=True),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column(
            "created_at",
            sa.DateTime(timezone=True),
            server_default=sa.text("CURRENT_TIMESTAMP"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("telegram_id", name=op.f("pk_users")),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=128), nullable=False),
        sa.Column("regulation_id", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=32), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("city", sa.String(length=128), nullable=True),
        sa.Column("venue", sa.String(length=256), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("current_stage", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by"],
            ["users.telegram_id"],
            name=op.f("fk_tournaments_created_by_users"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )


def downgrade() -> None:
    op.drop_table("tournaments")
    op.drop_table("users")
