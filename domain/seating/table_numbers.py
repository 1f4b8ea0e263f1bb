"""Table numbers for the groups of every round: few games at one table, few with one judge.

The search decides who plays with whom; which of a round's groups sits at which table (and so
under which judge, since judges rotate over the tables) changes no meeting. A player with g
games over T tables sits at some table at least ⌈g/T⌉ times, and meets some judge at least
⌈g/J⌉ times with J judges: these are the bounds. Each return to a table costs more than the one
before (C(v, 2) for v games at one table, as S2 does for meetings) and a visit above the bound
far more, so the worst player comes first and the returns then spread.

Table numbers are given round by round, an optimal assignment (Hungarian method) of the
round's groups to its tables with every other round fixed, sweeping until no round changes;
then a few rounds at a time are shuffled and swept again from the best numbering, since the
sweeps alone stop at the first numbering no single round improves, until nobody is above his
bound or `_SHAKES` shuffles found nothing better.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from domain.seating.assignment import cheapest_assignment
from domain.seating.bounds import place_bounds

# A visit above the player's bound outweighs every return within it (a stage has fewer than
# this many returns); forbidden tables and leaving the previous seating's table outweigh both.
OVER_BOUND = 10**5
# A visit more than one above the bound (what the issue allows at most) outweighs all of those.
FAR_OVER_BOUND = 10**9
_FIXED_TABLE = 10**9
_HARD_TABLE = 10**12
_SWEEPS = 20
# Shuffles of a few rounds' numbers after the sweeps stop, and how many rounds each shuffles.
_SHAKES = 30
_SHAKEN_ROUNDS = 2


@dataclass(frozen=True)
class NumberingProblem:
    """What the numbering needs of a stage, in player indices.

    `judges[r][t]` is the judge (an index) of table t in round r, -1 for none; empty when the
    judges are not known. `forbidden` holds (player, round, table) placements not allowed;
    `hint[r][p]` is the table the previous seating gave player p in round r, or -1.
    """

    player_count: int
    tables: tuple[int, ...]
    judges: tuple[tuple[int, ...], ...]
    forbidden: frozenset[tuple[int, int, int]]
    hint: tuple[tuple[int, ...], ...]


def player_bounds(
    problem: NumberingProblem, rounds: Sequence[Sequence[Sequence[int]]], free: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Every player's bound at one table and with one judge (`bounds.place_bounds`): the
    tables of the rounds not in `free` stay, forbidden tables are out."""
    free_rounds = set(free)
    fixed = {
        (p, r): t
        for r, groups in enumerate(rounds)
        if r not in free_rounds
        for t, group in enumerate(groups)
        for p in group
    }
    judges = [[None if j < 0 else j for j in row] for row in problem.judges]
    tables, judged = place_bounds(
        [[p for group in groups for p in group] for groups in rounds],
        problem.tables,
        fixed,
        problem.forbidden,
        judges,
    )
    n = problem.player_count
    return (
        np.array([tables.get(p, 0) for p in range(n)], dtype=np.int64),
        np.array([judged.get(p, 0) for p in range(n)], dtype=np.int64),
    )


def number_tables(
    problem: NumberingProblem,
    rounds: list[list[list[int]]],
    free_rounds: Sequence[int],
    rng: random.Random,
) -> list[list[list[int]]]:
    """The rounds with each free round's groups renumbered; groups and fixed rounds stay."""
    return numbered_with_far_over(problem, rounds, free_rounds, rng)[0]


def numbered_with_far_over(
    problem: NumberingProblem,
    rounds: list[list[list[int]]],
    free_rounds: Sequence[int],
    rng: random.Random,
) -> tuple[list[list[list[int]]], int]:
    """`number_tables`, and the games more than one above a player's bound, at a table or with
    a judge, that its numbering still leaves."""
    numbering = _best_numbering(problem, rounds, free_rounds, rng)
    return numbering.copy_rounds(), numbering.far_over()


def _best_numbering(
    problem: NumberingProblem,
    rounds: list[list[list[int]]],
    free_rounds: Sequence[int],
    rng: random.Random,
) -> _Numbering:
    """Sweeps, then shakes of a few rounds swept again, keeping the best numbering found."""
    numbering = _Numbering(problem, rounds, free_rounds)
    if not free_rounds:
        return numbering
    numbering.sweep(free_rounds)
    best_cost, best = numbering.cost(), numbering.copy_rounds()
    shakable = [r for r in free_rounds if not numbering.pinned(r)]
    for _ in range(_SHAKES if len(shakable) > 1 else 0):
        if best_cost < OVER_BOUND:
            break  # nobody above his bound: the returns left are worth less than the work
        for r in rng.sample(shakable, min(_SHAKEN_ROUNDS, len(shakable))):
            order = list(range(problem.tables[r]))
            rng.shuffle(order)
            numbering.renumber(r, order)
        numbering.sweep(free_rounds)
        cost = numbering.cost()
        if cost < best_cost:
            best_cost, best = cost, numbering.copy_rounds()
        else:
            numbering.restore(best)
    return numbering


class _Numbering:
    """Visits `tables[p, t]` and `judged[p, j]` of the current numbering, kept up to date."""

    def __init__(
        self, problem: NumberingProblem, rounds: list[list[list[int]]], free: Sequence[int]
    ) -> None:
        self.problem = problem
        self.rounds = rounds
        n = problem.player_count
        most = max(problem.tables, default=0)
        judge_count = max((j for row in problem.judges for j in row), default=-1) + 1
        self.judge_count = judge_count
        self.tables = np.zeros((n, most), dtype=np.int64)
        # One column past the judges for tables without one, which costs nothing.
        self.judged = np.zeros((n, judge_count + 1), dtype=np.int64)
        for r in range(len(rounds)):
            self._visit_round(r, 1)
        self.table_bound, self.judge_bound = player_bounds(problem, rounds, free)
        self.top = max(len(problem.tables), 1) + 1
        self.extra = self._fixed_costs()

    def _judge(self, r: int, t: int) -> int:
        judges = self.problem.judges
        if r < len(judges) and t < len(judges[r]) and judges[r][t] >= 0:
            return judges[r][t]
        return self.judge_count

    def _visit_round(self, r: int, step: int) -> None:
        """Add (or take out) the visits of every group of round r at its table."""
        groups = self.rounds[r]
        if not groups:
            return
        members = np.fromiter((p for group in groups for p in group), dtype=np.int64)
        at = np.repeat(np.arange(len(groups)), [len(group) for group in groups])
        judges = np.array([self._judge(r, t) for t in range(len(groups))])
        # A player plays once a round: no index repeats, so plain indexing adds exactly once.
        self.tables[members, at] += step
        self.judged[members, judges[at]] += step

    def _fixed_costs(self) -> dict[int, np.ndarray]:
        """Per round, (player, table) costs of forbidden tables and the previous seating."""
        problem = self.problem
        extra: dict[int, np.ndarray] = {}
        for r, hint in enumerate(problem.hint):
            known = [(p, t) for p, t in enumerate(hint) if t >= 0]
            if known:
                costs = extra.setdefault(r, np.zeros((problem.player_count, problem.tables[r])))
                for p, t in known:
                    costs[p, :] += _FIXED_TABLE
                    if t < problem.tables[r]:
                        costs[p, t] -= _FIXED_TABLE
        for p, r, t in problem.forbidden:
            if r < len(problem.tables) and t < problem.tables[r]:
                costs = extra.setdefault(r, np.zeros((problem.player_count, problem.tables[r])))
                costs[p, t] += _HARD_TABLE
        return extra

    def pinned(self, r: int) -> bool:
        """Whether the previous seating fixes the round's numbers (shuffling it is pointless)."""
        return r < len(self.problem.hint) and any(t >= 0 for t in self.problem.hint[r])

    def _price(self, visits: np.ndarray, bound: np.ndarray) -> np.ndarray:
        """C(v, 2) + OVER_BOUND·(v − bound)² above the bound, + FAR_OVER_BOUND·(v − bound − 1)²
        above one more, per entry."""
        over = np.maximum(0, visits - bound[:, None])
        far = np.maximum(0, over - 1)
        return visits * (visits - 1) // 2 + OVER_BOUND * over * over + FAR_OVER_BOUND * far * far

    def cost(self) -> int:
        """The numbering's cost over every player's tables and judges."""
        judged = self.judged[:, : self.judge_count]
        return int(
            self._price(self.tables, self.table_bound).sum()
            + self._price(judged, self.judge_bound).sum()
        )

    def far_over(self) -> int:
        """Games more than one above a bound, over every player's tables and judges."""
        judged = self.judged[:, : self.judge_count]
        return int(
            np.maximum(0, self.tables - self.table_bound[:, None] - 1).sum()
            + np.maximum(0, judged - self.judge_bound[:, None] - 1).sum()
        )

    def _marginal(self, visits: np.ndarray, bound: np.ndarray) -> np.ndarray:
        return self._price(visits + 1, bound) - self._price(visits, bound)

    def _round_costs(self, r: int) -> list[list[int]]:
        """Cost of each group of round r at each table, with the round's own visits taken out."""
        groups = np.array(self.rounds[r])
        count = len(groups)
        table_cost = self._marginal(self.tables[:, :count], self.table_bound)
        judge_cost = self._marginal(self.judged, self.judge_bound)
        judge_cost[:, self.judge_count] = 0
        judges = [self._judge(r, t) for t in range(count)]
        per_player = table_cost + judge_cost[:, judges]
        if r in self.extra:
            per_player = per_player + self.extra[r]
        return per_player[groups].sum(axis=1).astype(np.int64).tolist()

    def sweep(self, free_rounds: Sequence[int]) -> None:
        """Renumber round after round optimally until no round changes."""
        for _ in range(_SWEEPS):
            changed = False
            for r in free_rounds:
                self._visit_round(r, -1)
                order = cheapest_assignment(self._round_costs(r))
                self._visit_round(r, 1)
                if order != list(range(len(order))):
                    self.renumber(r, order)
                    changed = True
            if not changed:
                break

    def renumber(self, r: int, order: Sequence[int]) -> None:
        """Move group g of round r to table order[g]."""
        groups = self.rounds[r]
        self._visit_round(r, -1)
        numbered: list[list[int]] = [[] for _ in groups]
        for group, t in zip(groups, order, strict=True):
            numbered[t] = group
        self.rounds[r] = numbered
        self._visit_round(r, 1)

    def copy_rounds(self) -> list[list[list[int]]]:
        return [list(groups) for groups in self.rounds]

    def restore(self, rounds: list[list[list[int]]]) -> None:
        for r, groups in enumerate(rounds):
            if groups != self.rounds[r]:
                position = {id(group): t for t, group in enumerate(groups)}
                self.renumber(r, [position[id(group)] for group in self.rounds[r]])
