"""Benchmark: a whole cup (300 players, 30 tables by default) played through the real bot and
the fake Telegram with Telegram's limits enforced (scaled with the speed), on SQLite and on a
fresh PostgreSQL database; prints by phase (registration burst, check-in, the judges' protocol
presses, confirmations, the organizer's screens) the handling time of an update (p50, p95,
max), updates/s and transactions per update, then the outbox's transactions per message, the
standings pictures' CPU (drawn in a process of their own) and the memory.

Targets (SQLite, 300 players): a protocol press p95 <= 150 ms, a confirmation (press -> result
stored, standings recomputed, channel posts queued) p95 <= 300 ms, a registration burst of at
least 60 updates/s, at most 2 transactions per protocol press; PostgreSQL at least as good.

Run: .venv/bin/python bench/bench_simulation.py [--players N] [--speed X]
        [--database sqlite|postgresql|both]
PostgreSQL: MAFIATOUR_BENCH_POSTGRES_URL (default postgresql+asyncpg://postgres@127.0.0.1:5432/
test) names a server database from which a fresh one is created and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import sys
import tempfile
import uuid
from pathlib import Path

import asyncpg
from bench_standings import load_average, machine
from sqlalchemy.engine import make_url

from bot.simulation import SimulationOptions, SimulationResult, simulate
from bot.simulation.measure import peak_rss_mb, rss_mb
from domain.outgoing import DeliveryStatus

POSTGRES_URL = os.environ.get(
    "MAFIATOUR_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _postgres(action: str, name: str) -> None:
    connection = await asyncpg.connect(_dsn(POSTGRES_URL))
    try:
        if action == "create":
            await connection.execute(f'CREATE DATABASE "{name}"')
        else:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await connection.close()


def _play(args: argparse.Namespace, database: str, scratch: Path) -> SimulationResult:
    options = SimulationOptions(
        regulation="black-raven-cup",
        players=args.players,
        seed=args.seed,
        speed=args.speed,
        out=scratch / database,
        trace_memory=args.trace_memory,
    )
    if database == "sqlite":
        return asyncio.run(simulate(options, io.StringIO()))
    name = f"mt_bench_{uuid.uuid4().hex[:10]}"
    asyncio.run(_postgres("create", name))
    try:
        url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
        options = SimulationOptions(**{**vars(options), "database_url": url})
        return asyncio.run(simulate(options, io.StringIO()))
    finally:
        asyncio.run(_postgres("drop", name))


def _report(
    args: argparse.Namespace, database: str, result: SimulationResult, loads: tuple[str, str]
) -> bool:
    games = sum(row.figures.games for row in result.outcome.standings.players) // 10
    print(
        f"== {database}: black-raven-cup, {args.players} players, {games} games, "
        f"speed ×{args.speed:g}; {loads[0]} at the start, {loads[1]} at the end"
    )
    for line in result.figures.lines():
        print(f"  {line}")
    for line in result.meter.lines(sum(result.outbox.values())):
        print(f"  {line}")
    failed = result.outbox.get(DeliveryStatus.FAILED, 0)
    statuses = ", ".join(f"{status.value} {count}" for status, count in result.outbox.items())
    print(f"  outbox rows: {statuses}; failed: {failed}")
    for reason, count in result.failures.items():
        print(f"  failed ({count}): {reason}")
    pictures = result.pictures
    if pictures.drawn:
        print(
            f"  standings pictures (drawn in the picture process): {pictures.drawn} drawn, "
            f"{pictures.reused} reused; "
            f"CPU {pictures.cpu_total:.1f} s in all, "
            f"{pictures.cpu_total / pictures.drawn:.2f} s each, max {pictures.cpu_max:.2f} s"
        )
    memory = ", ".join(f"{name} {mb:.0f} MB" for name, mb in result.meter.memory)
    print(
        f"  memory (RSS of the process: bot, fake Telegram and scripted people): idle bot "
        f"{result.idle_rss_mb:.0f} MB; at each stage's start: {memory}; at the end "
        f"{rss_mb():.0f} MB; peak so far {peak_rss_mb():.0f} MB"
    )
    for line in result.meter.trace.lines():
        print(f"  {line}")
    for note in result.notes:
        print(f"  note: {note}")
    for error in result.figures.errors:
        print(f"  error: {error}")
    return not result.figures.errors and not failed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--speed", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="trace the Python memory by part of the run (tracemalloc; slower)",
    )
    args = parser.parse_args()
    # Only errors are printed as they happen (with their tracebacks); the run counts them.
    logging.basicConfig(level=logging.ERROR)
    databases = ("sqlite", "postgresql") if args.database == "both" else (args.database,)
    clean = True
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        for database in databases:
            before = load_average()
            result = _play(args, database, Path(scratch))
            clean = _report(args, database, result, (before, load_average())) and clean
    print(f"machine: {machine()}")
    if not clean:
        sys.exit(1)


if __name__ == "__main__":
    main()
