"""The event loop's stalls in a bot's process, and what ran during each.

A heartbeat task sleeps `BEAT` seconds again and again; when it wakes `STALL` or more later than
it asked, something held the event loop's thread that long (a callback that did not yield, a
garbage collection, or the machine not giving the process a core) and every update in flight
waited through it. While the heartbeat is late, a watchdog thread samples the loop thread's
stack (`sys._current_frames`) every few milliseconds; a stall is then named by the frames seen
most (the innermost frame of the project's own code, and the library's frame it was in). A
garbage collection holds the interpreter's lock throughout, so no sample is taken then: the
collections that overlapped the stall name it instead (`gc.callbacks`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

# The heartbeat's sleep, and the lateness that makes a stall (issue 27's target: none over it).
BEAT = 0.01
STALL = 0.05
# How often the watchdog looks, and after how much lateness it starts sampling.
_LOOK = 0.004
_SAMPLE_AFTER = 0.02
# The longest stalls kept (and printed).
KEPT = 8
_PROJECT = Path(__file__).resolve().parents[2]
_OWN = tuple(str(_PROJECT / part) for part in ("bot", "domain", "handlers"))


@dataclass
class LoopStalls:
    """A process's stalls of `STALL` or more: how many, and the longest with what ran.

    A stall is the loop's own when its thread spent `STALL` or more of CPU in it (a callback,
    a collection); otherwise the thread mostly waited, for a core the machine's other
    processes held (or the interpreter's lock another thread held): `own` counts the first.
    """

    count: int = 0
    seconds: float = 0.0
    own: int = 0
    # (seconds, the loop thread's CPU seconds in it, what ran): the longest, and those with
    # the most of the loop thread's CPU (under `STALL` too: how far from the target they are).
    longest: list[tuple[float, float, str]] = field(default_factory=list)
    longest_own: list[tuple[float, float, str]] = field(default_factory=list)

    def add(self, seconds: float, cpu: float, what: str) -> None:
        self.count += 1
        self.seconds += seconds
        self.longest = sorted([*self.longest, (seconds, cpu, what)], reverse=True)[:KEPT]
        self.own += cpu >= STALL
        self.longest_own = _by_cpu([*self.longest_own, (seconds, cpu, what)])

    @classmethod
    def of_processes(cls, many: Iterable[LoopStalls]) -> LoopStalls:
        together = cls()
        for stalls in many:
            together.count += stalls.count
            together.seconds += stalls.seconds
            together.own += stalls.own
            # Read back from JSON, each stall is a list.
            together.longest = sorted([*together.longest, *_read(stalls.longest)], reverse=True)[
                :KEPT
            ]
            together.longest_own = _by_cpu([*together.longest_own, *_read(stalls.longest_own)])
        return together

    def lines(self) -> list[str]:
        head = (
            f"event loop stalls of {STALL * 1000:.0f} ms or more: {self.count}, "
            f"{self.seconds:.1f} s in all; {self.own} with {STALL * 1000:.0f} ms or more of "
            "the loop thread's own CPU (the rest waited for a core)"
        )
        return [
            head,
            "  the longest (wall / the loop thread's CPU: what ran):",
            *(_line(stall) for stall in self.longest),
            "  the most of the loop thread's own CPU:",
            *(_line(stall) for stall in self.longest_own),
        ]


def _by_cpu(stalls: list[tuple[float, float, str]]) -> list[tuple[float, float, str]]:
    return sorted(stalls, key=lambda stall: stall[1], reverse=True)[:KEPT]


def _read(stalls: Iterable[Sequence[object]]) -> list[tuple[float, float, str]]:
    return [(float(str(w)), float(str(c)), str(what)) for w, c, what in stalls]


def _line(stall: tuple[float, float, str]) -> str:
    seconds, cpu, what = stall
    return f"    {seconds * 1000:.0f} / {cpu * 1000:.0f} ms: {what}"


def _frame_name(frame: FrameType) -> str:
    code = frame.f_code
    path = Path(code.co_filename)
    with contextlib.suppress(ValueError):
        path = path.relative_to(_PROJECT)
    return f"{path}:{frame.f_lineno} {code.co_name}"


def describe(frame: FrameType | None) -> str:
    """The innermost frame of the project's own code, and the innermost one below it."""
    innermost = frame
    while frame is not None and not frame.f_code.co_filename.startswith(_OWN):
        frame = frame.f_back
    if frame is None:
        return _frame_name(innermost) if innermost is not None else "?"
    if innermost is frame or innermost is None:
        return _frame_name(frame)
    return f"{_frame_name(frame)} (in {_frame_name(innermost)})"


class StallWatch:
    """While entered (in the event loop's thread), the loop's stalls are kept in `stalls`."""

    def __init__(self) -> None:
        self.stalls = LoopStalls()
        self._beat = time.perf_counter()
        self._late_since = 0.0
        self._samples: Counter[str] = Counter()
        # start, end, generation, the collecting thread's CPU
        self._collections: list[tuple[float, float, int, float]] = []
        self._collecting_since = self._collecting_cpu = 0.0
        self._stop = threading.Event()
        self._thread_id = threading.get_ident()
        self._watchdog = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> StallWatch:
        self._thread_id = threading.get_ident()
        gc.callbacks.append(self._collected)
        self._task = asyncio.create_task(self._heartbeat())
        self._watchdog.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        self._stop.set()
        gc.callbacks.remove(self._collected)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _collected(self, phase: str, info: Mapping[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._collecting_since, self._collecting_cpu = now, time.thread_time()
        elif now - self._collecting_since >= _LOOK:
            cpu = time.thread_time() - self._collecting_cpu
            self._collections.append((self._collecting_since, now, info["generation"], cpu))

    async def _heartbeat(self) -> None:
        while True:
            before, cpu_before = time.perf_counter(), time.thread_time()
            await asyncio.sleep(BEAT)
            now = time.perf_counter()
            self._beat = now
            late = now - before - BEAT
            cpu = time.thread_time() - cpu_before
            samples, self._samples = self._samples, Counter()
            collections, self._collections = self._collections, []
            if late >= STALL:
                self.stalls.add(late, cpu, self._what(samples, collections, before))

    @staticmethod
    def _what(
        samples: Counter[str], collections: list[tuple[float, float, int, float]], since: float
    ) -> str:
        parts = [
            f"gc generation {generation} {(end - start) * 1000:.0f} ms ({cpu * 1000:.0f} ms CPU)"
            for start, end, generation, cpu in collections
            if end >= since
        ]
        parts += [f"{name} ×{count}" for name, count in samples.most_common(2)]
        return "; ".join(parts) or "no sample (the process had no core, or C code held it)"

    def _watch(self) -> None:
        while not self._stop.wait(_LOOK):
            if time.perf_counter() - self._beat < BEAT + _SAMPLE_AFTER:
                continue
            frame = sys._current_frames().get(self._thread_id)
            self._samples[describe(frame)] += 1
            del frame
