"""Every row of one database copied into another, e.g. from SQLite to PostgreSQL.

Both are first brought to the newest schema, so the copy goes table by table through the
models' own tables (parents before children). It runs in one transaction on the target:
a failure leaves the target as empty as it was. The target must hold no data yet.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Table, func, select, text
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.db.engine import create_engine
from bot.db.migrate import upgrade
from bot.db.models import Base

BATCH_ROWS = 500


class CopyError(Exception):
    """The copy was refused or failed; the message is one line saying why."""


async def copy_database(source_url: str, target_url: str) -> dict[str, int]:
    """Copy every row from `source_url` into the empty database at `target_url`; the number
    of rows copied per table."""
    if source_url == target_url:
        raise CopyError("the source and the target are the same database")
    source, target = create_engine(source_url), create_engine(target_url)
    try:
        await upgrade(source)
        await upgrade(target)
        copied: dict[str, int] = {}
        async with source.connect() as reading, target.begin() as writing:
            for table in Base.metadata.sorted_tables:
                if await writing.scalar(select(func.count()).select_from(table)):
                    raise CopyError(
                        f"the target already holds data (table {table.name}); "
                        "copy into a new, empty database"
                    )
            for table in Base.metadata.sorted_tables:
                copied[table.name] = await _copy_table(table, reading, writing)
            if writing.dialect.name == "postgresql":
                await _advance_sequences(writing)
        return copied
    finally:
        await source.dispose()
        await target.dispose()


def _aware(table: Table) -> list[str]:
    return [
        column.name
        for column in table.columns
        if isinstance(column.type, DateTime) and column.type.timezone
    ]


def _as_stored(row: dict[str, Any], aware_columns: list[str]) -> dict[str, Any]:
    # SQLite forgets the zone; every stored moment is UTC (bot/db/repositories).
    for name in aware_columns:
        value = row[name]
        if isinstance(value, datetime) and value.tzinfo is None:
            row[name] = value.replace(tzinfo=UTC)
    return row


async def _copy_table(table: Table, reading: AsyncConnection, writing: AsyncConnection) -> int:
    aware_columns = _aware(table)
    count = 0
    result = await reading.stream(select(table).order_by(*table.primary_key.columns))
    async for batch in result.mappings().partitions(BATCH_ROWS):
        rows = [_as_stored(dict(row), aware_columns) for row in batch]
        await writing.execute(table.insert(), rows)
        count += len(rows)
    return count


async def _advance_sequences(writing: AsyncConnection) -> None:
    # Rows came with their ids, so PostgreSQL's id sequences must move past them.
    for table in Base.metadata.sorted_tables:
        column = table.autoincrement_column
        if column is not None:
            await writing.execute(
                text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                    f'COALESCE(MAX("{column.name}"), 1), MAX("{column.name}") IS NOT NULL) '
                    f'FROM "{table.name}"'
                )
            )
