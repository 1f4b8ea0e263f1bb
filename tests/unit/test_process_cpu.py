"""The benchmarks read a bot process's CPU, and its event loop thread's apart, from /proc
(`harness.simulation.replicas.process.cpu_seconds`)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from harness.simulation.replicas.process import cpu_seconds

BURN = 0.5  # CPU seconds; /proc counts in clock ticks (a hundredth of a second here)


def _burn(seconds: float) -> None:
    started = time.thread_time()
    while time.thread_time() - started < seconds:
        pass


def test_a_threads_cpu_is_read_apart_from_the_process_and_the_main_thread() -> None:
    pid = os.getpid()
    process_before = cpu_seconds(pid) or 0.0
    main_before = cpu_seconds(pid, thread=threading.get_native_id()) or 0.0
    burned: list[float | None] = []

    def work() -> None:
        _burn(BURN)
        burned.append(cpu_seconds(pid, thread=threading.get_native_id()))

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    process_grew = (cpu_seconds(pid) or 0.0) - process_before
    main_grew = (cpu_seconds(pid, thread=threading.get_native_id()) or 0.0) - main_before

    assert burned[0] is not None and burned[0] >= BURN * 0.8
    assert process_grew >= BURN * 0.8
    assert main_grew < burned[0]  # the main thread waited: the worker's CPU is not its


def test_a_process_gone_reads_none() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # reaped: its /proc entry is gone

    assert cpu_seconds(child.pid) is None
    assert cpu_seconds(child.pid, thread=child.pid) is None
