"""`mafiatour export TOURNAMENT_ID`: print the tournament as a `mafia-tournament/1` file."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.commands import cli_settings, migrated_database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="write a tournament as a mafia-tournament/1 file")
    parser.add_argument("tournament_id", type=int, help="the tournament's number")
    parser.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    parser.set_defaults(handler=run)


async def _dump(url: str, tournament_id: int) -> str:
    from domain.services.exports import dump_tournament

    async with migrated_database(url) as uow_factory:
        return await dump_tournament(uow_factory, tournament_id)


def run(args: argparse.Namespace) -> int:
    settings = cli_settings()
    try:
        text = asyncio.run(_dump(settings.database_url, args.tournament_id))
    except LookupError:
        print(f"mafiatour: no tournament {args.tournament_id}", file=sys.stderr)
        return 1
    if args.output is None:
        print(text)
    else:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0
