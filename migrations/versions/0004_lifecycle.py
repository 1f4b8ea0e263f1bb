"""lifecycle: tournament settings, participants, teams, staff, organizers, invites

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _settings() -> list[sa.Column]:
    return [
        sa.Column("regulation_json", sa.Text(), nullable=True),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("timetable_json", sa.Text(), nullable=True),
        sa.Column("capacity", sa.Integer(), nullable=True),
        sa.Column("registration_deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("entry_fee", sa.Numeric(precision=12, scale=2), nullable=True),
        sa.Column("club_quota", sa.Integer(), nullable=True),
        sa.Column("checkin_cutoff", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        for column in _settings():
            batch.add_column(column)
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=48), nullable=False),
        sa.Column("captain_id", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_teams_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_teams")),
    )
    op.create_index(op.f("ix_teams_tournament_id"), "teams", ["tournament_id"])
    op.create_table(
        "participants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("nickname", sa.String(length=32), nullable=False),
        sa.Column("club", sa.String(length=64), nullable=False),
        sa.Column("city", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("paid", sa.Boolean(), nullable=False),
        sa.Column("checked_in", sa.Boolean(), nullable=False),
        sa.Column("substitute_for", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_participants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.telegram_id"], name=op.f("fk_participants_user_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["team_id"],
            ["teams.id"],
            name=op.f("fk_participants_team_id_teams"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["substitute_for"],
            ["participants.id"],
            name=op.f("fk_participants_substitute_for_participants"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_participants")),
        sa.UniqueConstraint("tournament_id", "user_id", name=op.f("uq_participants_tournament_id")),
    )
    op.create_index(op.f("ix_participants_tournament_id"), "participants", ["tournament_id"])
    op.create_table(
        "staff",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_staff_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.telegram_id"], name=op.f("fk_staff_user_id_users")
        ),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_staff")),
    )
    op.create_table(
        "organizers",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("appointed_by", sa.BigInteger(), nullable=False),
        sa.Column("appointed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.telegram_id"], name=op.f("fk_organizers_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_organizers")),
    )
    op.create_table(
        "invites",
        sa.Column("token", sa.String(length=32), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("team_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_by", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_invites_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name=op.f("fk_invites_team_id_teams"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_invites")),
    )
    op.create_index(op.f("ix_invites_tournament_id"), "invites", ["tournament_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_invites_tournament_id"), table_name="invites")
    op.drop_table("invites")
    op.drop_table("organizers")
    op.drop_table("staff")
    op.drop_index(op.f("ix_participants_tournament_id"), table_name="participants")
    op.drop_table("participants")
    op.drop_index(op.f("ix_teams_tournament_id"), table_name="teams")
    op.drop_table("teams")
    with op.batch_alter_table("tournaments") as batch:
        for column in reversed(_settings()):
            batch.drop_column(column.name)
