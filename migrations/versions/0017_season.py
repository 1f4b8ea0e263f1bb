"""season: persons across tournaments (backfilled from the participants), series, rated
tournaments with their category, rating events and ratings, club aliases, the season's audit

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _persons() -> None:
    op.create_table(
        "persons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("telegram_id", sa.BigInteger(), nullable=True),
        sa.Column("nickname", sa.String(length=32), nullable=False),
        sa.Column("club", sa.String(length=64), nullable=True),
        sa.Column("city", sa.String(length=64), nullable=True),
        sa.Column("hidden", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_persons")),
        sa.UniqueConstraint("telegram_id", name=op.f("uq_persons_telegram_id")),
    )
    op.create_table(
        "series",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=128), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("locale", sa.String(length=8), server_default="ru", nullable=False),
        sa.Column("points_table", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_series")),
    )


def _add_reference(table: str, column: str, target: str) -> None:
    """A nullable integer column referring to `target.id`. SQLite takes it in one plain
    ALTER TABLE (no rebuild of a table other tables refer to; SQLite reads no ON DELETE of
    such a column back, so there is none); PostgreSQL names its key."""
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            f"ALTER TABLE {table} ADD COLUMN {column} INTEGER "
            f"CONSTRAINT fk_{table}_{column}_{target} REFERENCES {target} (id)"
        )
        return
    op.add_column(table, sa.Column(column, sa.Integer(), nullable=True))
    op.create_foreign_key(op.f(f"fk_{table}_{column}_{target}"), table, target, [column], ["id"])


def _tournament_columns() -> None:
    # Plain ADD COLUMNs: SQLite adds them without rebuilding the tables others refer to.
    _add_reference("tournaments", "series_id", "series")
    op.add_column(
        "tournaments",
        sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column("tournaments", sa.Column("category_stars", sa.Integer(), nullable=True))
    op.add_column("tournaments", sa.Column("category_rating", sa.Float(), nullable=True))
    op.add_column("tournaments", sa.Column("import_digest", sa.String(length=64), nullable=True))
    op.create_index(op.f("ix_tournaments_series_id"), "tournaments", ["series_id"])
    op.create_index(
        op.f("ix_tournaments_import_digest"), "tournaments", ["import_digest"], unique=True
    )
    _add_reference("participants", "person_id", "persons")
    op.create_index(op.f("ix_participants_person_id"), "participants", ["person_id"])


def _backfill() -> None:
    """One person per distinct Telegram account (named as in his latest registration), one
    per imported participant; every participant linked to his."""
    bind = op.get_bind()
    rows = bind.execute(
        sa.text(
            "SELECT id, user_id, nickname, club, city, registered_at FROM participants "
            "ORDER BY registered_at, id"
        )
    ).all()
    latest: dict[int, sa.Row] = {}
    for row in rows:
        if row.user_id is not None:
            latest[row.user_id] = row
    insert = sa.text(
        "INSERT INTO persons (telegram_id, nickname, club, city, hidden, created_at) "
        "VALUES (:telegram_id, :nickname, :club, :city, :hidden, :created_at)"
    )
    link = sa.text("UPDATE participants SET person_id = :person WHERE id = :participant")
    created = sa.text("SELECT max(id) FROM persons")
    now = datetime.now(UTC)
    person_of_user: dict[int, int] = {}
    for row in rows:
        if row.user_id is not None and row.user_id in person_of_user:
            bind.execute(link, {"person": person_of_user[row.user_id], "participant": row.id})
            continue
        named = latest[row.user_id] if row.user_id is not None else row
        bind.execute(
            insert,
            {
                "telegram_id": row.user_id,
                "nickname": named.nickname,
                "club": named.club,
                "city": named.city,
                "hidden": False,
                "created_at": row.registered_at or now,
            },
        )
        person = bind.execute(created).scalar_one()
        if row.user_id is not None:
            person_of_user[row.user_id] = person
        bind.execute(link, {"person": person, "participant": row.id})


def _ratings() -> None:
    op.create_table(
        "rating_events",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("track", sa.String(length=8), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("before", sa.Float(), nullable=False),
        sa.Column("after", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["persons.id"],
            name=op.f("fk_rating_events_person_id_persons"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_rating_events_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_events_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("seq", "person_id", "track", name=op.f("pk_rating_events")),
    )
    op.create_index(
        "ix_rating_events_person_track_seq", "rating_events", ["person_id", "track", "seq"]
    )
    op.create_index(op.f("ix_rating_events_tournament_id"), "rating_events", ["tournament_id"])
    op.create_index(op.f("ix_rating_events_game_id"), "rating_events", ["game_id"])
    op.create_table(
        "person_ratings",
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("overall", sa.Float(), nullable=False),
        sa.Column("red", sa.Float(), nullable=False),
        sa.Column("black", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("red_games", sa.Integer(), nullable=False),
        sa.Column("black_games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["person_id"],
            ["persons.id"],
            name=op.f("fk_person_ratings_person_id_persons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("person_id", name=op.f("pk_person_ratings")),
    )
    op.create_table(
        "rating_state",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("season_version", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_state")),
    )


def _clubs_and_audit() -> None:
    op.create_table(
        "club_aliases",
        sa.Column("alias", sa.String(length=64), nullable=False),
        sa.Column("club", sa.String(length=64), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("alias", name=op.f("pk_club_aliases")),
    )
    op.create_table(
        "season_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=True),
        sa.Column("series_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season_audit")),
    )
    op.create_index(op.f("ix_season_audit_person_id"), "season_audit", ["person_id"])


def upgrade() -> None:
    _persons()
    _tournament_columns()
    _backfill()
    _ratings()
    _clubs_and_audit()


def _sqlite_drop_columns() -> None:
    """SQLite rebuilds `participants` and `tournaments` without the columns (batch mode). Its
    foreign keys stay on during migrations, so with games stored (tables referring to those
    two) the rebuild is refused and the downgrade rolls back whole."""
    with op.batch_alter_table("participants") as batch:
        batch.drop_column("person_id")
    with op.batch_alter_table("tournaments") as batch:
        for column in ("import_digest", "category_rating", "category_stars", "rated", "series_id"):
            batch.drop_column(column)


def downgrade() -> None:
    op.drop_index(op.f("ix_season_audit_person_id"), table_name="season_audit")
    op.drop_table("season_audit")
    op.drop_table("club_aliases")
    op.drop_table("rating_state")
    op.drop_table("person_ratings")
    op.drop_index(op.f("ix_rating_events_game_id"), table_name="rating_events")
    op.drop_index(op.f("ix_rating_events_tournament_id"), table_name="rating_events")
    op.drop_index("ix_rating_events_person_track_seq", table_name="rating_events")
    op.drop_table("rating_events")
    op.drop_index(op.f("ix_participants_person_id"), table_name="participants")
    op.drop_index(op.f("ix_tournaments_import_digest"), table_name="tournaments")
    op.drop_index(op.f("ix_tournaments_series_id"), table_name="tournaments")
    if op.get_bind().dialect.name == "sqlite":
        _sqlite_drop_columns()
    else:
        op.drop_column("participants", "person_id")
        for column in ("import_digest", "category_rating", "category_stars", "rated", "series_id"):
            op.drop_column("tournaments", column)
    op.drop_table("series")
    op.drop_table("persons")
