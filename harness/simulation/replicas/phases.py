"""A run's figures by phase as bench_simulation.py prints them: each update's handling (as the
fake Telegram timed it and, from metered replicas, as the bot did), the CPU, the memory and
the database's transactions."""

from __future__ import annotations

import bisect
import time
from dataclasses import dataclass, field

from harness.fake_telegram import FakeTelegram
from harness.simulation.figures import percentile
from harness.simulation.measure import (
    OTHER,
    Handled,
    background_line,
    cpu_lines,
    kind_lines,
    kind_of,
    phase_of,
)
from harness.simulation.metered import Measured
from harness.simulation.replicas.process import Replica, cpu_seconds, memory


@dataclass
class Phases:
    """The run by phase as bench_simulation.py prints it for one process: each update's
    handling as the fake Telegram timed it (from handing it to a replica to the replica's
    first answer about it), classified by kind as the one-process meter does, and, from
    metered replicas (`harness.simulation.metered`), as the replica timed it with its
    transactions and CPU, joined by update id; the replicas' CPU time (all of them together,
    from /proc) at each stage's start and at the end; their memory idle, at each stage's
    start and at their peak, and the database's transactions over the run (PostgreSQL's
    count; None on SQLite)."""

    fake: FakeTelegram
    group: list[Replica]
    marks: list[tuple[str, float]] = field(default_factory=list)  # name, fake's clock
    idle: list[float] = field(default_factory=list)  # MB by replica, once started
    memory: list[tuple[str, list[float]]] = field(default_factory=list)  # MB by replica
    transactions: int | None = None  # committed and rolled back, by every process on it
    peaks: list[float] = field(default_factory=list)  # MB by replica, read before they stop
    measured: Measured | None = None  # what metered replicas wrote, read once they stopped
    # (stage, CPU seconds of all replicas since the first stage, fake's clock); the end last.
    cpu: list[tuple[str, float, float]] = field(default_factory=list)
    _cpu_seen: dict[int, float] = field(default_factory=dict)  # by pid, when last read
    _cpu_total: float = 0.0

    def enter(self, name: str) -> None:
        if not self.marks:
            self._cpu_used()  # from here on: the replicas' start is not the tournament's
        self.marks.append((name, time.monotonic()))
        self.memory.append((name, [memory(replica, "VmRSS") for replica in self.group]))
        self._cpu_mark(name)

    def end(self) -> None:
        """The run is over (every message delivered): the last CPU reading, the peaks."""
        self._cpu_mark("the end")
        self.peaks = [memory(replica, "VmHWM") for replica in self.group]

    def _cpu_mark(self, name: str) -> None:
        self._cpu_total += self._cpu_used()
        self.cpu.append((name, self._cpu_total, time.monotonic()))

    def _cpu_used(self) -> float:
        """The replicas' CPU seconds since the last reading (a restarted one's since it
        started; a killed one's after the last reading are lost with it)."""
        used = 0.0
        for replica in self.group:
            if replica.process is None or (now := cpu_seconds(replica.process.pid)) is None:
                continue
            used += now - self._cpu_seen.get(replica.process.pid, 0.0)
            self._cpu_seen[replica.process.pid] = now
        return used

    def handled(self) -> list[tuple[int, Handled]]:
        """Every update the replicas answered (its id, its handling as the fake timed it), by
        kind (`harness.simulation.measure.KINDS`) as the phase it came in says."""
        stats = self.fake.stats
        starts = [t for _, t in self.marks]
        found = []
        for at, seconds, update in zip(
            stats.handled_at, stats.handling_latencies, stats.handled_updates, strict=True
        ):
            started = at - seconds
            stage = bisect.bisect_right(starts, started) - 1
            event = update.get("callback_query") or update.get("message") or {}
            kind = kind_of(
                phase_of(self.marks[stage][0]) if stage >= 0 else OTHER,
                (event.get("from") or {}).get("id"),
                event.get("data"),
            )
            found.append((int(update["update_id"]), Handled(kind, started, seconds, 0)))
        return found

    def metered(self, handled: list[tuple[int, Handled]]) -> list[Handled]:
        """The updates a metered replica recorded: their kind, when the fake handed them
        over, and the replica's handling time, transactions and CPU."""
        costs = self.measured.updates if self.measured is not None else {}
        return [
            Handled(h.kind, h.started, cost.seconds, cost.transactions, cost.cpu)
            for update_id, h in handled
            if (cost := costs.get(update_id)) is not None
        ]

    def lines(self, updates: int, outbox_messages: int) -> list[str]:
        identified = self.handled()
        handled = [h for _, h in identified]
        lines = []
        if self.measured is not None:
            metered = self.metered(identified)
            lines += [f"in the bot: {line}" for line in kind_lines(metered)]
            if len(metered) < len(handled):
                lines.append(
                    f"{len(handled) - len(metered)} of {len(handled)} updates handled have no "
                    "record of the bot (a replica killed with SIGKILL loses its last second's)"
                )
            lines.append(
                background_line(self.measured.background, self.measured.by_label, outbox_messages)
            )
        lines += [
            f"as the fake Telegram timed it: {line}" for line in kind_lines(handled, costs=False)
        ]
        lines += cpu_lines(
            self.cpu, [h.started for h in handled], "the bot's processes together, from /proc"
        )
        stats = self.fake.stats
        answered = list(zip(stats.handled_at, stats.handling_latencies, strict=True))
        ends = [*(at for _, at in self.marks[1:]), time.monotonic()]
        for (name, start), end in zip(self.marks, ends, strict=True):
            seconds = [latency for at, latency in answered if start <= at < end]
            if not seconds:
                continue
            lines.append(
                f"{name}: {len(seconds)} updates, p50 {percentile(seconds, 0.5) * 1000:.0f} ms, "
                f"p95 {percentile(seconds, 0.95) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} "
                f"ms, {len(seconds) / max(end - start, 1e-9):.1f} updates/s"
            )
        if self.transactions is not None:
            per_update = self.transactions / updates if updates else 0.0
            lines.append(
                f"database transactions: {self.transactions} ({per_update:.2f} per update: the "
                "bot's processes', the outbox's and the scheduler's included, and this "
                "harness's reads)"
            )
        at_start = "; ".join(
            f"{name} " + ", ".join(f"{mb:.0f}" for mb in sizes) for name, sizes in self.memory
        )
        idle, peaks = (", ".join(f"{mb:.0f}" for mb in sizes) for sizes in (self.idle, self.peaks))
        lines.append(
            f"memory (RSS of each bot process, MB): idle {idle}; at each stage's start: "
            f"{at_start}; peak at the end {peaks} (a restarted replica's since its restart)"
        )
        return lines
