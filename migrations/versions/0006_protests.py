"""protests: players' protests with the chief judge's decisions, the organizer's protest switch,
and the tournament's audit log

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _cascade(column: str, table: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "protests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("photo", sa.String(length=256), nullable=True),
        sa.Column("filed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("open_key", sa.String(length=32), nullable=True),
        sa.Column("decided_by", sa.BigInteger(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decision", sa.Text(), nullable=True),
        _cascade("tournament_id", "protests", "tournaments"),
        _cascade("game_id", "protests", "games"),
        sa.ForeignKeyConstraint(
            ["participant_id"],
            ["participants.id"],
            name=op.f("fk_protests_participant_id_participants"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_protests")),
        sa.UniqueConstraint("open_key", name=op.f("uq_protests_open_key")),
    )
    op.create_index(op.f("ix_protests_tournament_id"), "protests", ["tournament_id"])
    op.create_index(op.f("ix_protests_game_id"), "protests", ["game_id"])
    op.create_table(
        "protest_switches",
        sa.Column("tournament_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        _cascade("tournament_id", "protest_switches", "tournaments"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_protest_switches")),
    )
    op.create_table(
        "audit_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("protest_id", sa.Integer(), nullable=True),
        _cascade("tournament_id", "audit_entries", "tournaments"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_entries")),
    )
    op.create_index(op.f("ix_audit_entries_tournament_id"), "audit_entries", ["tournament_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_audit_entries_tournament_id"), table_name="audit_entries")
    op.drop_table("audit_entries")
    op.drop_table("protest_switches")
    op.drop_index(op.f("ix_protests_game_id"), table_name="protests")
    op.drop_index(op.f("ix_protests_tournament_id"), table_name="protests")
    op.drop_table("protests")
