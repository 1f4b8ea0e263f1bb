"""rounds: stages with their seed, rounds, table games and seats, protocols and standings

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _cascade(column: str, table: str, target: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete="CASCADE"
    )


def upgrade() -> None:
    op.create_table(
        "stages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("stage", sa.String(length=32), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _cascade("tournament_id", "stages", "tournaments"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stages")),
        sa.UniqueConstraint("tournament_id", "stage", name=op.f("uq_stages_tournament_id")),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("stage_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("sit_outs", sa.Text(), nullable=False),
        sa.Column("published_at", sa.DateTime(timezone=True), nullable=True),
        _cascade("stage_id", "rounds", "stages"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("stage_id", "number", name=op.f("uq_rounds_stage_id")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("judge_id", sa.BigInteger(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("protest_until", sa.DateTime(timezone=True), nullable=True),
        _cascade("round_id", "games", "rounds"),
        sa.ForeignKeyConstraint(
            ["judge_id"], ["users.telegram_id"], name=op.f("fk_games_judge_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("round_id", "table_number", name=op.f("uq_games_round_id")),
    )
    op.create_index(op.f("ix_games_judge_id"), "games", ["judge_id"])
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("participant_id", sa.Integer(), nullable=False),
        _cascade("game_id", "game_seats", "games"),
        sa.ForeignKeyConstraint(
            ["participant_id"],
            ["participants.id"],
            name=op.f("fk_game_seats_participant_id_participants"),
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_seats")),
    )
    op.create_table(
        "protocol_drafts",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_by", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        _cascade("game_id", "protocol_drafts", "games"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_protocol_drafts")),
    )
    op.create_table(
        "protocols",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("confirmed_by", sa.BigInteger(), nullable=False),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=False),
        _cascade("game_id", "protocols", "games"),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_protocols")),
    )
    op.create_table(
        "protocol_corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("corrected_by", sa.BigInteger(), nullable=False),
        sa.Column("corrected_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.Text(), nullable=False),
        sa.Column("after", sa.Text(), nullable=False),
        _cascade("game_id", "protocol_corrections", "games"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_protocol_corrections")),
    )
    op.create_index(op.f("ix_protocol_corrections_game_id"), "protocol_corrections", ["game_id"])
    op.create_table(
        "standings",
        sa.Column("tournament_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=True),
        _cascade("tournament_id", "standings", "tournaments"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_standings")),
    )


def downgrade() -> None:
    op.drop_table("standings")
    op.drop_index(op.f("ix_protocol_corrections_game_id"), table_name="protocol_corrections")
    op.drop_table("protocol_corrections")
    op.drop_table("protocols")
    op.drop_table("protocol_drafts")
    op.drop_table("game_seats")
    op.drop_index(op.f("ix_games_judge_id"), table_name="games")
    op.drop_table("games")
    op.drop_table("rounds")
    op.drop_table("stages")
