"""`mafiatour import FILE [--series ID [--date DAY]]`: load a `mafia-tournament/1` file as a new
tournament (with `--series`, a rated tournament of the past in that series)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, date, datetime
from pathlib import Path

from bot.commands import cli_settings, migrated_database


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a day: write YYYY-MM-DD") from None


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "import", help="load a mafia-tournament/1 file as a new tournament"
    )
    parser.add_argument("file", type=Path, help="the tournament file")
    parser.add_argument(
        "--owner", type=int, help="Telegram id of its organizer (default: the first ADMIN_IDS)"
    )
    parser.add_argument("--title", help="the tournament's name (default: the file's name)")
    parser.add_argument(
        "--series",
        type=int,
        metavar="ID",
        help="add it to this series as a rated tournament of the past (finished, players "
        "matched to the series' persons by nickname, ratings recomputed in date order)",
    )
    parser.add_argument(
        "--date",
        type=_day,
        metavar="YYYY-MM-DD",
        help="with --series: the day it was played (default: the file's starts_on, else the "
        "day its first game ended, else today)",
    )
    parser.set_defaults(handler=run)


async def _load(
    url: str, text: str, owner: int, title: str, series: int | None = None, day: date | None = None
) -> int:
    from domain.actor import Actor
    from domain.services.catalog import build_services

    async with migrated_database(url) as uow_factory:
        services = build_services(uow_factory)
        await services.users.remember_user(
            telegram_id=owner,
            first_name=str(owner),
            last_name=None,
            username=None,
            default_locale="ru",
        )
        actor = Actor(owner, datetime.now(UTC))
        if series is not None:
            imported = await services.series_history.import_into_series(
                actor, text, title, series, day
            )
            return imported.id
        tournament = await services.exports.import_tournament(actor, text, title)
        return tournament.id


def run(args: argparse.Namespace) -> int:
    from domain.interchange import InterchangeError
    from domain.services.access import NotFound
    from domain.validation import Invalid

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
    if args.date is not None and args.series is None:
        print("mafiatour: --date goes with --series", file=sys.stderr)
        return 2
    title = args.title or args.file.stem
    try:
        number = asyncio.run(
            _load(settings.database_url, text, owner, title[:128], args.series, args.date)
        )
    except InterchangeError as error:
        print(f"mafiatour: {args.file} is not a valid tournament file:", file=sys.stderr)
        for problem in error.problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    except NotFound:
        print(f"mafiatour: no series {args.series}", file=sys.stderr)
        return 1
    except Invalid as error:
        earlier = error.args_.get("tournament")
        print(
            f"mafiatour: {args.file} was imported already (tournament {earlier}); "
            "nothing was changed",
            file=sys.stderr,
        )
        return 1
    where = f" in series {args.series}" if args.series is not None else ""
    print(f"imported as tournament {number}{where}")
    return 0
