"""The SQLite driver's one trip per statement (bot.db.sqlite_driver): results whole, short or
long, fetched at once or streamed, and a statement's failure as sqlite3 says it; one read
(`bot.db.engine.one_read`) in one trip, beginning no transaction and writing nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from sqlalchemy import column, table, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import sqlite_driver
from bot.db.engine import WriteInOneRead, create_engine, create_session_factory, one_read

ROWS = 2 * sqlite_driver.FIRST_ROWS + 7  # longer than the rows of the first trip


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'driver.sqlite3'}")
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE numbers (n INTEGER PRIMARY KEY)"))
        await connection.execute(
            text("INSERT INTO numbers (n) VALUES (:n)"), [{"n": n} for n in range(ROWS)]
        )
    yield engine
    await engine.dispose()


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Each call run in aiosqlite's thread."""
    made: list[Any] = []
    run = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(fn)
        return await run(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return made


async def test_a_short_read_is_one_trip(engine: AsyncEngine, trips: list[Any]) -> None:
    async with engine.connect() as connection:
        await connection.scalar(text("SELECT 1"))  # the transaction begun
        trips.clear()
        assert await connection.scalar(text("SELECT n FROM numbers WHERE n = 5")) == 5
        assert len(trips) == 1


async def test_a_long_result_comes_whole_fetched_or_streamed(engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        rows = (await connection.execute(text("SELECT n FROM numbers ORDER BY n"))).all()
        assert [n for (n,) in rows] == list(range(ROWS))
        streamed = await connection.stream(text("SELECT n FROM numbers ORDER BY n"))
        assert [n async for (n,) in streamed] == list(range(ROWS))
        partial = await connection.stream(text("SELECT n FROM numbers ORDER BY n"))
        assert (await partial.fetchmany(3)) == [(0,), (1,), (2,)]
        await partial.close()
        assert await connection.scalar(text("SELECT count(*) FROM numbers")) == ROWS


async def test_writes_count_their_rows_and_failures_are_sqlite3s(engine: AsyncEngine) -> None:
    async with engine.begin() as connection:
        changed = await connection.execute(text("DELETE FROM numbers WHERE n < 10"))
        assert changed.rowcount == 10
        with pytest.raises(IntegrityError):
            await connection.execute(text("INSERT INTO numbers (n) VALUES (20)"))
    async with engine.connect() as connection:
        assert await connection.scalar(text("SELECT count(*) FROM numbers")) == ROWS - 10


async def test_one_read_is_one_trip_and_takes_no_lock(
    engine: AsyncEngine, trips: list[Any]
) -> None:
    factory = create_session_factory(engine)
    async with one_read(factory) as connection:
        assert await connection.scalar(text("SELECT n FROM numbers WHERE n = 5")) == 5
        # No transaction open while it reads: another process's writer waits for no lock.
        elsewhere = create_engine(engine.url.render_as_string(hide_password=False))
        async with elsewhere.begin() as writer:
            await writer.execute(text("DELETE FROM numbers WHERE n = 6"))
        await elsewhere.dispose()
        trips.clear()
    assert trips == []  # its end, with nothing to roll back, makes no trip
    async with one_read(factory) as connection:
        assert await connection.scalar(text("SELECT count(*) FROM numbers")) == ROWS - 1


async def test_one_read_refuses_a_write(engine: AsyncEngine) -> None:
    numbers = table("numbers", column("n"))
    async with one_read(create_session_factory(engine)) as connection:
        with pytest.raises(WriteInOneRead):
            await connection.execute(update(numbers).where(numbers.c.n == 1).values(n=-1))
    async with engine.connect() as connection:
        assert await connection.scalar(text("SELECT count(*) FROM numbers WHERE n = -1")) == 0
