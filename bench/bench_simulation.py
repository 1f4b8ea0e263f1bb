"""Benchmark: a whole cup (300 players, 30 tables by default) played through the real bot and
the fake Telegram with Telegram's limits enforced (scaled with the speed), on SQLite and on a
fresh PostgreSQL database; prints by phase (registration burst, check-in, the judges' protocol
presses, confirmations, the organizer's screens) the handling time of an update (p50, p95,
max), updates/s, transactions and CPU per update, then the outbox's transactions per message,
the standings pictures' CPU (drawn in a process of their own) and the bot's memory.

The bot runs in a process of its own, as a single server runs it (`harness.simulation.metered`:
`mafiatour run` with the simulation's meter, polling the fake Telegram, no Redis); the fake
Telegram and the scripted people run in this one, as Telegram and the players are not in the
bot's process. By kind, the handling time is printed twice: as the bot's meter timed it (its
Dispatcher's `feed_update`, with the update's transactions and CPU) and as the fake Telegram
timed it (from handing the update over to the bot's first answer). On SQLite the bot's
process writes and this one only reads, taking no write lock (WAL; see replicas `_reader`).
`--one-process` plays as `mafiatour simulate` does, the bot, the fake Telegram and the people
in this process (their CPU in the bot's latency); `--trace-memory` needs it.

Targets (SQLite, 300 players): a protocol press p95 <= 150 ms, a confirmation (press -> result
stored, standings recomputed, channel posts queued) p95 <= 300 ms, a registration burst of at
least 60 updates/s, at most 2 transactions per protocol press; PostgreSQL at least as good.

The judges tap their tables' protocols (and live games) at a person's pace, a tap every 1.5 s
on average (each pause 0.75-2.25 s, so thirty tables' judges do not tap in lockstep) at thirty
tables at once (`--table-speed 1`), while everything else runs `--speed` times as
fast (registration, check-in, the organizer, the bot's clock and Telegram's limits): a judge's
tap is timed as on a real day. `--table-speed 100` has them tap without a pause, thirty taps
always waiting: the handling time then measures the queue, the updates/s the bot's capacity;
with `--database sqlite` it is the quick way to the event loop's stalls of a whole cup (5-10
minutes, not 25: the loop's own CPU in a stall does not depend on the pace).
The players confirm their registrations as they come, not one after another in the cast's
order as `mafiatour simulate` has them (for the same seating from the same seed), which would
make the burst's end a queue of one: the seating, and so the games, differ a little from run
to run.

`--lockstep` makes every judge's pause exactly 1.5 s, so the thirty judges tap in the same
second from their round's message on, as at a real round's start (target: press p95 <= 150 ms).

Run: .venv/bin/python bench/bench_simulation.py [--players N] [--speed X] [--table-speed X]
        [--lockstep]
        [--database sqlite|postgresql|both] [--one-process [--trace-memory]]
PostgreSQL: MAFIATOUR_BENCH_POSTGRES_URL (default postgresql+asyncpg://postgres@127.0.0.1:5432/
test) names a server database from which a fresh one is created and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import logging
import os
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
from bench_standings import load_average, machine
from sqlalchemy.engine import make_url

from domain.outgoing import DeliveryStatus
from harness.simulation import SimulationOptions, roles, simulate
from harness.simulation.measure import peak_rss_mb, pictures_line, rss_mb
from harness.simulation.replicas import play_on_replicas
from harness.simulation.report import DATABASE_FILE, Outcome

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


@contextlib.asynccontextmanager
async def bench_database(database: str, folder: Path) -> AsyncIterator[str]:
    """An SQLite file in `folder`, or a fresh PostgreSQL database dropped afterwards."""
    if database == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / DATABASE_FILE}"
        return
    name = f"mt_bench_{uuid.uuid4().hex[:10]}"
    await _postgres("create", name)
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        await _postgres("drop", name)


@dataclass(frozen=True)
class Played:
    """What a run printed and what the check reads, however the bot was run."""

    outcome: Outcome
    lines: list[str]
    outbox: dict[DeliveryStatus, int]
    failures: dict[str, int]
    notes: tuple[str, ...]
    errors: tuple[str, ...]


async def _in_a_process(args: argparse.Namespace, database: str, scratch: Path) -> Played:
    """The bot in a process of its own (the metered `mafiatour run`, polling the fake as a
    single server without WEBHOOK_URL does, no Redis), the fake Telegram and the people here."""
    folder = scratch / database
    folder.mkdir(parents=True)
    async with bench_database(database, folder) as url:
        run = await play_on_replicas(
            database_url=url,
            redis_url=None,
            folder=folder,
            out=io.StringIO(),
            players=args.players,
            seed=args.seed,
            speed=args.speed,
            table_speed=args.table_speed,
            registration_in_order=False,
            replicas=1,
            metered=True,
            webhook=False,
            live=True,
        )
    delivered = run.delivered
    return Played(
        run.outcome,
        run.lines(),
        delivered.statuses,
        delivered.failures,
        run.notes,
        run.figures.errors,
    )


async def _in_one_process(args: argparse.Namespace, database: str, scratch: Path) -> Played:
    """`mafiatour simulate`'s way: the bot, the fake Telegram and the people in this process."""
    async with bench_database(database, scratch / f"{database}-database") as url:
        options = SimulationOptions(
            regulation="black-raven-cup",
            players=args.players,
            seed=args.seed,
            speed=args.speed,
            table_speed=args.table_speed,
            registration_in_order=False,
            out=scratch / database,
            database_url=url,
            trace_memory=args.trace_memory,
        )
        result = await simulate(options, io.StringIO())
    lines = [*result.figures.lines(), *result.meter.lines(sum(result.outbox.values()))]
    if pictures := pictures_line(result.pictures):
        lines.append(pictures)
    memory = ", ".join(f"{name} {mb:.0f} MB" for name, mb in result.meter.memory)
    lines.append(
        f"memory (RSS of the process: bot, fake Telegram and scripted people): idle bot "
        f"{result.idle_rss_mb:.0f} MB; at each stage's start: {memory}; at the end "
        f"{rss_mb():.0f} MB; peak so far {peak_rss_mb():.0f} MB"
    )
    lines += result.meter.trace.lines()
    return Played(
        result.outcome,
        lines,
        result.outbox,
        result.failures,
        result.notes,
        result.figures.errors,
    )


def _report(
    args: argparse.Namespace, database: str, played: Played, loads: tuple[str, str]
) -> bool:
    games = sum(row.figures.games for row in played.outcome.standings.players) // 10
    where = "in one process" if args.one_process else "the bot in a process of its own"
    print(
        f"== {database}: black-raven-cup, {args.players} players, {games} games, "
        f"speed ×{args.speed:g}, the judges at their tables ×{args.table_speed:g}"
        f"{' in lockstep' if args.lockstep else ''}, {where}; "
        f"{loads[0]} at the start, {loads[1]} at the end"
    )
    for line in played.lines:
        print(f"  {line}")
    failed = played.outbox.get(DeliveryStatus.FAILED, 0)
    statuses = ", ".join(f"{status.value} {count}" for status, count in played.outbox.items())
    print(f"  outbox rows: {statuses}; failed: {failed}")
    for reason, count in played.failures.items():
        print(f"  failed ({count}): {reason}")
    for note in played.notes:
        print(f"  note: {note}")
    for error in played.errors:
        print(f"  error: {error}")
    return not played.errors and not failed


def table_speed_argument(parser: argparse.ArgumentParser) -> None:
    """The judges' pace at their tables (see the module's doc); bench_replicas.py takes it too."""
    parser.add_argument(
        "--table-speed",
        type=float,
        default=1.0,
        help="the judges' pace at their tables (1: a person's, a tap every 1.5 s on average, "
        "all thirty tables at once; --table-speed 100 has them tap with no pause, a stress of "
        "the bot's capacity rather than a judge's wait)",
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--speed", type=float, default=100.0)
    table_speed_argument(parser)
    parser.add_argument(
        "--lockstep",
        action="store_true",
        help="every judge's pause exactly 1.5 s: the thirty judges tap in the same second from "
        "their round's message on (issue 27's press target is measured so)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="the bot in the benchmark's process with the fake Telegram and the people (as "
        "`mafiatour simulate` runs), not in a process of its own",
    )
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="with --one-process: trace the Python memory by part of the run (tracemalloc; slower)",
    )
    args = parser.parse_args()
    if args.trace_memory and not args.one_process:
        parser.error("--trace-memory traces this process: it needs --one-process")
    play = _in_one_process if args.one_process else _in_a_process
    if args.lockstep:
        # The scripted people run in this process: their pauses no longer vary.
        roles.HUMAN_PAUSE_SPREAD = 0.0
    # Only errors are printed as they happen (with their tracebacks); the run counts them.
    logging.basicConfig(level=logging.ERROR)
    databases = ("sqlite", "postgresql") if args.database == "both" else (args.database,)
    clean = True
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        for database in databases:
            before = load_average()
            played = asyncio.run(play(args, database, Path(scratch)))
            clean = _report(args, database, played, (before, load_average())) and clean
    print(f"machine: {machine()}")
    if not clean:
        sys.exit(1)


if __name__ == "__main__":
    main()
