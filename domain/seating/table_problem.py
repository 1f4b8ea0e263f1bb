"""A stage in player indices, as the table search (`swap_search`) works on it."""

from __future__ import annotations

from dataclasses import dataclass

from domain.seating.table_numbers import NumberingProblem


@dataclass(frozen=True)
class TableProblem:
    """A stage in indices: player 0..n-1, round 0..R-1, table 0..T_r-1.

    `playing[r]` lists who plays round r (a multiple of 10); `fixed[r]` holds the tables of a
    played round, else None. `apart` holds pairs (i, j) with i < j that must never share a table;
    `forbidden` holds (player, round, table) placements that are not allowed. `hint[r][i]` is the
    table the previous seating gave player i in round r, or -1; `judges[r][t]` is the judge (an
    index, -1 for none) of table t in round r, empty when the judges are not known.
    `start[r]`, when given for every free round, is a table of every playing player to start the
    search from (a structured design). `swaps` is the work of the search in swaps weighed; it
    stops early when the stage's S2 reaches `s2_bound` (a lower bound: nothing better exists).
    """

    player_count: int
    playing: tuple[tuple[int, ...], ...]
    tables: tuple[int, ...]
    fixed: tuple[tuple[tuple[int, ...], ...] | None, ...]
    apart: frozenset[tuple[int, int]]
    forbidden: frozenset[tuple[int, int, int]]
    hint: tuple[tuple[int, ...], ...]
    meet_target: int
    swaps: int
    start: tuple[tuple[int, ...], ...] | None = None
    s2_bound: int = 0
    judges: tuple[tuple[int, ...], ...] = ()


def numbering_problem(problem: TableProblem) -> NumberingProblem:
    """What the table numbering needs of a stage in the search's terms."""
    return NumberingProblem(
        player_count=problem.player_count,
        tables=problem.tables,
        judges=problem.judges,
        forbidden=problem.forbidden,
        hint=problem.hint,
    )


def meeting_figures(rounds: list[list[list[int]]]) -> tuple[int, int]:
    """The largest number of games two players share, and S2 (Σ over pairs of C(meetings, 2))."""
    meetings: dict[tuple[int, int], int] = {}
    for tables in rounds:
        for table in tables:
            ordered = sorted(table)
            for k, a in enumerate(ordered):
                for b in ordered[k + 1 :]:
                    meetings[a, b] = meetings.get((a, b), 0) + 1
    return max(meetings.values(), default=0), sum(m * (m - 1) // 2 for m in meetings.values())
