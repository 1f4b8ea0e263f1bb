"""Where a test run's time goes, opt-in: with `MAFIATOUR_TEST_TIMES=path`, each test appends
one JSON line to `path` (every xdist process to the same file): its wall seconds, the test
process's CPU seconds, the CPU of the subprocesses it started and waited for
(`RUSAGE_CHILDREN`: the bot processes of the replica drills, `mafiatour run`, Chromium), and
the xdist process that ran it, setup and teardown included.

    MAFIATOUR_TEST_TIMES=/tmp/times.jsonl .venv/bin/pytest -n 2 tests/e2e
    .venv/bin/python -m tests.timing /tmp/times.jsonl

Without the variable nothing is measured or written.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

TIMES = os.environ.get("MAFIATOUR_TEST_TIMES")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    if TIMES is None:
        yield
        return
    wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
    yield
    line = {
        "test": item.nodeid,
        "wall": round(time.perf_counter() - wall, 3),
        "cpu": round(time.process_time() - cpu, 3),
        "children": round(_children_cpu() - children, 3),
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
    }
    with open(TIMES, "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


def summary(path: Path, top: int = 40) -> list[str]:
    """The file's totals, per test file and the `top` tests by wall time."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for row in rows:
        figures = files[row["test"].split("::")[0]]
        for index, key in enumerate(("wall", "cpu", "children")):
            figures[index] += row[key]
        figures[3] += 1
    total = [sum(row[key] for row in rows) for key in ("wall", "cpu", "children")]
    lines = [
        f"{len(rows)} tests: wall {total[0]:.0f} s, cpu {total[1]:.0f} s, "
        f"subprocesses {total[2]:.0f} s"
    ]
    lines.append("per file (wall, cpu, subprocesses, tests):")
    for name, (wall, cpu, children, count) in sorted(files.items(), key=lambda f: -f[1][0]):
        lines.append(f"  {wall:7.1f} {cpu:7.1f} {children:7.1f} {count:4.0f}  {name}")
    lines.append(f"the {top} longest tests (wall, cpu, subprocesses):")
    for row in sorted(rows, key=lambda r: -r["wall"])[:top]:
        figures = f"{row['wall']:7.1f} {row['cpu']:7.1f} {row['children']:7.1f}"
        lines.append(f"  {figures}  {row['test']}")
    return lines


if __name__ == "__main__":
    print("\n".join(summary(Path(sys.argv[1]))))
