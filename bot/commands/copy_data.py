"""`mafiatour copy-data SOURCE_URL`: every row of another database copied into DATABASE_URL,
for moving from SQLite to PostgreSQL (stop the bot first)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.commands import cli_settings


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "copy-data", help="copy every row of another database into the empty DATABASE_URL"
    )
    parser.add_argument(
        "source",
        help="the database to copy from, e.g. sqlite+aiosqlite:///./data/mafiatour.sqlite3",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from bot.config import SettingsError, load_settings
    from bot.db.copy import CopyError, copy_database

    settings = cli_settings()
    try:
        source = load_settings(database_url=args.source).database_url
    except SettingsError as error:
        print(
            f"mafiatour: the source {str(error).removeprefix('Setting DATABASE_URL ')}",
            file=sys.stderr,
        )
        return 2
    try:
        copied = asyncio.run(copy_database(source, settings.database_url))
    except CopyError as error:
        print(f"mafiatour: {error}", file=sys.stderr)
        return 1
    rows = sum(copied.values())
    tournaments = copied.get("tournaments", 0)
    print(
        f"copied {rows} {'row' if rows == 1 else 'rows'} in {len(copied)} tables, "
        f"{tournaments} {'tournament' if tournaments == 1 else 'tournaments'}"
    )
    return 0
