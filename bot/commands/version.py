"""`mafiatour version`: print the installed version."""

from __future__ import annotations

import argparse

from bot import __version__


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("version", help="print the version and exit")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    print(f"mafiatour {__version__}")
    return 0
