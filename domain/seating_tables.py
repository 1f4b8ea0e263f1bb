"""Tables of every round: who plays with whom.

The search works on player indices. Every round is a partition of its playing players into
tables of 10; the cost of a whole stage is a sum over pairs of players (how often they meet)
plus a sum over (player, table) placements (judge conflicts, table visits, staying where the
previous seating put him). Seen from one round with all other rounds fixed, that cost is a
quadratic assignment: the cost of putting player i at table t is `affinity[i][t]`, the sum of
his pair costs with the players already there. Swapping two players of a round then costs O(1)
to evaluate and O(players) to apply, which lets simulated annealing try a few hundred thousand
swaps within the time budget in pure Python.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from domain.seating_assignment import cheapest_assignment

# Weights of the stage's cost. Hard constraints, repeats (S2), table visits and team-pair
# balance are lexicographic: within one swap the largest change of a criterion stays below the
# unit of the one above it. A pair meeting more often than the target, and a player leaving the
# table the previous seating gave him, cost a few repeats each rather than infinitely: the walk
# must be able to pass through such states to leave a local optimum.
HARD = 10**16
MEET = 10**7
OVER_TARGET = 6 * MEET
STAY = 5 * MEET
TABLE_VISIT = 10**4
TEAM_PAIR = 1

# Annealing temperatures in units of one repeated meeting (one unit of S2), and the length of
# one visit to a round (short visits let all rounds cool together).
_START_TEMPERATURE = 3.0
_END_TEMPERATURE = 0.05
_SWAPS_PER_VISIT = 2000


@dataclass(frozen=True)
class TableProblem:
    """A stage in indices: player 0..n-1, round 0..R-1, table 0..T_r-1.

    `playing[r]` lists who plays round r (a multiple of 10); `fixed[r]` holds the tables of a
    played round, else None. `apart` holds pairs (i, j) with i < j that must never share a table;
    `forbidden` holds (player, round, table) placements that are not allowed. `hint[r][i]` is the
    table the previous seating gave player i in round r, or -1. `team[i]` is the team index or -1.
    """

    player_count: int
    playing: tuple[tuple[int, ...], ...]
    tables: tuple[int, ...]
    fixed: tuple[tuple[tuple[int, ...], ...] | None, ...]
    apart: frozenset[tuple[int, int]]
    forbidden: frozenset[tuple[int, int, int]]
    hint: tuple[tuple[int, ...], ...]
    team: tuple[int, ...]
    meet_target: int
    swaps: int


def assign_tables(
    problem: TableProblem, rng: random.Random, out_of_time: Callable[[], bool]
) -> list[list[list[int]]]:
    """Tables of every round (lists of player indices), found by annealing round by round."""
    stage = _Stage(problem)
    free_rounds = [r for r in range(len(problem.tables)) if problem.fixed[r] is None]
    for r in range(len(problem.tables)):
        fixed = problem.fixed[r]
        if fixed is not None:
            stage.place(r, [list(table) for table in fixed])
    for r in free_rounds:
        stage.place(r, stage.greedy_round(r, rng))
    if not free_rounds or problem.swaps <= 0:
        return _numbered(problem, stage.tables_in_rounds(), free_rounds)
    visits = max(len(free_rounds), problem.swaps // _SWAPS_PER_VISIT)
    swaps_per_visit = problem.swaps // visits
    # The walk may climb; the best stage seen at the end of a visit is the answer.
    cost = best_cost = 0
    best = stage.tables_in_rounds()
    for visit in range(visits):
        if out_of_time():
            break
        r = free_rounds[visit % len(free_rounds)]
        start = _temperature(visit / visits)
        end = _temperature((visit + 1) / visits)
        cost += stage.anneal_round(r, rng, swaps_per_visit, start, end)
        if cost < best_cost:
            best_cost = cost
            best = stage.tables_in_rounds()
    return _numbered(problem, best, free_rounds)


def _numbered(
    problem: TableProblem, rounds: list[list[list[int]]], free_rounds: list[int]
) -> list[list[list[int]]]:
    """Renumber the tables of free rounds: meetings stay, returns to a table become rare."""
    stage = _Stage(problem)
    for r, tables in enumerate(rounds):
        stage.place(r, tables)
    for _ in range(3):
        for r in free_rounds:
            stage.renumber_round(r)
    return stage.tables_in_rounds()


def _temperature(progress: float) -> float:
    ratio = _END_TEMPERATURE / _START_TEMPERATURE
    return MEET * _START_TEMPERATURE * ratio**progress


def _over_target_penalty(meetings: int, target: int) -> int:
    excess = max(0, meetings - target)
    return OVER_TARGET * excess * excess


class _Stage:
    """Meeting counts, table visits and team-pair counts of a stage being seated."""

    def __init__(self, problem: TableProblem) -> None:
        n = problem.player_count
        self.problem = problem
        self.rounds: list[list[list[int]]] = [[] for _ in problem.tables]
        self.meetings = [[0] * n for _ in range(n)]
        most_tables = max(problem.tables, default=0)
        self.visits = [[0] * most_tables for _ in range(n)]
        team_count = max(problem.team, default=-1) + 1
        # Players without a team share a row of zeros: team balance does not concern them.
        self.team_index = [t if t >= 0 else team_count for t in problem.team]
        self.team_meetings = [[0] * (team_count + 1) for _ in range(team_count + 1)]
        self.conflict = [[0] * n for _ in range(n)]
        for i, j in problem.apart:
            self.conflict[i][j] = self.conflict[j][i] = HARD
        self.pair_cost = [
            MEET * m
            + _over_target_penalty(m + 1, problem.meet_target)
            - _over_target_penalty(m, problem.meet_target)
            for m in range(len(problem.tables) + 2)
        ]

    def tables_in_rounds(self) -> list[list[list[int]]]:
        return [[list(table) for table in tables] for tables in self.rounds]

    def _count(self, r: int, sign: int) -> None:
        meetings, visits, teams = self.meetings, self.visits, self.team_meetings
        team_index = self.team_index
        for t, table in enumerate(self.rounds[r]):
            for k, a in enumerate(table):
                visits[a][t] += sign
                row = meetings[a]
                for b in table[k + 1 :]:
                    row[b] += sign
                    meetings[b][a] += sign
                    ta, tb = team_index[a], team_index[b]
                    teams[ta][tb] += sign
                    teams[tb][ta] += sign

    def place(self, r: int, tables: list[list[int]]) -> None:
        self.rounds[r] = tables
        self._count(r, 1)

    def _pair_costs(self, players: Sequence[int]) -> list[list[int]]:
        """Cost of each two playing players sharing a table in this round, given the others."""
        team_count = len(self.team_meetings) - 1
        cost = self.pair_cost
        costs = []
        for a in players:
            met = self.meetings[a]
            conflict = self.conflict[a]
            ta = self.team_index[a]
            teams = self.team_meetings[ta] if ta < team_count else None
            if teams is None:
                row = [cost[met[b]] + conflict[b] for b in players]
            else:
                team_index = self.team_index
                row = [
                    cost[met[b]] + conflict[b] + TEAM_PAIR * teams[team_index[b]] for b in players
                ]
            costs.append(row)
        for i in range(len(players)):
            costs[i][i] = 0
        return costs

    def _placement_costs(self, r: int, players: Sequence[int]) -> list[list[int]]:
        """Cost of each playing player sitting at each table of this round, pairs aside."""
        problem = self.problem
        hint = problem.hint[r]
        table_count = problem.tables[r]
        costs = []
        for a in players:
            visits = self.visits[a]
            row = [TABLE_VISIT * visits[t] for t in range(table_count)]
            if hint[a] >= 0:
                row = [c + (STAY if t != hint[a] else 0) for t, c in enumerate(row)]
            costs.append(row)
        local = {a: i for i, a in enumerate(players)}
        for a, rr, t in problem.forbidden:
            if rr == r and t < table_count and a in local:
                costs[local[a]][t] += HARD
        return costs

    def greedy_round(self, r: int, rng: random.Random) -> list[list[int]]:
        """Seat a round one player at a time, each at the cheapest table with a free seat."""
        players = list(self.problem.playing[r])
        table_count = self.problem.tables[r]
        pair = self._pair_costs(players)
        affinity = self._placement_costs(r, players)
        tables: list[list[int]] = [[] for _ in range(table_count)]
        order = list(range(len(players)))
        rng.shuffle(order)
        # Players with a previous table go first so that they can keep it.
        hint = self.problem.hint[r]
        order.sort(key=lambda i: hint[players[i]] < 0)
        for i in order:
            row = affinity[i]
            best = min((t for t in range(table_count) if len(tables[t]) < 10), key=lambda t: row[t])
            tables[best].append(i)
            pair_row = pair[i]
            for k in range(len(players)):
                affinity[k][best] += pair_row[k]
        return [[players[i] for i in table] for table in tables]

    def renumber_round(self, r: int) -> None:
        """Give the groups of round r the table numbers their players visited least."""
        self._count(r, -1)
        groups = self.rounds[r]
        players = [p for group in groups for p in group]
        placement = self._placement_costs(r, players)
        costs = []
        start = 0
        for group in groups:
            rows = placement[start : start + len(group)]
            costs.append([sum(row[t] for row in rows) for t in range(len(groups))])
            start += len(group)
        tables: list[list[int]] = [[] for _ in groups]
        for group, table in zip(groups, cheapest_assignment(costs), strict=True):
            tables[table] = group
        self.place(r, tables)

    def anneal_round(self, r: int, rng: random.Random, swaps: int, start: float, end: float) -> int:
        """Anneal round r by swapping two of its players at different tables.

        Returns the change of the stage's cost; the round is left where the walk ended.
        """
        self._count(r, -1)
        players = list(self.problem.playing[r])
        local = {a: i for i, a in enumerate(players)}
        n = len(players)
        pair = self._pair_costs(players)
        affinity = self._placement_costs(r, players)
        where = [0] * n
        for t, table in enumerate(self.rounds[r]):
            for a in table:
                where[local[a]] = t
        for i in range(n):
            row = pair[i]
            aff = affinity[i]
            for k in range(n):
                aff[where[k]] += row[k]
        change = 0
        random_number = rng.random
        log = math.log
        cooling = (end / start) ** (1 / max(1, swaps))
        temperature = start
        for _ in range(swaps):
            temperature *= cooling
            i = int(random_number() * n)
            j = int(random_number() * n)
            a_table, b_table = where[i], where[j]
            if a_table == b_table:
                continue
            aff_i, aff_j = affinity[i], affinity[j]
            delta = (
                aff_i[b_table] - aff_i[a_table] + aff_j[a_table] - aff_j[b_table] - 2 * pair[i][j]
            )
            if delta > 0 and delta > -temperature * log(1.0 - random_number()):
                continue
            where[i], where[j] = b_table, a_table
            pair_i, pair_j = pair[i], pair[j]
            for k in range(n):
                shift = pair_j[k] - pair_i[k]
                aff = affinity[k]
                aff[a_table] += shift
                aff[b_table] -= shift
            change += delta
        tables: list[list[int]] = [[] for _ in range(self.problem.tables[r])]
        for i, t in enumerate(where):
            tables[t].append(players[i])
        self.place(r, tables)
        return change
