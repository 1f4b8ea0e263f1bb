"""The stairway: every revision goes up, down and up again on SQLite and PostgreSQL."""

from __future__ import annotations

from sqlalchemy import inspect

from bot.db.engine import create_engine
from bot.db.migrate import current_revision, downgrade, newest_revision, revisions, upgrade
from bot.db.models import Base


async def _tables(engine) -> set[str]:  # type: ignore[no-untyped-def]
    async with engine.connect() as connection:
        names = await connection.run_sync(lambda sync: inspect(sync).get_table_names())
    return set(names) - {"alembic_version"}


async def test_every_revision_goes_up_down_and_up_again(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        previous = "base"
        for revision in revisions():
            await upgrade(engine, revision)
            assert await current_revision(engine) == revision
            await downgrade(engine, previous)
            assert await current_revision(engine) == (None if previous == "base" else previous)
            await upgrade(engine, revision)
            previous = revision
        assert await _tables(engine) == set(Base.metadata.tables)
        await downgrade(engine, "base")
        assert await _tables(engine) == set()
    finally:
        await engine.dispose()


async def test_migrations_build_the_schema_the_models_describe(database_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = create_engine(database_url)
    try:
        await upgrade(engine)

        def differences(sync_connection):  # type: ignore[no-untyped-def]
            context = MigrationContext.configure(sync_connection, opts={"compare_type": True})
            return compare_metadata(context, Base.metadata)

        async with engine.connect() as connection:
            assert await connection.run_sync(differences) == []
    finally:
        await engine.dispose()


async def test_a_start_at_the_newest_schema_knows_it_without_alembic(database_url: str) -> None:
    """The newest revision read from the migrations' file names is Alembic's head, so a start
    on an up-to-date database skips Alembic; one a revision behind is still brought up."""
    assert newest_revision() == revisions()[-1]
    engine = create_engine(database_url)
    try:
        await upgrade(engine, revisions()[-2])
        await upgrade(engine)
        assert await current_revision(engine) == newest_revision()
        await upgrade(engine)  # nothing to do
        assert await current_revision(engine) == newest_revision()
    finally:
        await engine.dispose()
