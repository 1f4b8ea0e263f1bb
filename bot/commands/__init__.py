"""Subcommands of the `mafiatour` console script, one module each.

Every module exposes ``register(subparsers)``, which adds its parser and sets
``handler=run`` where ``run(args) -> int`` returns the process exit code. A module imports
at its top only what building its parser needs (the standard library, light constants): the
bot, the database and the rules are imported by ``run``, so ``mafiatour version`` or
``mafiatour seating`` do not pay for aiogram, SQLAlchemy or matplotlib
(tests/unit/test_cli_imports.py keeps it so).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.db.uow import SqlUnitOfWorkFactory


def cli_settings() -> Settings:
    """The settings, or the process ends with status 2 and the one line naming the setting."""
    from bot.config import SettingsError, load_settings

    try:
        return load_settings()
    except SettingsError as error:
        print(f"mafiatour: {error}", file=sys.stderr)
        raise SystemExit(2) from None


@asynccontextmanager
async def migrated_database(url: str) -> AsyncIterator[SqlUnitOfWorkFactory]:
    """The database at `url`, brought to the newest schema, for one command's use cases."""
    from bot.db.engine import create_engine, create_session_factory
    from bot.db.migrate import upgrade
    from bot.db.uow import SqlUnitOfWorkFactory

    engine = create_engine(url)
    try:
        await upgrade(engine)
        yield SqlUnitOfWorkFactory(create_session_factory(engine))
    finally:
        await engine.dispose()
