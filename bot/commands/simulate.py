"""`mafiatour simulate`: a whole tournament played offline through the real bot."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from domain.presets import PRESET_IDS


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play a whole tournament offline through the real bot and a local fake Telegram",
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The simulation's options (`mafiatour run` takes them too, for its offline path)."""
    parser.add_argument(
        "--regulation",
        default="black-raven-cup",
        help=f"{' | '.join(PRESET_IDS)} | FILE (a regulation JSON file)",
    )
    parser.add_argument(
        "--players", type=int, help="players to register (default: the smallest that fills it)"
    )
    parser.add_argument("--seed", type=int, default=1, help="same seed, same tournament")
    parser.add_argument(
        "--speed",
        type=float,
        default=50.0,
        help="how much faster than a person the scripted people act (1: watchable)",
    )
    parser.add_argument(
        "--out", type=Path, help="folder for report.html, tournament.json and the database"
    )


def default_arguments() -> argparse.Namespace:
    """The options of a plain `mafiatour simulate` (the README's run command without a token)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args([])


def run(args: argparse.Namespace) -> int:
    from domain.regulation import RegulationError
    from harness.simulation import SimulationError, SimulationOptions, simulate

    logging.basicConfig(level=logging.WARNING)
    if args.speed <= 0:
        print("mafiatour: --speed must be above 0", file=sys.stderr)
        return 2
    options = SimulationOptions(
        regulation=args.regulation,
        players=args.players,
        seed=args.seed,
        speed=args.speed,
        out=args.out,
    )
    out = sys.stdout
    out.write(
        "Offline simulation: a local fake Telegram server, the real bot polling it over HTTP, "
        "and scripted people playing a whole tournament.\n"
    )
    try:
        result = asyncio.run(simulate(options, out))
    except (OSError, ValueError, RegulationError) as error:
        print(f"mafiatour: {error}", file=sys.stderr)
        return 2
    except (SimulationError, TimeoutError) as error:
        print(f"mafiatour: the simulation stopped: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl+C: the demonstration is over, nothing to report
        print("mafiatour: the simulation was interrupted", file=sys.stderr)
        return 130
    return 1 if result.figures.errors else 0
