"""Benchmark: a whole 300-player cup (30 tables) played through the real bot and the fake
Telegram with Telegram's limits enforced (scaled with the speed); prints the run's figures.

Run: .venv/bin/python bench/bench_simulation.py [--players N] [--speed X]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import sys
import tempfile
from pathlib import Path

from bot.simulation import SimulationOptions, simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--speed", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # Only errors are printed as they happen (with their tracebacks); the run counts them.
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        options = SimulationOptions(
            regulation="black-raven-cup",
            players=args.players,
            seed=args.seed,
            speed=args.speed,
            out=Path(scratch),
        )
        result = asyncio.run(simulate(options, io.StringIO()))
    games = sum(row.figures.games for row in result.outcome.standings.players) // 10
    print(
        f"simulation: black-raven-cup, {args.players} players, {games} games, speed ×{args.speed:g}"
    )
    for line in result.figures.lines():
        print(f"  {line}")
    for error in result.figures.errors:
        print(f"  error: {error}")
    if result.figures.errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
