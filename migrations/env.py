"""Alembic environment: async engines, batch mode on SQLite (it cannot ALTER most things)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from bot.db.engine import create_engine
from bot.db.models import Base

config = context.config
target_metadata = Base.metadata


def _run_with(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_on_new_engine(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_run_with)
            await connection.commit()
    finally:
        await engine.dispose()


def run_migrations_offline() -> None:
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=url is not None and url.startswith("sqlite"),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    # `bot.db.migrate` hands over a connection of the running application's event loop.
    connection = config.attributes.get("connection")
    if connection is not None:
        _run_with(connection)
    else:
        asyncio.run(_run_on_new_engine(config.get_main_option("sqlalchemy.url") or ""))


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
