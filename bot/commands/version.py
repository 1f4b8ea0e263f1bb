"""`mafiatour version`: print the installed version and the database schema it needs."""

from __future__ import annotations

import argparse

from bot import __version__


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "version", help="print the version and the database schema revision it needs, and exit"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    # Alembic only when the command runs: building the parser stays light.
    from bot.db.migrate import revisions

    print(f"mafiatour {__version__} (database schema revision {revisions()[-1]})")
    return 0
