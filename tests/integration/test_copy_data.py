"""Moving from SQLite to PostgreSQL as the README's Deploy section says: `mafiatour migrate`
on the new database, then `mafiatour copy-data` from the old one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from tests.conftest import _drop_postgres_database, make_database_url
from tests.operations import add_cup_tournament, exports, mafiatour, remember_owner

pytestmark = pytest.mark.postgresql


@pytest.fixture
async def sqlite_with_tournaments(tmp_path: Path) -> AsyncIterator[str]:
    """The bot's SQLite database with two tournaments and their games."""
    url = await make_database_url("sqlite", tmp_path)
    engine = create_engine(url)
    await upgrade(engine)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    await remember_owner(uow_factory)
    await add_cup_tournament(uow_factory, "Чёрный ворон")
    await add_cup_tournament(uow_factory, "Второй кубок")
    await engine.dispose()
    yield url


@pytest.fixture
async def new_postgres(tmp_path: Path) -> AsyncIterator[str]:
    url = await make_database_url("postgresql", tmp_path)
    yield url
    await _drop_postgres_database(url)


async def test_sqlite_data_moves_to_postgresql_and_the_bot_goes_on_there(
    sqlite_with_tournaments: str, new_postgres: str
) -> None:
    status, _, err = await mafiatour(new_postgres, "migrate")
    assert (status, err) == (0, "")
    status, out, err = await mafiatour(new_postgres, "copy-data", sqlite_with_tournaments)
    assert (status, err) == (0, "")
    assert out.endswith(", 2 tournaments")

    before = await exports(sqlite_with_tournaments)
    assert await exports(new_postgres) == before
    # New rows get fresh ids after the copied ones.
    engine = create_engine(new_postgres)
    try:
        added = await add_cup_tournament(
            SqlUnitOfWorkFactory(create_session_factory(engine)), "Третий"
        )
    finally:
        await engine.dispose()
    assert added == max(before) + 1


async def test_a_target_that_holds_data_is_refused_and_left_alone(
    sqlite_with_tournaments: str, new_postgres: str
) -> None:
    assert (await mafiatour(new_postgres, "copy-data", sqlite_with_tournaments))[0] == 0
    status, _, err = await mafiatour(new_postgres, "copy-data", sqlite_with_tournaments)
    assert status == 1
    assert err.startswith("mafiatour: the target already holds data (table ")
    assert len(await exports(new_postgres)) == 2
    status, _, err = await mafiatour(new_postgres, "copy-data", "mysql://x")
    assert status == 2
    assert err == (
        "mafiatour: the source is invalid: "
        "expected sqlite+aiosqlite:///PATH or postgresql+asyncpg://..."
    )
