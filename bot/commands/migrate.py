"""`mafiatour migrate`: bring the database to the newest schema (or to a given revision), or
take it back (`--down`: one migration, or down to a given revision)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.commands import cli_settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("migrate", help="apply database migrations")
    parser.add_argument(
        "revision",
        nargs="?",
        help="target (default: head; with --down, -1: the migration before the current one)",
    )
    parser.add_argument("--down", action="store_true", help="downgrade to the revision instead")
    parser.set_defaults(handler=run)


async def _migrate(url: str, revision: str, down: bool) -> str | None:
    from bot.db import migrate
    from bot.db.engine import create_engine

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
    from alembic.util.exc import CommandError

    settings = cli_settings()
    revision = args.revision or ("-1" if args.down else "head")
    try:
        current = asyncio.run(_migrate(settings.database_url, revision, args.down))
    except CommandError as error:
        print(f"mafiatour: cannot migrate to {revision}: {error}", file=sys.stderr)
        return 2
    print(f"database at revision {current or 'base (empty)'}")
    return 0
