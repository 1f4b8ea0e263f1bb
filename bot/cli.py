"""The `mafiatour` console script: one subcommand per module in `bot.commands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import bot.commands


def build_parser() -> argparse.ArgumentParser:
    """Collect every subcommand module under `bot.commands` into one parser."""
    parser = argparse.ArgumentParser(
        prog="mafiatour", description="Sports Mafia tournaments in Telegram."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_info in sorted(pkgutil.iter_modules(bot.commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"bot.commands.{module_info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run the chosen subcommand (default: `run`)."""
    parser = build_parser()
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])
    if args.command is None:
        args = parser.parse_args(["run"])
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
