"""`mafiatour import FILE`: load a `mafia-tournament/1` file as a new tournament."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

from bot.commands import cli_settings, migrated_database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import", help="load a mafia-tournament/1 file as a new tournament"
    )
    parser.add_argument("file", type=Path, help="the tournament file")
    parser.add_argument(
        "--owner", type=int, help="Telegram id of its organizer (default: the first ADMIN_IDS)"
    )
    parser.add_argument("--title", help="the tournament's name (default: the file's name)")
    parser.set_defaults(handler=run)


async def _load(url: str, text: str, owner: int, title: str) -> int:
    from domain.actor import Actor
    from domain.services.exports import import_tournament
    from domain.services.users import remember_user

    async with migrated_database(url) as uow_factory:
        await remember_user(
            uow_factory,
            telegram_id=owner,
            first_name=str(owner),
            last_name=None,
            username=None,
            default_locale="ru",
        )
        tournament = await import_tournament(
            uow_factory, Actor(owner, datetime.now(UTC)), text, title
        )
        return tournament.id


def run(args: argparse.Namespace) -> int:
    from domain.interchange import InterchangeError

    settings = cli_settings()
    owner = args.owner if args.owner is not None else min(settings.admin_ids, default=None)
    if owner is None:
        print("mafiatour: give --owner or set ADMIN_IDS", file=sys.stderr)
        return 2
    try:
        text = args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"mafiatour: cannot read {args.file}: {error}", file=sys.stderr)
        return 2
    title = args.title or args.file.stem
    try:
        number = asyncio.run(_load(settings.database_url, text, owner, title[:128]))
    except InterchangeError as error:
        print(f"mafiatour: {args.file} is not a valid tournament file:", file=sys.stderr)
        for problem in error.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"imported as tournament {number}")
    return 0
