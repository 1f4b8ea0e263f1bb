"""What each kind of update cost the bot during a simulation: handling time, transactions and
throughput by phase of the tournament, the outbox's transactions and the process's memory.

The meter wraps the Dispatcher's `feed_update`, so an update is timed from the start of its
handling (its sender's lookup and conversation state included) to its end (a confirmation's
commit included), and the transactions its task begins are counted as its own. Of those begun
outside any update, the outbox worker's and the reminder scheduler's are told apart by their
labels (`bot.db.transactions.labelled`); the rest are the web application's requests (the live
games' judges use the Mini App) and the start's.

Its handling time depends on everything else the machine runs; its CPU time does not: every
step the event loop runs on behalf of an update's task (and the tasks it starts) adds the
event loop thread's CPU time it took to that update (`CpuMeter`). The database driver's
thread (aiosqlite) is not in it: the whole process's CPU time per phase is printed beside it.
"""

from __future__ import annotations

import asyncio
import gc
import resource
import time
import tracemalloc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

from aiogram import Dispatcher
from aiogram.types import Update

from bot.db.transactions import Tally, counting
from bot.delivery import scheduler
from bot.delivery import worker as delivery
from bot.rendering.pictures import PictureFigures
from harness.simulation.figures import percentile
from harness.simulation.people import ORGANIZER_ID

# The phases as the report names them, in the order of a tournament.
REGISTRATION = "registration burst"
CHECK_IN = "check-in"
PROTOCOL = "judges' protocol presses"
CONFIRMATION = "confirmations"
ORGANIZER = "organizer's screens"
OTHER = "other updates"
KINDS = (REGISTRATION, CHECK_IN, PROTOCOL, CONFIRMATION, ORGANIZER, OTHER)

# The protocol screen's buttons (handlers/callbacks.py `ProtocolButton`) and its confirm act.
_PROTOCOL_PREFIX = "pp:"
_CONFIRM_ACT = "c"
# The checkout: an allocation in the project's own code is named by its path from here.
PROJECT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, slots=True)
class Handled:
    """One update: its kind, when its handling started and ended, its transactions."""

    kind: str
    started: float
    seconds: float
    transactions: int
    # The event loop thread's CPU seconds spent on it.
    cpu: float = 0.0


class _Cpu:
    """The CPU seconds of one update's steps so far."""

    __slots__ = ("seconds",)

    def __init__(self) -> None:
        self.seconds = 0.0


# What `meter_updates` labels an update with (its kind, its id).
L = TypeVar("L")

_update_cpu: ContextVar[_Cpu | None] = ContextVar("update_cpu", default=None)


class CpuMeter:
    """While installed, every callback the event loop runs in a context inside an update adds
    the thread's CPU time it took to that update (`asyncio.Handle._run` wrapped)."""

    def __init__(self) -> None:
        self._original = asyncio.events.Handle._run

    def __enter__(self) -> CpuMeter:
        original = self._original

        def run(handle: asyncio.Handle) -> None:
            cell = handle._context.get(_update_cpu)  # type: ignore[attr-defined]
            if cell is None:
                original(handle)
                return
            started = time.thread_time()
            try:
                original(handle)
            finally:
                cell.seconds += time.thread_time() - started

        asyncio.events.Handle._run = run  # type: ignore[method-assign,assignment]
        return self

    def __exit__(self, *_: object) -> None:
        asyncio.events.Handle._run = self._original  # type: ignore[method-assign]


@dataclass
class CollectorPauses:
    """The garbage collector's pauses in a process: each one stops the event loop, so a long
    one (the oldest generation walks every object the process holds) delays every update
    being handled at that moment. Timed twice: on the wall clock (what the updates waited;
    a loaded machine stretches it) and in the collecting thread's CPU (what the collection
    itself cost, whatever the load)."""

    collections: int = 0
    seconds: float = 0.0
    longest: float = 0.0
    # Collections of 50 ms or more, and those of the oldest generation.
    long: int = 0
    oldest: int = 0
    # The same in the collecting thread's CPU, and the oldest generation's longest.
    cpu: float = 0.0
    longest_cpu: float = 0.0
    long_cpu: int = 0
    oldest_cpu: float = 0.0

    @classmethod
    def of_processes(cls, many: Iterable[CollectorPauses]) -> CollectorPauses:
        """Several processes' pauses together (the longest of them all)."""
        together = cls()
        for pauses in many:
            together.collections += pauses.collections
            together.seconds += pauses.seconds
            together.longest = max(together.longest, pauses.longest)
            together.long += pauses.long
            together.oldest += pauses.oldest
            together.cpu += pauses.cpu
            together.longest_cpu = max(together.longest_cpu, pauses.longest_cpu)
            together.long_cpu += pauses.long_cpu
            together.oldest_cpu = max(together.oldest_cpu, pauses.oldest_cpu)
        return together

    def line(self) -> str:
        return (
            f"garbage collector: {self.collections} collections, {self.seconds:.1f} s in all, "
            f"longest {self.longest * 1000:.0f} ms, {self.long} of 50 ms or more, "
            f"{self.oldest} of the oldest generation; in CPU {self.cpu:.1f} s in all, longest "
            f"{self.longest_cpu * 1000:.0f} ms (of the oldest generation "
            f"{self.oldest_cpu * 1000:.0f} ms), {self.long_cpu} of 50 ms or more"
        )


class CollectorTimer:
    """While installed, every garbage collection of the process is timed into `pauses`."""

    def __init__(self) -> None:
        self.pauses = CollectorPauses()
        self._started = 0.0
        self._cpu = 0.0

    def __enter__(self) -> CollectorTimer:
        gc.callbacks.append(self._timed)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self._timed)

    def _timed(self, phase: str, info: Mapping[str, int]) -> None:
        if phase == "start":
            self._started, self._cpu = time.perf_counter(), time.thread_time()
            return
        pause = time.perf_counter() - self._started
        cpu = time.thread_time() - self._cpu
        pauses = self.pauses
        pauses.collections += 1
        pauses.seconds += pause
        pauses.longest = max(pauses.longest, pause)
        pauses.long += pause >= 0.05
        pauses.oldest += info["generation"] == 2
        pauses.cpu += cpu
        pauses.longest_cpu = max(pauses.longest_cpu, cpu)
        pauses.long_cpu += cpu >= 0.05
        if info["generation"] == 2:
            pauses.oldest_cpu = max(pauses.oldest_cpu, cpu)


def meter_updates(
    dispatcher: Dispatcher,
    label: Callable[[Update], L],
    note: Callable[[L, float, float, Tally, float], None],
) -> None:
    """Wrap the dispatcher's `feed_update` (polling and the webhook call it for each update):
    `note(label(update), started, seconds, tally, cpu)` once it is handled, `label` taken
    when its handling starts, `started` on the `time.perf_counter` clock, `tally` its
    transactions and statements, `cpu` the event loop thread's seconds spent on it (while a
    `CpuMeter` is installed)."""
    feed_update = dispatcher.feed_update

    async def measured(bot: Any, update: Update, **kwargs: Any) -> Any:
        name = label(update)
        cpu = _Cpu()
        token = _update_cpu.set(cpu)
        with counting() as tally:
            started = time.perf_counter()
            try:
                return await feed_update(bot, update, **kwargs)
            finally:
                ended = time.perf_counter()
                _update_cpu.reset(token)
                note(name, started, ended - started, tally, cpu.seconds)

    dispatcher.feed_update = measured  # type: ignore[method-assign]


def rss_mb() -> float:
    """The process's resident memory now, in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_rss_mb() -> float:
    """The most resident memory the process has had, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _module(filename: str) -> str:
    """Where an allocation was made, as a module path (site-packages' as its package)."""
    parts = Path(filename).parts
    for anchor in ("site-packages", "lib"):
        if anchor in parts:
            rest = parts[parts.index(anchor) + 1 :]
            if anchor == "site-packages":
                return rest[0] if rest else filename
            return "python/" + "/".join(rest[-2:]) if rest else filename
    path = Path(filename)
    return path.relative_to(PROJECT).as_posix() if path.is_relative_to(PROJECT) else filename


@dataclass
class MemoryTrace:
    """tracemalloc snapshots at the run's parts (the bot idle, each stage, the end) and where
    memory grew between the first and the last, by module (slows the run: on request)."""

    snapshots: list[tuple[str, tracemalloc.Snapshot]] = field(default_factory=list)

    def take(self, name: str) -> None:
        if tracemalloc.is_tracing():
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            self.snapshots.append((name, snapshot))

    def lines(self, top: int = 12) -> list[str]:
        if len(self.snapshots) < 2:
            return []
        by_part = ", ".join(
            f"{name} {sum(stat.size for stat in snapshot.statistics('filename')) / 2**20:.0f} MB"
            for name, snapshot in self.snapshots
        )
        lines = [f"traced Python memory at: {by_part}"]
        (first_name, first), (last_name, last) = self.snapshots[1], self.snapshots[-1]
        growth: dict[str, int] = {}
        for stat in last.compare_to(first, "filename"):
            module = _module(stat.traceback[0].filename)
            growth[module] = growth.get(module, 0) + stat.size_diff
        biggest = sorted(growth.items(), key=lambda item: -abs(item[1]))[:top]
        lines.append(
            f"growth from {first_name} to {last_name} by module: "
            + ", ".join(f"{module} {size / 2**20:+.1f} MB" for module, size in biggest)
        )
        return lines


@dataclass
class UpdateMeter:
    """Times and counts every update a Dispatcher handles, by kind (see `KINDS`)."""

    # Every transaction of the run (the meter is made inside its `counting()` block).
    run: Tally
    phase: str = OTHER
    handled: list[Handled] = field(default_factory=list)
    memory: list[tuple[str, float]] = field(default_factory=list)
    # (phase, process CPU seconds, wall clock) where each phase started; the run's end last.
    marks: list[tuple[str, float, float]] = field(default_factory=list)
    trace: MemoryTrace = field(default_factory=MemoryTrace)
    _apart: int = 0

    def attach(self, dispatcher: Dispatcher) -> None:
        """Meter every update the dispatcher handles, by its kind when its handling starts."""

        def note(kind: str, started: float, seconds: float, tally: Tally, cpu: float) -> None:
            self.handled.append(Handled(kind, started, seconds, tally.transactions, cpu))

        meter_updates(dispatcher, self._kind, note)

    def enter(self, stage_name: str) -> None:
        """The simulation's progress entered a stage: registration, check-in or a stage of
        games (its Russian bar names); the memory is noted at each."""
        self.phase = phase_of(stage_name)
        self.memory.append((stage_name, rss_mb()))
        self.mark(stage_name)

    def mark(self, name: str) -> None:
        """Note the process's CPU time (and its memory, when traced) at the start of a part
        of the run; "the end" at its end."""
        self.marks.append((name, time.process_time(), time.perf_counter()))
        self.trace.take(name)

    @contextmanager
    def apart(self) -> Iterator[None]:
        """The simulation's own reads (waiting for the outbox, the final standings): their
        transactions are neither an update's nor the outbox's."""
        with counting() as tally:
            yield
        self._apart += tally.transactions

    def _kind(self, update: Update) -> str:
        sender = getattr(update.event, "from_user", None)
        query = update.callback_query
        return kind_of(
            self.phase, sender.id if sender is not None else None, query.data if query else None
        )

    def background_transactions(self) -> int:
        """Transactions begun outside any update and outside the simulation's own reads."""
        in_updates = sum(h.transactions for h in self.handled)
        return self.run.transactions - in_updates - self._apart

    def lines(self, outbox_messages: int) -> list[str]:
        """The figures by kind, then the outbox's transactions."""
        lines = kind_lines(self.handled)
        lines += cpu_lines(
            self.marks,
            [h.started for h in self.handled],
            "bot, its database thread, the outbox, the fake Telegram and the scripted people "
            "together",
        )
        lines.append(
            background_line(self.background_transactions(), self.run.by_label, outbox_messages)
        )
        return lines


def background_line(background: int, by_label: Mapping[str, int], outbox_messages: int) -> str:
    """The outbox worker's and the reminder scheduler's transactions (`by_label`) per message
    the outbox holds, and the rest of those begun outside any update (`background`)."""
    worker = by_label.get(delivery.TRANSACTIONS_LABEL, 0)
    sweeps = by_label.get(scheduler.TRANSACTIONS_LABEL, 0)
    per_message = (worker + sweeps) / outbox_messages if outbox_messages else 0.0
    return (
        f"outbox and scheduler: {worker + sweeps} transactions for {outbox_messages} outbox "
        f"messages ({per_message:.2f} per message: the worker's cycles and drawings {worker}, "
        f"the scheduler's wake-ups {sweeps}); other transactions outside updates (the web "
        f"application's requests, the start): {background - worker - sweeps}"
    )


def pictures_line(pictures: PictureFigures) -> str | None:
    """What the standings pictures cost in the picture process; None when none was drawn."""
    if not pictures.drawn:
        return None
    return (
        f"standings pictures (drawn in the picture process): {pictures.drawn} drawn, "
        f"{pictures.reused} reused; CPU {pictures.cpu_total:.1f} s in all, "
        f"{pictures.cpu_total / pictures.drawn:.2f} s each, max {pictures.cpu_max:.2f} s"
    )


def phase_of(stage_name: str) -> str:
    """The phase a stage of the simulation's progress (its Russian bar's name) begins."""
    if stage_name.startswith("Регистрация"):
        return REGISTRATION
    if stage_name.startswith("Отметка"):
        return CHECK_IN
    return PROTOCOL


def kind_of(phase: str, sender_id: int | None, callback_data: str | None) -> str:
    """An update's kind (see `KINDS`) from the phase it came in, its sender and its button."""
    if sender_id == ORGANIZER_ID:
        return ORGANIZER
    if phase == PROTOCOL and callback_data:
        if callback_data.startswith(_PROTOCOL_PREFIX):
            act = callback_data.split(":")[2]
            return CONFIRMATION if act == _CONFIRM_ACT else PROTOCOL
        return OTHER
    if phase in (REGISTRATION, CHECK_IN):
        return phase
    return OTHER


def kind_lines(handled: Sequence[Handled], *, costs: bool = True) -> list[str]:
    """By kind: updates, handling p50/p95/max, updates/s; with `costs` (measured inside the
    process) also transactions and CPU per update."""
    lines = []
    for kind in KINDS:
        of_kind = [h for h in handled if h.kind == kind]
        if not of_kind:
            continue
        seconds = [h.seconds for h in of_kind]
        span = max(h.started + h.seconds for h in of_kind) - min(h.started for h in of_kind)
        rate = len(of_kind) / span if span > 0 else 0.0
        line = (
            f"{kind}: {len(of_kind)} updates, p50 {percentile(seconds, 0.5) * 1000:.0f} ms, "
            f"p95 {percentile(seconds, 0.95) * 1000:.0f} ms, "
            f"max {max(seconds) * 1000:.0f} ms, {rate:.1f} updates/s"
        )
        if costs:
            transactions = sum(h.transactions for h in of_kind) / len(of_kind)
            most = max(h.transactions for h in of_kind)
            cpu = [h.cpu for h in of_kind]
            line += (
                f", {transactions:.2f} transactions/update (max {most}); CPU per update "
                f"mean {sum(cpu) / len(cpu) * 1000:.1f} ms, p95 {percentile(cpu, 0.95) * 1000:.1f} "
                f"ms, max {max(cpu) * 1000:.1f} ms"
            )
        lines.append(line)
    return lines


def cpu_lines(
    marks: Sequence[tuple[str, float, float]], starts: Sequence[float], whose: str
) -> list[str]:
    """Process CPU by part of the run: `marks` are (part, CPU seconds, wall clock) where each
    part started and the run's end last, `starts` when each update started (same clock)."""
    lines = []
    for (name, used, wall), (_, next_used, next_wall) in pairwise(marks):
        updates = sum(1 for started in starts if wall <= started < next_wall)
        per_update = (next_used - used) / updates * 1000 if updates else 0.0
        lines.append(
            f"process CPU in {name}: {next_used - used:.1f} s over {next_wall - wall:.0f} s, "
            f"{updates} updates, {per_update:.1f} ms per update ({whose})"
        )
    return lines
