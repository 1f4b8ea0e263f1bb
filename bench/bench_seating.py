"""Seating quality and CPU time for the issue's cases: `python bench/bench_seating.py`."""

from __future__ import annotations

import time

from domain.seating import SeatingRequest, generate_seating
from domain.seating_quality import evaluate_seating

# (players, team size, tables per round, rounds)
CASES = [
    (60, 3, 6, 6),
    (40, 0, 4, 6),
    (20, 0, 2, 3),
    (30, 3, 3, 6),
    (57, 0, 5, 6),
    (100, 0, 10, 6),
    (100, 0, 10, 10),
]


def main() -> None:
    print(
        "case                 max_meet  S2 (bound)   over   repeated-seat  zone-unbal  "
        "table-rep  sit-out  mates  CPU s"
    )
    for players_count, team_size, tables, rounds in CASES:
        players = tuple(f"p{i}" for i in range(1, players_count + 1))
        team_of = {p: f"t{k // team_size + 1}" for k, p in enumerate(players)} if team_size else {}
        request = SeatingRequest(
            players=players, rounds=rounds, tables_per_round=(tables,) * rounds, team_of=team_of
        )
        start = time.process_time()
        seating = generate_seating(request)
        seconds = time.process_time() - start
        q = evaluate_seating(request, seating)
        label = f"{players_count}p k{team_size} {tables}t {rounds}r"
        over = f"{100 * (q.s2 - q.s2_bound) / q.s2_bound:+.1f}%" if q.s2_bound else "-"
        print(
            f"{label:20} {q.max_meet}/{q.max_meet_bound:<6} {q.s2:>4} ({q.s2_bound:>4})  "
            f"{over:>6}  {q.players_with_repeated_seats:>13}  {q.seat_zone_unbalanced:>10}  "
            f"{q.table_repeats:>9}  {q.sit_out_unfairness:>7}  {q.teammates_together:>5}  "
            f"{seconds:5.2f}"
        )


if __name__ == "__main__":
    main()
