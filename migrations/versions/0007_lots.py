"""lots: the chief judge's lot decisions on ties, and the games he annulled

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _cascade(column: str, table: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "lot_decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("unit", sa.String(length=16), nullable=False),
        sa.Column("context", sa.String(length=64), nullable=False),
        sa.Column("tied", sa.Text(), nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=False),
        sa.Column("drawn_order", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.BigInteger(), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        _cascade("tournament_id", "lot_decisions", "tournaments"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lot_decisions")),
    )
    op.create_index(op.f("ix_lot_decisions_tournament_id"), "lot_decisions", ["tournament_id"])
    op.create_table(
        "annulled_games",
        sa.Column("game_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("annulled_by", sa.BigInteger(), nullable=False),
        sa.Column("annulled_at", sa.DateTime(timezone=True), nullable=False),
        _cascade("game_id", "annulled_games", "games"),
        _cascade("tournament_id", "annulled_games", "tournaments"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_annulled_games")),
    )
    op.create_index(op.f("ix_annulled_games_tournament_id"), "annulled_games", ["tournament_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_annulled_games_tournament_id"), table_name="annulled_games")
    op.drop_table("annulled_games")
    op.drop_index(op.f("ix_lot_decisions_tournament_id"), table_name="lot_decisions")
    op.drop_table("lot_decisions")
