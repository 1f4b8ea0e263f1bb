"""The database engine, chosen by the URL alone: SQLite (aiosqlite) or PostgreSQL (asyncpg)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, event
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.pool import ConnectionPoolEntry

from bot.db import sqlite_driver
from bot.db.fair_pool import FairQueuePool
from bot.db.transactions import statement_run, transaction_begun

# Another process (the CLI's export, say) may hold the write lock for a while.
SQLITE_BUSY_TIMEOUT_MS = 30_000
# How long a unit of work may wait for a pooled connection before giving up: a burst (300
# players registering at once) queues for them on a busy machine far longer than
# SQLAlchemy's default 30 s.
CONNECTION_WAIT_S = 120
# The PostgreSQL connections a process opens at most, and keeps (`bot.db.fair_pool`): room
# for the updates handled at once (long polling hands over up to 40, each holding one
# connection only while it reads or writes), the outbox worker, the scheduler and the
# listener of planned pushes, which holds one for good.
POSTGRES_POOL_SIZE = 20


def _tune_sqlite(dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
    # The sqlite3 driver's own transaction handling starts a transaction only at the first
    # write and lets a SAVEPOINT release commit on its own; SQLAlchemy then owns BEGIN
    # (see `_begin_immediately`), so a rolled-back unit of work leaves nothing behind.
    dbapi_connection.isolation_level = None
    # WAL lets the outbox worker read while a use case writes; foreign keys are off by default.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


# The execution option of a connection that runs one reading statement (`one_read`).
ONE_READ = "one_read"


class WriteInOneRead(RuntimeError):
    """A write was run on a connection meant for one reading statement (`one_read`)."""


def _begin_immediately(connection: Connection) -> None:
    # IMMEDIATE takes the write lock up front: two use cases that read and then write wait for
    # each other (busy timeout) instead of one failing on a stale snapshot. One reading
    # statement begins nothing: on its own it is a transaction reading one snapshot, and it
    # neither takes the write lock (another process's writer waits for no reader) nor costs
    # the BEGIN's and the ROLLBACK's trips to aiosqlite's thread (`bot.db.sqlite_driver`).
    if not connection.get_execution_options().get(ONE_READ):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _refuse_writes(
    _connection: Connection,
    _cursor: Any,
    statement: str,
    _parameters: Any,
    context: DefaultExecutionContext | None,
    _executemany: bool,
) -> None:
    # Without a transaction of its own a write would be committed at once, and a reading
    # connection's write would go around BEGIN IMMEDIATE's lock: neither may happen.
    if context is None or not context.execution_options.get(ONE_READ):
        return
    if context.isinsert or context.isupdate or context.isdelete or context.isddl:
        raise WriteInOneRead(f"a write on a connection for one read: {statement}")


# On PostgreSQL one reading statement runs in autocommit: asyncpg sends no BEGIN before it and
# no ROLLBACK after it (three round trips become one), and the statement alone is its own
# snapshot; the pool resets the connection to transactions on its return. SQLite's driver
# begins nothing anyway (`_begin_immediately`), and its dialect's reset would give the
# transactions back to sqlite3's own handling (see `_tune_sqlite`).
_ONE_READ_OPTIONS = {"postgresql": {ONE_READ: True, "isolation_level": "AUTOCOMMIT"}}
# Each session factory's engine for one read, with those options: made once, since making it
# costs a tenth of the read, and without a session, whose own work was a third of it.
_reading_engines: WeakKeyDictionary[async_sessionmaker[AsyncSession], AsyncEngine]
_reading_engines = WeakKeyDictionary()


def _reading_engine(session_factory: async_sessionmaker[AsyncSession]) -> AsyncEngine:
    reading = _reading_engines.get(session_factory)
    if reading is None:
        engine: AsyncEngine = session_factory.kw["bind"]
        options = _ONE_READ_OPTIONS.get(engine.dialect.name, {ONE_READ: True})
        reading = _reading_engines[session_factory] = engine.execution_options(**options)
    return reading


@asynccontextmanager
async def one_read(
    session_factory: async_sessionmaker[AsyncSession],
) -> AsyncIterator[AsyncConnection]:
    """A connection for one reading statement (the conversation state every update begins
    with): no transaction begun (SQLite: no BEGIN; PostgreSQL: autocommit, no BEGIN nor
    ROLLBACK), no ORM session's work, no write allowed (`WriteInOneRead`). Units of work
    that write begin their transactions as before."""
    async with _reading_engine(session_factory).connect() as connection:
        yield connection


def is_sqlite(url: str) -> bool:
    """True for the embedded default database."""
    return url.startswith("sqlite")


def create_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine; an SQLite file gets its folder created and its pragmas set."""
    if is_sqlite(url):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connect_args = kwargs.setdefault("connect_args", {})
        connect_args.setdefault("timeout", SQLITE_BUSY_TIMEOUT_MS / 1000)
        if url.startswith("sqlite+aiosqlite"):
            # One trip to aiosqlite's thread per statement instead of four (bot.db.sqlite_driver).
            connect_args.setdefault("async_creator_fn", sqlite_driver.connect)
        # SQLite has one writer at a time: one pooled connection makes the bot's units of
        # work queue for it in the event loop, in order, instead of several connections
        # racing for the file lock and failing with "database is locked" under load.
        kwargs.setdefault("pool_size", 1)
        kwargs.setdefault("max_overflow", 0)
        # Each unit of work ends its transaction itself (commit, or rollback on leaving), and
        # the driver begins none on its own (see `_tune_sqlite`): the pool's extra rollback of
        # every returned connection would be one more trip to aiosqlite's thread for nothing.
        kwargs.setdefault("pool_reset_on_return", None)
    elif url.startswith("postgresql"):
        kwargs.setdefault("poolclass", FairQueuePool)
        kwargs.setdefault("pool_size", POSTGRES_POOL_SIZE)
    kwargs.setdefault("pool_timeout", CONNECTION_WAIT_S)
    engine = create_async_engine(url, **kwargs)
    event.listen(engine.sync_engine, "begin", transaction_begun)
    event.listen(engine.sync_engine, "before_cursor_execute", statement_run)
    event.listen(engine.sync_engine, "before_cursor_execute", _refuse_writes)
    if is_sqlite(url):
        event.listen(engine.sync_engine, "connect", _tune_sqlite)
        event.listen(engine.sync_engine, "begin", _begin_immediately)
    return engine


def create_session_factory(engine: AsyncEngine) -> async_sessionmaker:
    """Sessions that keep loaded values after commit (repositories convert them right away)."""
    return async_sessionmaker(engine, expire_on_commit=False)
