"""`python -m harness.simulation.metered RECORDS [--seed N]`: the bot as `mafiatour run` runs it
(its settings from the environment, the services checked, the application built and served by
webhook or by long polling until SIGTERM), with the simulation's meter attached, for the
benchmarks that play a tournament on bot processes of their own (`harness.simulation.replicas`).

Every update the Dispatcher handles is timed, its transactions counted and its CPU metered
as in the one-process simulation (`harness.simulation.measure`); each second, and once more at a
clean stop, the process appends to RECORDS (one JSON object a line) a line per update handled
since (`update`: its id, `start`: the wall clock's time its handling started, `seconds`,
`transactions`, `cpu`) and a line of totals (`pid`, `transactions`: every one the process
began, `in_updates`: the updates' share of them; `by_label`: all of them by label, the
outbox worker's and the reminder scheduler's apart; `pictures`: the standings pictures'
CPU; `collector`: the garbage collector's pauses; `stalls`: the event loop's longest stalls
and what ran, `harness.simulation.stalls`). A process killed with SIGKILL loses at
most its last second's lines.

`--seed` draws the seatings' seeds from it (as `mafiatour simulate --seed` does), so the same
seed seats every stage the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, NamedTuple

from bot.app import build_application
from bot.app.startup import check_services
from bot.commands import cli_settings
from bot.commands.run import serve_application, start_logging
from bot.config import Settings
from bot.db.transactions import Tally, counting
from bot.rendering.pictures import PictureFigures
from bot.seeds import SeededSeeds
from harness.simulation.measure import CollectorPauses, CollectorTimer, CpuMeter, meter_updates
from harness.simulation.stalls import LoopStalls, StallWatch

FLUSH_SECONDS = 1.0


class Records:
    """The lines not yet written and the running totals of one process."""

    def __init__(
        self,
        file: IO[str],
        run: Tally,
        pictures: PictureFigures,
        collector: CollectorPauses,
        stalls: LoopStalls,
    ) -> None:
        self._file, self._run, self._pictures, self._collector = file, run, pictures, collector
        self._stalls = stalls
        self._lines: list[str] = []
        self._in_updates = 0
        # `meter_updates` times on the performance counter; the harness reads the wall clock.
        self._wall = time.time() - time.perf_counter()

    def handled(
        self, update_id: int, started: float, seconds: float, tally: Tally, cpu: float
    ) -> None:
        transactions = tally.transactions
        self._in_updates += transactions
        self._lines.append(
            json.dumps(
                {
                    "update": update_id,
                    "start": started + self._wall,
                    "seconds": seconds,
                    "transactions": transactions,
                    "cpu": cpu,
                }
            )
        )

    def flush(self) -> None:
        totals = {
            "pid": os.getpid(),
            "transactions": self._run.transactions,
            "in_updates": self._in_updates,
            "by_label": self._run.by_label,
            "pictures": asdict(self._pictures),
            "collector": asdict(self._collector),
            "stalls": asdict(self._stalls),
        }
        lines, self._lines = self._lines, []
        self._file.write("".join(f"{line}\n" for line in [*lines, json.dumps(totals)]))
        self._file.flush()

    async def every_second(self) -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            self.flush()


async def serve_metered(settings: Settings, records_path: Path, seed: int | None) -> None:
    await check_services(settings)
    # Every task the bot starts (the outbox worker, the scheduler, the updates') inherits the
    # block: the process's transactions are counted, each update's CPU time is metered.
    with (
        records_path.open("a", encoding="utf-8") as file,
        counting() as run,
        CpuMeter(),
        CollectorTimer() as collections,
    ):
        seeds = SeededSeeds(f"seating:{seed}") if seed is not None else None
        app = await build_application(settings, seeds=seeds)
        watch = StallWatch()
        figures = app.dispatcher["pictures"].figures
        records = Records(file, run, figures, collections.pauses, watch.stalls)
        meter_updates(app.dispatcher, lambda update: update.update_id, records.handled)
        flushing = asyncio.create_task(records.every_second())
        try:
            async with watch:
                await serve_application(app)
        finally:
            flushing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await flushing
            records.flush()


class UpdateCost(NamedTuple):
    """One update as its process measured it: when its handling started (wall clock), how
    long it took, the transactions it began and the event loop's CPU seconds it took."""

    start: float
    seconds: float
    transactions: int
    cpu: float


@dataclass(frozen=True)
class Measured:
    """What the metered processes wrote: each update's cost by its id, and their totals (of
    each process's last line of totals: a killed one's as of its last second)."""

    updates: dict[int, UpdateCost]
    transactions: int
    in_updates: int
    by_label: Counter[str]  # the transactions by label (`bot.db.transactions.labelled`)
    pictures: PictureFigures
    collector: CollectorPauses
    stalls: LoopStalls

    @property
    def background(self) -> int:
        """The transactions begun outside any update: the outbox worker's and the
        scheduler's (`by_label`), the web application's requests and the start's."""
        return self.transactions - self.in_updates


def read_records(paths: Iterable[Path]) -> Measured:
    """The records of every process that wrote to `paths` (a file is appended to by each
    start of its replica)."""
    updates: dict[int, UpdateCost] = {}
    totals: dict[int, dict] = {}  # by process id: its last line of totals
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            # A process killed in the middle of a write leaves a broken line.
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if "update" in entry:
                    updates[entry["update"]] = UpdateCost(
                        entry["start"], entry["seconds"], entry["transactions"], entry["cpu"]
                    )
                else:
                    totals[entry["pid"]] = entry
    pictures = [PictureFigures(**entry["pictures"]) for entry in totals.values()]
    return Measured(
        updates=updates,
        transactions=sum(entry["transactions"] for entry in totals.values()),
        in_updates=sum(entry["in_updates"] for entry in totals.values()),
        by_label=sum((Counter(entry["by_label"]) for entry in totals.values()), Counter()),
        pictures=PictureFigures(
            drawn=sum(p.drawn for p in pictures),
            reused=sum(p.reused for p in pictures),
            cpu_total=sum(p.cpu_total for p in pictures),
            cpu_max=max((p.cpu_max for p in pictures), default=0.0),
        ),
        collector=CollectorPauses.of_processes(
            CollectorPauses(**entry["collector"]) for entry in totals.values()
        ),
        stalls=LoopStalls.of_processes(
            LoopStalls(**entry["stalls"]) for entry in totals.values() if "stalls" in entry
        ),
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m harness.simulation.metered")
    parser.add_argument("records", type=Path)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    settings = cli_settings()
    start_logging(settings)
    asyncio.run(serve_metered(settings, args.records, args.seed))


if __name__ == "__main__":
    main()
