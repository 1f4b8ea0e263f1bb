"""The judges' schedule chosen with the seating: which of a round's judges sits at which table.

Judges rotating over the tables on a fixed schedule (`judges.rotate_judges`) make the seating
spread every player over the tables and, separately, over the judges; for 30 players in teams
of 3 at 3 tables no seating does both with every pair within its bound of 3 meetings
(`bench/seating_teams_of_three.py`). Chosen afterwards, the judges cost the seating nothing:
the search seats the stage as if each judge stayed at his table (his players are then the
table's, spread as well as the tables are). The judges then rotate as given if that leaves
every player within one game of his bound with a judge; else each round's judges are given to
its tables by the numbering (`table_numbers`, the groups numbered over the judges instead of
the tables), from the rotation; and if that fails too, every judge stays at his table, which
never costs a meeting (issue 31).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from domain.seating.table_numbers import NumberingProblem, numbered_with_far_over

JudgeRow = tuple[str | None, ...]


def choosable(table_judges: Sequence[JudgeRow], tables: Sequence[int]) -> bool:
    """Whether the rounds' judges can be moved between their tables: every round names the
    same judges (the same count of tables without one), one per table."""
    if not table_judges or len(table_judges) != len(tables):
        return False
    first = sorted(table_judges[0], key=lambda judge: (judge is None, judge or ""))
    return all(
        len(row) == count and sorted(row, key=lambda judge: (judge is None, judge or "")) == first
        for row, count in zip(table_judges, tables, strict=True)
    )


def chosen_judges(
    rounds: Sequence[Sequence[Sequence[int]]],
    table_judges: Sequence[JudgeRow],
    player_count: int,
    rng: random.Random,
) -> tuple[JudgeRow, ...]:
    """Every round's judge of each table for the groups of `rounds` (player indices, table
    order), seated as if each judge stayed at his table of the first round.

    The schedule given (the rotation) when it leaves nobody more than one game above his bound
    with a judge; else the best numbering of the groups over the judges from there, if it
    leaves nobody so; else the judges stay at their tables, which is as sound as the tables.
    """
    slots = tuple(table_judges[0])
    problem = NumberingProblem(
        player_count=player_count,
        tables=(len(slots),) * len(rounds),
        judges=(),
        forbidden=frozenset(),
        hint=((-1,) * player_count,) * len(rounds),
    )
    given = [_by_slot(groups, row, slots) for groups, row in zip(rounds, table_judges, strict=True)]
    if _far_over(given, len(slots)) == 0:
        return tuple(tuple(row) for row in table_judges)
    numbered, far_over = numbered_with_far_over(problem, given, range(len(rounds)), rng)
    if far_over:
        return (slots,) * len(rounds)
    schedule = []
    for groups, by_slot in zip(rounds, numbered, strict=True):
        table_of = {frozenset(group): t for t, group in enumerate(groups)}
        row: list[str | None] = [None] * len(slots)
        for slot, group in enumerate(by_slot):
            row[table_of[frozenset(group)]] = slots[slot]
        schedule.append(tuple(row))
    return tuple(schedule)


def _by_slot(groups: Sequence[Sequence[int]], row: JudgeRow, slots: JudgeRow) -> list[list[int]]:
    """A round's groups in the order of `slots`: the group of each slot's judge in `row`."""
    tables_of: dict[str | None, list[int]] = {}
    for t, judge in enumerate(row):
        tables_of.setdefault(judge, []).append(t)
    return [list(groups[tables_of[judge].pop(0)]) for judge in slots]


def _far_over(by_slot: Sequence[Sequence[Sequence[int]]], slots: int) -> int:
    """Games more than one above a player's bound (⌈games / slots⌉) with one judge slot."""
    visits: dict[tuple[int, int], int] = {}
    games: dict[int, int] = {}
    for groups in by_slot:
        for slot, group in enumerate(groups):
            for p in group:
                visits[p, slot] = visits.get((p, slot), 0) + 1
                games[p] = games.get(p, 0) + 1
    return sum(max(0, count - -(-games[p] // slots) - 1) for (p, _slot), count in visits.items())
