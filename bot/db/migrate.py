"""Alembic driven from code: on start-up, by `mafiatour migrate`, and by the stairway test."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
# Replicas starting together migrate one after another: the others find the schema up to date.
MIGRATION_LOCK = 0x6D61666961  # "mafia"


def alembic_config(url: str | None = None) -> Config:
    """The Alembic configuration of this project, without an alembic.ini."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database up to `revision` (by default the newest schema)."""
    await _run(engine, lambda config: command.upgrade(config, revision))


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Take the database down to `revision` ("base" removes every table)."""
    await _run(engine, lambda config: command.downgrade(config, revision))


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at, or None for an empty database."""
    from alembic.runtime.migration import MigrationContext

    def read(connection: Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as connection:
        return await connection.run_sync(read)


async def _run(engine: AsyncEngine, action) -> None:
    def run_sync(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        action(config)

    async with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            await connection.execute(text(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        await connection.run_sync(run_sync)
