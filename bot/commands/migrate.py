"""`mafiatour migrate`: bring the database to the newest schema (or to a given revision)."""

from __future__ import annotations

import argparse
import asyncio

from bot.commands import cli_settings
from bot.db import migrate
from bot.db.engine import create_engine


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("migrate", help="apply database migrations")
    parser.add_argument("revision", nargs="?", default="head", help="target (default: head)")
    parser.add_argument("--down", action="store_true", help="downgrade to the revision instead")
    parser.set_defaults(handler=run)


async def _migrate(url: str, revision: str, down: bool) -> str | None:
    engine = create_engine(url)
    try:
        if down:
            await migrate.downgrade(engine, revision)
        else:
            await migrate.upgrade(engine, revision)
        return await migrate.current_revision(engine)
    finally:
        await engine.dispose()


def run(args: argparse.Namespace) -> int:
    settings = cli_settings()
    current = asyncio.run(_migrate(settings.database_url, args.revision, args.down))
    print(f"database at revision {current or 'base (empty)'}")
    return 0
