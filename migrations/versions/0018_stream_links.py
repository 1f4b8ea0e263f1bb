"""stream_links: a game's stream view (the overlay for OBS or vMix), its link's token, its
delay and whether it is revoked

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stream_links",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("delay_seconds", sa.Integer(), nullable=False),
        sa.Column("revoked", sa.Boolean(), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_stream_links_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_stream_links")),
        sa.UniqueConstraint("token", name=op.f("uq_stream_links_token")),
    )


def downgrade() -> None:
    op.drop_table("stream_links")
