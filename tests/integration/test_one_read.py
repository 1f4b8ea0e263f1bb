"""An update's first read (`bot.db.engine.one_read`), on SQLite and PostgreSQL: it reads what
was committed, refuses a write, holds no transaction open while it reads, and leaves its
connection to the next unit of work as a unit of work's (rolled back when it fails)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import column, insert, table, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.engine import WriteInOneRead, create_engine, create_session_factory, one_read

NUMBERS = table("numbers", column("n"))


@pytest.fixture
async def factory(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """Sessions on an engine of one connection (on PostgreSQL too): each unit of work gets
    the connection the one before it gave back."""
    engine = create_engine(database_url, pool_size=1)
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE numbers (n INTEGER PRIMARY KEY)"))
        await connection.execute(text("INSERT INTO numbers (n) VALUES (1), (2)"))
    yield create_session_factory(engine)
    await engine.dispose()


async def _insert_elsewhere(url: str, n: int) -> None:
    """Another process's unit of work, committed."""
    other = create_engine(url)
    try:
        async with other.begin() as connection:
            await connection.execute(insert(NUMBERS).values(n=n))
    finally:
        await other.dispose()


async def _backend_state(url: str, pid: int) -> str | None:
    """What PostgreSQL says the backend `pid` is doing, asked over another connection."""
    watcher = create_engine(url)
    try:
        async with watcher.connect() as connection:
            return await connection.scalar(
                text("SELECT state FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
            )
    finally:
        await watcher.dispose()


async def test_it_reads_what_was_committed(factory: async_sessionmaker[AsyncSession]) -> None:
    async with one_read(factory) as connection:
        assert await connection.scalar(text("SELECT max(n) FROM numbers")) == 2


async def test_it_refuses_a_write(factory: async_sessionmaker[AsyncSession]) -> None:
    async with one_read(factory) as connection:
        with pytest.raises(WriteInOneRead):
            await connection.execute(insert(NUMBERS).values(n=3))
    async with one_read(factory) as connection:
        assert await connection.scalar(text("SELECT count(*) FROM numbers")) == 2


async def test_it_holds_no_transaction_while_it_reads(
    factory: async_sessionmaker[AsyncSession], database_url: str
) -> None:
    """A transaction begun would show on PostgreSQL as "idle in transaction" between the
    read and the connection's return; on SQLite it would keep its first snapshot (or take
    the write lock, and another process's write would wait for it)."""
    async with one_read(factory) as connection:
        assert await connection.scalar(text("SELECT count(*) FROM numbers")) == 2
        if connection.dialect.name == "postgresql":
            driver = (await connection.get_raw_connection()).driver_connection
            assert driver is not None and not driver.is_in_transaction()
            pid = driver.get_server_pid()
            assert await _backend_state(database_url, pid) == "idle"
        else:
            await _insert_elsewhere(database_url, 3)
            # The same connection, once more (one_read's callers run one statement).
            assert await connection.scalar(text("SELECT count(*) FROM numbers")) == 3


async def test_the_next_unit_of_work_on_its_connection_rolls_back(
    factory: async_sessionmaker[AsyncSession],
) -> None:
    """The connection goes back in a transaction's mode: a unit of work that fails after
    a write leaves nothing behind (autocommit kept would have committed the write)."""
    async with one_read(factory) as connection:
        await connection.scalar(text("SELECT 1 FROM numbers WHERE n = 1"))
    with pytest.raises(ZeroDivisionError):
        async with factory() as session, session.begin():
            await session.execute(insert(NUMBERS).values(n=3))
            raise ZeroDivisionError
    async with factory() as session:
        assert await session.scalar(text("SELECT count(*) FROM numbers")) == 2
