"""`mafiatour simulate`: the product working offline, against the bundled fake Telegram."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.simulation import simulate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate", help="show the bot working offline against a local fake Telegram"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.WARNING)
    out = sys.stdout
    out.write(
        "Offline demonstration: a local fake Telegram server, the real bot polling it over "
        "HTTP, and scripted people writing to it.\n"
    )
    figures = asyncio.run(simulate(out))
    out.write(
        f"\n{figures.updates} updates handled, {figures.messages_sent} messages sent, "
        f"{figures.edits} edited, {figures.callback_answers} button presses answered, "
        f"in {figures.wall_seconds:.1f} s.\n"
    )
    return 0
