"""aiosqlite with one trip to its thread per statement instead of four.

aiosqlite runs each call on the sqlite3 connection in a thread of its own, and SQLAlchemy's
adapter makes four such calls per statement: open a cursor, execute, fetch the rows, close
the cursor. Each is a hand-off of the GIL to that thread and back to the event loop (a wake-up
through its self-pipe), which on a loaded machine costs far more than the statement: a /help's
three short transactions made 37 of them. Here the cursor opens nothing until it executes,
and the execution opens the sqlite3 cursor, runs the statement, fetches its first rows and,
when they are all, closes the cursor in the same trip; a result longer than `FIRST_ROWS`
(a streamed table of `bot.db.copy`) is fetched on from the open cursor as before.

A commit or a rollback with no transaction open (the end of one read, which begins none:
`bot.db.engine.one_read`) makes no trip: sqlite3 would do nothing in the thread.

Plugged in through SQLAlchemy's `async_creator_fn` connection argument (`bot.db.engine`): the
dialect, its SQL and its error handling are aiosqlite's.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any

import aiosqlite
from aiosqlite.context import contextmanager

# Rows fetched with the statement in its one trip; a longer result keeps its cursor open.
FIRST_ROWS = 1000


class OneTripCursor:
    """The cursor SQLAlchemy's adapter drives, as aiosqlite's Cursor, one trip per statement."""

    arraysize = 1

    def __init__(self, connection: OneTripConnection) -> None:
        self._connection = connection
        self._open: sqlite3.Cursor | None = None  # only while rows remain to fetch
        self._rows: deque[Any] = deque()
        self.description: Any = None
        self.rowcount = -1
        self.lastrowid: int | None = None

    async def __aenter__(self) -> OneTripCursor:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def execute(self, sql: str, parameters: Iterable[Any] | None = None) -> OneTripCursor:
        await self.close()
        self._take(await self._connection._execute(_run, self._connection._conn, sql, parameters))
        return self

    async def executemany(self, sql: str, parameters: Iterable[Iterable[Any]]) -> OneTripCursor:
        await self.close()
        connection = self._connection
        self._take(await connection._execute(_run_many, connection._conn, sql, parameters))
        return self

    def _take(self, outcome: tuple[Any, ...]) -> None:
        self._open, rows, self.description, self.rowcount, self.lastrowid = outcome
        self._rows = deque(rows)

    async def fetchone(self) -> Any:
        if not self._rows:
            self._rows.extend(await self._more(FIRST_ROWS))
        return self._rows.popleft() if self._rows else None

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        wanted = size or self.arraysize
        if len(self._rows) < wanted:
            self._rows.extend(await self._more(max(wanted - len(self._rows), FIRST_ROWS)))
        return [self._rows.popleft() for _ in range(min(wanted, len(self._rows)))]

    async def fetchall(self) -> list[Any]:
        rows = list(self._rows)
        self._rows.clear()
        if self._open is not None:
            rows.extend(await self._more(None))
        return rows

    async def _more(self, size: int | None) -> Sequence[Any]:
        """Rows from the cursor left open (none when the first trip fetched them all)."""
        if self._open is None:
            return []
        rows, more = await self._connection._execute(_fetch, self._open, size)
        if not more:
            self._open = None
        return rows

    async def close(self) -> None:
        if self._open is not None:
            cursor, self._open = self._open, None
            await self._connection._execute(cursor.close)
        self._rows.clear()

    def __aiter__(self) -> AsyncIterator[Any]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Any]:
        while row := await self.fetchone():
            yield row


def _run(connection: sqlite3.Connection, sql: str, parameters: Any) -> tuple[Any, ...]:
    """In aiosqlite's thread: the statement run, its first rows, the cursor closed if done."""
    cursor = connection.cursor()
    cursor.execute(sql, () if parameters is None else parameters)
    return _outcome(cursor)


def _run_many(connection: sqlite3.Connection, sql: str, parameters: Any) -> tuple[Any, ...]:
    cursor = connection.cursor()
    cursor.executemany(sql, parameters)
    return _outcome(cursor)


def _outcome(cursor: sqlite3.Cursor) -> tuple[Any, ...]:
    rows: list[Any] = []
    if cursor.description is not None:
        rows = cursor.fetchmany(FIRST_ROWS)
    done = len(rows) < FIRST_ROWS
    left_open = None if done else cursor
    outcome = (left_open, rows, cursor.description, cursor.rowcount, cursor.lastrowid)
    if done:
        cursor.close()
    return outcome


def _fetch(cursor: sqlite3.Cursor, size: int | None) -> tuple[list[Any], bool]:
    """In aiosqlite's thread: more rows, and whether any may remain (else the cursor closed)."""
    rows = cursor.fetchall() if size is None else cursor.fetchmany(size)
    more = size is not None and len(rows) == size
    if not more:
        cursor.close()
    return rows, more


class OneTripConnection(aiosqlite.Connection):
    """aiosqlite's connection whose cursors make one trip per statement, and whose commit and
    rollback make none when no transaction is open (sqlite3 would do nothing in the thread:
    the end of a read that began none, `bot.db.engine.one_read`)."""

    async def commit(self) -> None:
        if self._idle():
            return
        await super().commit()

    async def rollback(self) -> None:
        if self._idle():
            return
        await super().rollback()

    def _idle(self) -> bool:
        # Read on the event loop: the connection runs nothing in its thread between two of
        # SQLAlchemy's calls, and sqlite3 reads the flag without a lock either.
        return self._connection is not None and not self._connection.in_transaction

    @contextmanager
    async def cursor(self) -> OneTripCursor:  # type: ignore[override]
        return OneTripCursor(self)


def connect(database: str, **kwargs: Any) -> OneTripConnection:
    """As `aiosqlite.connect`, SQLAlchemy's `async_creator_fn`: the dialect's connect arguments
    (the file, `timeout`, `uri`, ...) go to `sqlite3.connect` in the connection's thread."""
    connection = OneTripConnection(lambda: sqlite3.connect(database, **kwargs), 64)
    # As SQLAlchemy does for its own: the thread does not keep a stopping process alive.
    connection._thread.daemon = True
    return connection
