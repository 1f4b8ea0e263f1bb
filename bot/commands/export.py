"""`mafiatour export TOURNAMENT_ID`: print the tournament as a `mafia-tournament/1` file;
`mafiatour export --series ID [--format json|csv]`: the series' players, ratings and results."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.commands import cli_settings, migrated_database


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write a tournament as a mafia-tournament/1 file, or a series' players, ratings "
        "and results",
    )
    parser.add_argument("tournament_id", type=int, nargs="?", help="the tournament's number")
    parser.add_argument("--series", type=int, metavar="ID", help="export this series instead")
    parser.add_argument(
        "--format",
        choices=("json", "csv"),
        default="json",
        help="with --series: JSON (players, clubs, each tournament's results) or CSV (a row "
        "per player and tournament)",
    )
    parser.add_argument("-o", "--output", type=Path, help="file to write (default: stdout)")
    parser.set_defaults(handler=run)


async def _dump(url: str, tournament_id: int) -> str:
    from domain.services.catalog import build_services

    async with migrated_database(url) as uow_factory:
        return await build_services(uow_factory).exports.dump_tournament(tournament_id)


async def _dump_series(url: str, series_id: int, form: str) -> str:
    from domain.services.catalog import build_services
    from domain.services.season.history import series_csv, series_json

    async with migrated_database(url) as uow_factory:
        services = build_services(uow_factory)
        data = await services.series_history.series_export(series_id)
    if form == "csv":
        return series_csv(data).rstrip("\n")
    return series_json(data)


def _text(args: argparse.Namespace) -> str | None:
    from domain.services.access import NotFound

    settings = cli_settings()
    if args.series is not None:
        try:
            return asyncio.run(_dump_series(settings.database_url, args.series, args.format))
        except NotFound:
            print(f"mafiatour: no series {args.series}", file=sys.stderr)
            return None
    try:
        return asyncio.run(_dump(settings.database_url, args.tournament_id))
    except LookupError:
        print(f"mafiatour: no tournament {args.tournament_id}", file=sys.stderr)
        return None


def run(args: argparse.Namespace) -> int:
    if (args.series is None) == (args.tournament_id is None):
        print("mafiatour: give a tournament's number or --series ID", file=sys.stderr)
        return 2
    text = _text(args)
    if text is None:
        return 1
    if args.output is None:
        print(text)
    else:
        args.output.write_text(text + "\n", encoding="utf-8")
    return 0
