"""protocols: how and when the game ended, beside the protocol's body

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_protocols = sa.table(
    "protocols",
    sa.column("game_id", sa.Integer()),
    sa.column("body", sa.Text()),
    sa.column("game_end", sa.String()),
    sa.column("ended_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    with op.batch_alter_table("protocols") as batch:
        batch.add_column(sa.Column("game_end", sa.String(length=32), nullable=True))
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_protocols_game_end", ["game_end"])
    # Protocols confirmed since the end of the game was recorded carry it in their body.
    connection = op.get_bind()
    for game_id, body in connection.execute(sa.select(_protocols.c.game_id, _protocols.c.body)):
        data = json.loads(body)
        ended = data.get("ended_at")
        if ended or data.get("end"):
            connection.execute(
                _protocols.update()
                .where(_protocols.c.game_id == game_id)
                .values(
                    game_end=data.get("end"),
                    ended_at=datetime.fromisoformat(ended) if ended else None,
                )
            )


def downgrade() -> None:
    with op.batch_alter_table("protocols") as batch:
        batch.drop_index("ix_protocols_game_end")
        batch.drop_column("ended_at")
        batch.drop_column("game_end")
