"""Seating quality and time of the whole `mafiatour seating` command for the issue's cases.

`python bench/bench_seating.py` runs the command once per case, as an organizer would (start-up,
imports, the search, the report), and prints its figures beside their lower bounds: repeated
meetings, seats, most games at one table and with one judge (judges rotating, one a table),
sit-outs and teammates; then the wall and CPU seconds of the command. The cases of issue 31
run on seeds 1-3 beside their targets (the pair maximum, S2, each under 10 s wall), the others
on seed 1. `--budgets` adds what smaller search budgets (`--swaps`) buy on two cases.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

# (players, team size, tables per round, rounds)
CASES = [
    (60, 3, 6, 6),
    (40, 0, 4, 6),
    (20, 0, 2, 3),
    (30, 3, 3, 6),
    (57, 0, 5, 6),
    (48, 0, 4, 9),
    (100, 0, 10, 6),
    (100, 0, 10, 10),
    (300, 0, 30, 6),
]
# Issue 31's targets: (most meetings of a pair or None, S2 at most); every case under 10 s wall.
TARGETS = {(30, 3, 3, 6): (3, 556), (60, 3, 6, 6): (None, 371), (48, 0, 4, 9): (None, 691)}
TARGET_SEEDS = (1, 2, 3)
WALL_TARGET = 10.0
BUDGET_CASES = [(57, 0, 5, 6), (48, 0, 4, 9)]
BUDGETS = [10_000_000, 30_000_000, 100_000_000, 400_000_000]
COMMAND = [str(Path(sys.executable).with_name("mafiatour")), "seating"]


def run(players: int, team_size: int, tables: int, rounds: int, *extra: str) -> tuple:
    """The command's quality report, wall seconds and CPU seconds (its own process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    output = subprocess.run(
        [
            *COMMAND,
            *("--players", str(players), "--team-size", str(team_size)),
            *("--tables", str(tables), "--rounds", str(rounds), *extra),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(output)["quality"], wall, cpu


def label(players: int, team_size: int, tables: int, rounds: int) -> str:
    return f"{players}p k{team_size} {tables}t {rounds}r"


def line(q: dict) -> str:
    over = f"{100 * (q['s2'] - q['s2_bound']) / q['s2_bound']:+.1f}%" if q["s2_bound"] else "-"
    table = q["most_at_table"][1] if q["most_at_table"] else 0
    judge = q["most_with_judge"][1] if q["most_with_judge"] else 0
    return (
        f"{q['max_meet']}/{q['max_meet_bound']:<4} {q['s2']:>4} ({q['s2_bound']:>4}) {over:>6}  "
        f"{q['players_with_repeated_seats']:>5} {q['seat_zone_unbalanced']:>5}  "
        f"{table}/{q['most_at_table_bound']:<4} {judge}/{q['most_with_judge_bound']:<4} "
        f"{q['sit_out_unfairness']:>4} {q['teammates_together']:>5}"
    )


HEADER = "meet   S2 (bound)   over  seats zones  table  judge  sit-out mates   wall s  CPU s"


def target(case: tuple, quality: dict, wall: float) -> str:
    """Whether a case of issue 31 meets its target, and the target itself."""
    if case not in TARGETS:
        return ""
    meet, s2 = TARGETS[case]
    met = (meet is None or quality["max_meet"] <= meet) and quality["s2"] <= s2
    met = met and wall < WALL_TARGET
    table_ok = quality["most_at_table"] is None or (
        quality["most_at_table"][1] <= quality["most_at_table_bound"] + 1
    )
    judge_ok = quality["most_with_judge"] is None or (
        quality["most_with_judge"][1] <= quality["most_with_judge_bound"] + 1
    )
    wanted = f"{'' if meet is None else f'meet {meet}, '}S2 <= {s2}"
    return f"  {'ok' if met and table_ok and judge_ok else 'MISSED'} ({wanted})"


def main() -> None:
    _quality, wall, cpu = run(10, 0, 1, 1, "--swaps", "1000")
    print(f"start-up and report alone (10 players, 1 round): wall {wall:.2f} s, CPU {cpu:.2f} s")
    print(f"{'case':18} seed {HEADER}  target")
    for case in CASES:
        for seed in TARGET_SEEDS if case in TARGETS else (1,):
            quality, wall, cpu = run(*case, "--seed", str(seed))
            verdict = target(case, quality, wall)
            print(f"{label(*case):18} {seed:>4} {line(quality)}  {wall:7.2f} {cpu:6.2f}{verdict}")
    if "--budgets" in sys.argv:
        print()
        print(f"{'case':18} {'swaps':>11}  {HEADER}")
        for case in BUDGET_CASES:
            for swaps in BUDGETS:
                quality, wall, cpu = run(*case, "--swaps", str(swaps))
                print(f"{label(*case):18} {swaps:>11,}  {line(quality)}  {wall:7.2f} {cpu:6.2f}")


if __name__ == "__main__":
    main()
