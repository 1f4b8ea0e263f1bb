"""command_menus: a digest of the command menu last set on Telegram for each scope, so a
menu that would not change is not set again (at a command, at a restart); participants
indexed by person, as a person's roles ask whether he plays anywhere

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Empty at first: every menu is set once more, then only when it changes.
    op.create_table(
        "command_menus",
        sa.Column("scope", sa.String(length=96), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("scope", name=op.f("pk_command_menus")),
    )
    op.create_index(op.f("ix_participants_user_id"), "participants", ["user_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_participants_user_id"), table_name="participants")
    op.drop_table("command_menus")
