"""`mafiatour backup FILE` and `mafiatour restore FILE`: a consistent copy of the live
database (the bot may keep running) and putting one back (the bot stopped)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from bot.commands import cli_settings


def register(subparsers: argparse._SubParsersAction) -> None:
    backup_parser = subparsers.add_parser(
        "backup", help="write a consistent copy of the database (the bot may keep running)"
    )
    backup_parser.add_argument("file", type=Path, help="the backup file to write")
    backup_parser.set_defaults(handler=run_backup)
    restore_parser = subparsers.add_parser(
        "restore", help="replace the database by a backup (stop the bot first)"
    )
    restore_parser.add_argument("file", type=Path, help="a file written by `mafiatour backup`")
    restore_parser.set_defaults(handler=run_restore)


async def _backup(url: str, file: Path) -> str:
    from bot.db import backup as backups

    await backups.backup(url, file)
    size = file.stat().st_size
    return f"backup written to {file} ({size / 1_000_000:.1f} MB)"


async def _restore(url: str, file: Path) -> str:
    from bot.db import backup as backups

    await backups.restore(url, file)
    summary = await backups.summarize(url)
    return f"restored {file}: {summary.describe()}"


def _report(work: Coroutine[Any, Any, str]) -> int:
    from bot.db import backup as backups

    try:
        print(asyncio.run(work))
    except backups.BackupError as error:
        print(f"mafiatour: {error}", file=sys.stderr)
        return 1
    return 0


def run_backup(args: argparse.Namespace) -> int:
    return _report(_backup(cli_settings().database_url, args.file))


def run_restore(args: argparse.Namespace) -> int:
    return _report(_restore(cli_settings().database_url, args.file))
