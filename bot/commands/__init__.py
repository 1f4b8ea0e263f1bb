"""Subcommands of the `mafiatour` console script, one module each.

Every module exposes ``register(subparsers)``, which adds its parser and sets
``handler=run`` where ``run(args) -> int`` returns the process exit code.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from bot.config import Settings, SettingsError, load_settings
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory


def cli_settings() -> Settings:
    """The settings, or the process ends with status 2 and the one line naming the setting."""
    try:
        return load_settings()
    except SettingsError as error:
        print(f"mafiatour: {error}", file=sys.stderr)
        raise SystemExit(2) from None


@asynccontextmanager
async def migrated_database(url: str) -> AsyncIterator[SqlUnitOfWorkFactory]:
    """The database at `url`, brought to the newest schema, for one command's use cases."""
    engine = create_engine(url)
    try:
        await upgrade(engine)
        yield SqlUnitOfWorkFactory(create_session_factory(engine))
    finally:
        await engine.dispose()
