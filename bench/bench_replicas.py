"""Benchmark: the 300-player cup played on three bot processes behind one webhook (one
PostgreSQL, one Redis), the fake Telegram delivering updates round-robin; prints the figures
bench_simulation.py prints for one process (its report code): by kind of update, the handling
p50/p95/max and updates/s as the replica's meter timed it with its transactions and CPU per
update (each replica is `mafiatour run` with the simulation's meter, `harness.simulation.metered`,
its records joined by update id), the outbox's transactions per message, then as the fake
Telegram timed it; the process CPU by stage (all replicas together, per update), by stage
(updates, p50/p95/max, updates/s), the database's transactions per update, each replica's RSS,
the standings pictures' CPU and the delivery promise's counts; with --kill-after, the
scheduler lease holder's takeover and the reminders of the round it missed (the killed
replica's records of its last second are lost with it: the count is printed).

The people act as in bench_simulation.py: the judges at a person's pace at their tables
(`--table-speed`), the players confirming their registrations as they come.

Run: .venv/bin/python bench/bench_replicas.py [--players N] [--speed X] [--table-speed X]
     [--replicas 3] [--kill-after UPDATES]
PostgreSQL from MAFIATOUR_BENCH_POSTGRES_URL (default postgresql+asyncpg://postgres@127.0.0.1/test,
a fresh database is made beside it and dropped), Redis database 12 on 127.0.0.1 (emptied).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
from pathlib import Path

from bench_simulation import bench_database, table_speed_argument

from harness.simulation.replicas import ReplicaRun, play_on_replicas

REDIS_URL = "redis://127.0.0.1:6379/12"


async def _run(args: argparse.Namespace, folder: Path) -> ReplicaRun:
    async with bench_database("postgresql", folder) as url:
        return await play_on_replicas(
            database_url=url,
            redis_url=REDIS_URL,
            folder=folder,
            out=io.StringIO(),
            players=args.players,
            seed=args.seed,
            speed=args.speed,
            table_speed=args.table_speed,
            registration_in_order=False,
            replicas=args.replicas,
            kill_after_updates=args.kill_after,
            metered=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    # ×10: the first game's 10-minute protest window lasts a minute, longer than a loaded
    # machine takes to deliver its results (at ×100 it closed before the player could protest).
    parser.add_argument("--speed", type=float, default=10.0)
    table_speed_argument(parser)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument(
        "--kill-after",
        type=int,
        default=None,
        help="at the next round published then, kill -9 the scheduler's lease holder before "
        "the round's reminders fall due",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        run = asyncio.run(_run(args, Path(scratch)))
    games = sum(row.figures.games for row in run.outcome.standings.players) // 10
    print(
        f"simulation on {args.replicas} replicas: black-raven-cup, {args.players} players, "
        f"{games} games, speed ×{args.speed:g}, the judges at their tables "
        f"×{args.table_speed:g}" + (", one killed and restarted" if run.killed else "")
    )
    for line in run.lines():
        print(f"  {line}")
    delivered = run.delivered
    statuses = ", ".join(
        f"{status} {count}" for status, count in sorted(delivered.statuses.items())
    )
    print(f"  outbox: {statuses}")
    print(
        f"  lost {delivered.lost}, possible duplicates recorded {delivered.maybe_duplicates}, "
        f"duplicates seen {delivered.duplicates} (beyond the promise "
        f"{delivered.duplicates_beyond_promise}), reminders {delivered.reminders} "
        f"(moved twice {delivered.reminders_twice})"
    )
    reminded = run.reminded
    if reminded is not None:
        once = sum(1 for count in reminded.received.values() if count == 1)
        print(
            f"  scheduler's lease holder killed before round {reminded.round_number}'s "
            f"reminders fell due: taken over in {reminded.takeover_seconds:.1f} s; "
            f"{once} of {len(reminded.players)} players reminded once"
        )
    for error in run.figures.errors:
        print(f"  error: {error}")


if __name__ == "__main__":
    main()
