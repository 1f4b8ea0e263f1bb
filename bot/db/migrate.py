"""Alembic driven from code: on start-up, by `mafiatour migrate`, and by the stairway test.

Alembic is imported only when there is something to migrate (or a command asks): a start on a
database already at the newest schema, the usual one, finds that with one query and leaves
Alembic's 11 MB out of the bot's process."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
# Replicas starting together migrate one after another: the others find the schema up to date.
MIGRATION_LOCK = 0x6D61666961  # "mafia"


def alembic_config(url: str | None = None) -> Config:
    """The Alembic configuration of this project, without an alembic.ini."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def revisions() -> list[str]:
    """Every revision id, oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config())
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the database up to `revision` (by default the newest schema)."""
    if revision == "head" and await _stored_revision(engine) == newest_revision():
        return
    from alembic import command

    await _run(engine, lambda config: command.upgrade(config, revision))


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Take the database down to `revision` ("base" removes every table)."""
    from alembic import command

    await _run(engine, lambda config: command.downgrade(config, revision))


def newest_revision() -> str:
    """The newest schema's revision without Alembic: each migration's file is named after its
    revision (`0018_stream_links.py` is revision "0018"), and they follow one another."""
    return max(path.name.split("_", 1)[0] for path in (MIGRATIONS_DIR / "versions").glob("0*.py"))


async def _stored_revision(engine: AsyncEngine) -> str | None:
    """The revision Alembic recorded in the database (None: none, or no table yet)."""
    try:
        async with engine.connect() as connection:
            stored = await connection.scalar(text("SELECT version_num FROM alembic_version"))
    except DBAPIError:
        return None
    return None if stored is None else str(stored)


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
