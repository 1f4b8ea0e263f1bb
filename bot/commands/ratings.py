"""`mafiatour ratings --recompute`: rebuild every rating from the rated games, in one
transaction (an interrupted run changes nothing; run it again)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.commands import cli_settings, migrated_database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "ratings", help="recompute every player's rating from the rated tournaments' games"
    )
    parser.add_argument("--recompute", action="store_true", help="rebuild the ratings from scratch")
    parser.set_defaults(handler=run)


async def _recompute(url: str) -> int:
    from domain.services.catalog import build_services

    async with migrated_database(url) as uow_factory:
        services = build_services(uow_factory)
        return await services.series.recompute_ratings()


def run(args: argparse.Namespace) -> int:
    if not args.recompute:
        print("mafiatour: say what to do: --recompute", file=sys.stderr)
        return 2
    games = asyncio.run(_recompute(cli_settings().database_url))
    print(f"ratings recomputed over {games} rated games")
    return 0
