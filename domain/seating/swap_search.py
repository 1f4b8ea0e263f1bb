"""Tables of every round: who plays with whom.

The search works on player indices. Every free round is a partition of its playing players into
tables of 10. The cost of a stage is a sum over pairs of players of f(meetings) plus a sum over
(player, round, table) placements (judge conflicts, staying where the previous seating put him):
f(m) = C(m, 2) + OVER_TARGET·(m − target)² above the target, and HARD per meeting of a pair that
must stay apart. The largest meeting count, then S2, are thus minimised lexicographically.

A tabu search swaps two players of one round at different tables. Each step weighs every such
swap of every free round at once: with `up[i][b]` (`down[i][b]`) the change of f when i and b
meet once more (once less), the change of a swap of i (table s) and j (table t) is

    Σ_{b at t, b≠j} up[i][b] + Σ_{b at s, b≠i} down[i][b] + (the same for j) ,

which is a sum of the marginal matrices over each table's players, gathered per swap. numpy
does these sums for all rounds in one go (gathers only: no threads, no BLAS).
The best swap that is not tabu (a player may not return to a table he left within a few steps,
unless that beats the best stage seen) is made; after a long stall the search returns to the best
stage and kicks it with a few random swaps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from itertools import count
from math import comb

import numpy as np

from domain.seating.table_numbers import (
    NumberingProblem,
    number_tables,
    numbered_with_far_over,
)
from domain.seating.table_problem import TableProblem, meeting_figures, numbering_problem
from domain.seating.visits import PlaceVisits

# Weights of the stage's cost, lexicographic within one swap: a pair that must stay apart, a
# meeting above the target count, a player leaving the table the previous seating gave him
# (worth a few repeats: the re-seating stays close but may move someone to avoid a repeat),
# one repeated meeting (one unit of S2).
HARD = 1e9
OVER_TARGET = 1e3
# A game at one table, or with one judge, more than one above the player's own bound
# (`bounds.place_bounds`): as much as a meeting above the target, since the issue allows
# neither, and far above S2. (Weighed below such a meeting, 30 players in teams of 3 at 3
# tables kept every pair within 3 games but left a player 4 games with one judge, bound 2.)
OVER_VISITS = OVER_TARGET
STAY = 5.0

# A swap that may not be made costs this much more than any real swap.
_BLOCKED = 1e15
# Ties between equal swaps are broken by noise below one unit of cost.
_NOISE = 0.5
# Tabu tenure (steps; longer when a step has fewer than `_TENURE_SWAPS` swaps to weigh), steps
# without a new best before the kick, and the kick's random swaps.
_TENURE = 3
_TENURE_SWAPS = 27_000
_STALL = 100
_KICK = 4
# Steps without a new best after which the search stops: this many kicks found nothing.
# From a structured design with no pair above the target and nobody far above a bound,
# sooner: on no bench case (60 players in teams of 3, 100 players over 6 and 10 rounds, 40
# players) did the search better such a design's S2. A design that still needs mending (30
# players in teams of 3 at 3 tables) gets the whole search.
_GIVE_UP = 12 * _STALL
_GIVE_UP_STRUCTURED = 3 * _STALL
# Every step weighs at least this many swaps' worth of work (numpy's fixed cost per step), at
# most this many steps are made, and at most this many more to mend a broken hard constraint.
_STEP_OVERHEAD = 10_000
_MOST_STEPS = 15_000
_MOST_REPAIR_STEPS = 2_000
# Whole searches made at most while someone is left more than one game above a bound.
_ATTEMPTS = 3
# Each attempt after the first weighs such a game this many times more in the mending search.
_ESCALATE = 10


def assign_tables(
    problem: TableProblem, rng: random.Random, out_of_time: Callable[[], bool]
) -> list[list[list[int]]]:
    """Tables of every round (lists of player indices), found by tabu search over swaps.

    When the numbers still leave someone more than one game above his bound at a table or with
    a judge, the search is made again, `_ATTEMPTS` times in all, going on with the same seeded
    generators (one seed still gives one seating), and the attempt that leaves fewest such
    games is kept, then the one with the fewest meetings (most meetings of a pair, then S2).
    """
    free_rounds = [r for r in range(len(problem.tables)) if problem.fixed[r] is None]
    if not free_rounds:
        return _played_rounds(problem)
    numbering = numbering_problem(problem)
    generator = np.random.default_rng(rng.getrandbits(64))
    best: tuple[tuple[int, int, int], list[list[list[int]]]] | None = None
    for attempt in range(_ATTEMPTS):
        far_over, rounds = _attempt_tables(
            problem, numbering, free_rounds, rng, generator, out_of_time, _ESCALATE**attempt
        )
        figures = (far_over, *meeting_figures(rounds))
        if best is None or figures < best[0]:
            best = (figures, rounds)
        if (attempt == 0 and far_over == 0) or out_of_time():
            break
    return best[1] if best is not None else _played_rounds(problem)


def _played_rounds(problem: TableProblem) -> list[list[list[int]]]:
    """The played rounds' tables, and an empty list for every free round."""
    return [
        [list(table) for table in fixed] if fixed is not None else [] for fixed in problem.fixed
    ]


def _attempt_tables(
    problem: TableProblem,
    numbering: NumberingProblem,
    free_rounds: list[int],
    rng: random.Random,
    generator: np.random.Generator,
    out_of_time: Callable[[], bool],
    escalation: int,
) -> tuple[int, list[list[list[int]]]]:
    """One search with its numbers: the games it leaves more than one above a bound, and the
    tables of every round. The mending search weighs such a game `escalation` times as much as
    a meeting above the target."""
    rounds = _played_rounds(problem)
    # A structured start spreads tables and judges already: the search keeps them spread.
    search = _TabuSearch(
        problem, free_rounds, generator, 0.0 if problem.start is None else OVER_VISITS
    )
    steps = min(_MOST_STEPS, problem.swaps // (_STEP_OVERHEAD + search.swaps_per_step))
    for r, tables in zip(free_rounds, search.run(steps, out_of_time), strict=True):
        rounds[r] = tables
    rounds, far_over = numbered_with_far_over(numbering, rounds, free_rounds, rng)
    # Numbers alone may leave someone two games above his bound at a table or with a judge:
    # the search goes on from here, those visits now weighed, then the numbers are redone.
    # Pairs as often together as the first search left them are no longer "above the target":
    # the visits then weigh more than those meetings do.
    problem = replace(problem, meet_target=max(problem.meet_target, meeting_figures(rounds)[0]))
    search = _TabuSearch(problem, free_rounds, generator, escalation * OVER_VISITS, rounds)
    if search.place.cost() > 0 and not out_of_time():
        for r, tables in zip(free_rounds, search.run(steps, out_of_time), strict=True):
            rounds[r] = tables
        rounds, far_over = numbered_with_far_over(numbering, rounds, free_rounds, rng)
    return far_over, rounds


class _TabuSearch:
    """The free rounds as an array `where[f][i]`: table of player i in the f-th free round.

    A player who sits the round out is at the extra table `tables` (one past the last), which
    no swap touches.
    """

    def __init__(
        self,
        problem: TableProblem,
        free_rounds: list[int],
        rng: np.random.Generator,
        visit_weight: float,
        start: list[list[list[int]]] | None = None,
    ) -> None:
        n = problem.player_count
        self.problem = problem
        self.free_rounds = free_rounds
        self.rng = rng
        self.out = max(problem.tables[r] for r in free_rounds)
        self.columns = self.out + 1
        target = problem.meet_target
        top = len(problem.tables) + 2
        self.f = np.array(
            [comb(m, 2) + OVER_TARGET * max(0, m - target) ** 2 for m in range(top + 1)]
        )
        self.up_of = self.f[1:] - self.f[:-1]
        self.down_of = np.concatenate([[0.0], self.f[:-2] - self.f[1:-1]])
        apart = np.zeros((n, n))
        for i, j in problem.apart:
            apart[i, j] = apart[j, i] = HARD
        self.apart = apart
        self.base = np.zeros((n, n), dtype=np.int64)
        for fixed in problem.fixed:
            for table in fixed or ():
                for k, a in enumerate(table):
                    for b in table[k + 1 :]:
                        self.base[a, b] += 1
                        self.base[b, a] += 1
        self.precision = np.float64 if problem.apart else np.float32
        self.placement = self._placement_costs()
        self.place = PlaceVisits(problem, free_rounds, self.out, visit_weight)
        self.where = self._start() if start is None else self._given(start)
        # The work of one step: every swap of every free round, in double precision twice over.
        weighed = sum(len(problem.playing[r]) ** 2 for r in free_rounds) // 2
        self.swaps_per_step = weighed * (2 if self.precision == np.float64 else 1)
        # Few swaps to choose from need a longer memory to keep the walk from circling.
        self.tenure = max(_TENURE, _TENURE_SWAPS // max(1, weighed))
        self._recount()

    def _placement_costs(self) -> np.ndarray:
        """Cost of player i at table t in the f-th free round, pairs aside."""
        problem = self.problem
        index = {r: f for f, r in enumerate(self.free_rounds)}
        costs = np.zeros((len(self.free_rounds), problem.player_count, self.columns))
        for f, r in enumerate(self.free_rounds):
            costs[f, :, problem.tables[r] : self.out] = HARD
            for i, t in enumerate(problem.hint[r]):
                if t >= 0:
                    costs[f, i, : self.out] += STAY
                    costs[f, i, t] -= STAY
            costs[f, :, self.out] = 0.0
        for i, r, t in problem.forbidden:
            if r in index and t < self.out:
                costs[index[r], i, t] += HARD
        return costs

    def _start(self) -> np.ndarray:
        """The structured start when given, else a greedy one.

        The greedy start keeps the previous seating's players at their tables, then seats the
        rest of each round one player at a time, in random order, at the cheapest table with
        room, counting the meetings of the rounds seated before: pairs that must stay apart
        rarely start together.
        """
        problem = self.problem
        rounds = len(self.free_rounds)
        where = np.full((rounds, problem.player_count), self.out)
        if problem.start is not None:
            for f, r in enumerate(self.free_rounds):
                for i in problem.playing[r]:
                    where[f, i] = problem.start[r][i]
            return self._numbered_start(where)
        meetings = self.base.copy()
        for f, r in enumerate(self.free_rounds):
            hint = problem.hint[r]
            order = sorted(self.rng.permutation(problem.playing[r]), key=lambda i: hint[i] < 0)
            tables: list[list[int]] = [[] for _ in range(problem.tables[r])]
            for i in order:
                t = hint[i] if 0 <= hint[i] < len(tables) and len(tables[hint[i]]) < 10 else -1
                if t < 0:
                    pair = self.up_of[meetings[i]] + self.apart[i]
                    costs = [
                        self.placement[f, i, t] + sum(pair[b] for b in table)
                        if len(table) < 10
                        else np.inf
                        for t, table in enumerate(tables)
                    ]
                    t = int(np.argmin(costs))
                for b in tables[t]:
                    meetings[i, b] += 1
                    meetings[b, i] += 1
                tables[t].append(int(i))
                where[f, i] = t
        return where

    def _given(self, rounds: list[list[list[int]]]) -> np.ndarray:
        """`where` of the given tables of every round."""
        where = np.full((len(self.free_rounds), self.problem.player_count), self.out)
        for f, r in enumerate(self.free_rounds):
            for t, table in enumerate(rounds[r]):
                where[f, table] = t
        return where

    def _numbered_start(self, where: np.ndarray) -> np.ndarray:
        """The design with its tables renumbered for few visits (its meetings stay)."""
        problem = self.problem
        rounds = [[list(table) for table in fixed] if fixed else [] for fixed in problem.fixed]
        for f, r in enumerate(self.free_rounds):
            rounds[r] = [
                [int(p) for p in np.flatnonzero(where[f] == t)] for t in range(problem.tables[r])
            ]
        numbered = number_tables(
            numbering_problem(problem),
            rounds,
            self.free_rounds,
            random.Random(int(self.rng.integers(2**32))),
        )
        for f, r in enumerate(self.free_rounds):
            for t, table in enumerate(numbered[r]):
                where[f, table] = t
        return where

    def _recount(self) -> None:
        """Meetings, marginal costs, table sums and blocked swaps of the current `where`."""
        where = self.where
        sitting = where == self.out
        same = where[:, :, None] == where[:, None, :]
        self.meetings = self.base + (same & ~sitting[:, :, None]).sum(axis=0)
        np.fill_diagonal(self.meetings, 0)
        self.up = self.up_of[self.meetings] + self.apart
        self.down = self.down_of[self.meetings] - self.apart
        np.fill_diagonal(self.up, 0.0)
        np.fill_diagonal(self.down, 0.0)
        blocked = same | sitting[:, :, None] | sitting[:, None, :]
        self.blocked = blocked.astype(self.precision) * _BLOCKED
        self.gain = self._table_sums(self.up)
        self.loss = self._table_sums(self.down)
        self.place.count(self.where)
        self.cost = self._cost()

    def _table_sums(self, marginal: np.ndarray) -> np.ndarray:
        """(player, round, table): Σ of the player's marginal cost over the table's players.

        The extra table holds the players who sit the round out.
        """
        rounds, n = self.where.shape
        sums = np.zeros((n, rounds, self.columns))
        for f in range(rounds):
            for t in range(self.columns):
                sums[:, f, t] = marginal[:, self.where[f] == t].sum(axis=1)
        return sums

    def _cost(self) -> float:
        meetings = self.meetings
        pairs = self.f[meetings].sum() + (self.apart * meetings).sum()
        rounds, n = self.where.shape
        placed = self.placement[np.arange(rounds)[:, None], np.arange(n)[None, :], self.where]
        return float(pairs / 2 + placed.sum() + self.place.cost())

    def _swap(self, f: int, i: int, j: int) -> None:
        """Swap players i and j of the f-th free round; every count follows incrementally."""
        where = self.where
        s, t = where[f, i], where[f, j]
        at_s = np.flatnonzero(where[f] == s)
        at_t = np.flatnonzero(where[f] == t)
        at_s = at_s[at_s != i]
        at_t = at_t[at_t != j]
        # The table sums of round f: i and j change places, at the old marginal costs.
        shift = self.up[:, j] - self.up[:, i]
        self.gain[:, f, s] += shift
        self.gain[:, f, t] -= shift
        shift = self.down[:, j] - self.down[:, i]
        self.loss[:, f, s] += shift
        self.loss[:, f, t] -= shift
        meetings = self.meetings
        for player, left, joined in ((i, at_s, at_t), (j, at_t, at_s)):
            meetings[player, left] -= 1
            meetings[left, player] -= 1
            meetings[player, joined] += 1
            meetings[joined, player] += 1
        self.place.move(f, i, s, t)
        self.place.move(f, j, t, s)
        where[f, i], where[f, j] = t, s
        changed = np.concatenate([at_s, at_t])
        rounds = np.arange(where.shape[0])
        for player in (i, j):
            for marginal, sums, of, apart in (
                (self.up, self.gain, self.up_of, self.apart[player, changed]),
                (self.down, self.loss, self.down_of, -self.apart[player, changed]),
            ):
                fresh = of[meetings[player, changed]] + apart
                step = fresh - marginal[player, changed]
                marginal[player, changed] = marginal[changed, player] = fresh
                # Every round: the changed players' sums at the player's table, and the
                # player's sums at the changed players' tables.
                sums[changed[:, None], rounds[None, :], where[:, player][None, :]] += step[:, None]
                np.add.at(sums[player], (rounds[None, :], where[:, changed].T), step[:, None])
        sitting = where[f] == self.out
        for player in (i, j):
            blocked = ((where[f] == where[f, player]) | sitting) * _BLOCKED
            self.blocked[f, player] = self.blocked[f, :, player] = blocked

    def _changes(self) -> np.ndarray:
        """Change of the cost for every swap (round, i, j), less a noise below `_NOISE`.

        Blocked swaps cost `_BLOCKED` more. Without pairs to keep apart this runs in single
        precision (half the memory traffic), exact enough to rank swaps; the cost itself follows
        the exact change of the swap made. With them, a swap of two such players adds and then
        subtracts their `HARD` cost, which single precision would blur into several units.
        """
        rounds, n = self.where.shape
        columns = self.columns
        offsets = (np.arange(rounds) * columns)[:, None] + self.where
        placement = self.placement.transpose(1, 0, 2)
        joined, left = self.place.changes(rounds)
        gained = (self.gain + placement + joined).reshape(n, rounds * columns)
        gained = gained.astype(self.precision)
        lost = (self.loss - placement + left).reshape(n, rounds * columns)
        lost = lost[np.arange(n)[None, :], offsets].astype(self.precision)
        moved = gained[:, offsets.ravel()].reshape(n, rounds, n).transpose(1, 0, 2)
        moved += lost[:, :, None]
        changes = moved + moved.transpose(0, 2, 1)
        changes -= (2 * self.up).astype(self.precision)
        start = self.rng.integers(0, self.noise.size - changes.size + 1)
        changes -= self.noise[start : start + changes.size].reshape(changes.shape)
        changes += self.blocked
        return changes

    def _exact_change(self, f: int, i: int, j: int) -> float:
        """Change of the cost when players i and j of the f-th free round swap tables."""
        s, t = self.where[f, i], self.where[f, j]
        placement = self.placement[f]
        return float(
            self.place.change(f, i, s, t)
            + self.place.change(f, j, t, s)
            + self.gain[i, f, t]
            + self.loss[i, f, s]
            + self.gain[j, f, s]
            + self.loss[j, f, t]
            + placement[i, t]
            - placement[i, s]
            + placement[j, s]
            - placement[j, t]
            - 2 * self.up[i, j]
        )

    def run(self, steps: int, out_of_time: Callable[[], bool]) -> list[list[list[int]]]:
        """Search `steps` swaps; the tables of the free rounds of the best stage seen."""
        rounds, n = self.where.shape
        sound = not (self.meetings > self.problem.meet_target).any() and not self.place.cost()
        give_up = _GIVE_UP_STRUCTURED if self.problem.start is not None and sound else _GIVE_UP
        self.noise = (self.rng.random(2 * rounds * n * n) * _NOISE).astype(self.precision)
        # Step until which a player may not return to a table he left in a round.
        tabu = np.zeros((rounds, n, self.columns), dtype=np.int64)
        best_cost = self.cost
        best = self.where.copy()
        last_best = last_gain = 0
        for step in count():
            # Quality flat for long: more steps rarely buy anything (docs/seating.md).
            if step - last_gain > give_up and best_cost < HARD:
                break
            # Past the budget the search goes on only to mend a broken hard constraint.
            if best_cost <= self.problem.s2_bound or step >= steps + _MOST_REPAIR_STEPS:
                break
            if step >= steps and best_cost < HARD:
                break
            if step % 64 == 0 and out_of_time():
                break
            chosen = self._best_allowed(self._changes(), tabu, step, best_cost - self.cost)
            if chosen is None:
                break
            f, i, j = chosen
            s, t = self.where[f, i], self.where[f, j]
            self.cost += self._exact_change(f, i, j)
            self._swap(f, i, j)
            until = step + self.tenure + int(self.rng.integers(0, self.tenure + 1))
            tabu[f, i, s] = tabu[f, j, t] = until
            if self.cost < best_cost:
                best_cost = self.cost
                best[:] = self.where
                last_best = last_gain = step
            elif step - last_best > _STALL:
                self._kick(best)
                last_best = step
        return [
            [[int(p) for p in np.flatnonzero(best[f] == t)] for t in range(self.problem.tables[r])]
            for f, r in enumerate(self.free_rounds)
        ]

    def _best_allowed(
        self, changes: np.ndarray, tabu: np.ndarray, step: int, new_best: float
    ) -> tuple[int, int, int] | None:
        """The cheapest swap (round, i, j) that is not tabu or gives a new best stage."""
        n = self.where.shape[1]
        where = self.where
        for attempt in range(2):
            choice = int(np.argmin(changes))
            change = float(changes.flat[choice])
            if change >= _BLOCKED / 2:
                return None
            f, pair = divmod(choice, n * n)
            i, j = divmod(pair, n)
            returning = tabu[f, i, where[f, j]] > step or tabu[f, j, where[f, i]] > step
            if change < new_best - _NOISE or not returning or attempt:
                return f, i, j
            # Block every swap that brings a player back to a table he left recently.
            rounds, players, tables = np.nonzero(tabu > step)
            entry, partner = np.nonzero(where[rounds] == tables[:, None])
            changes[rounds[entry], players[entry], partner] = np.inf
            changes[rounds[entry], partner, players[entry]] = np.inf
        return None

    def _kick(self, best: np.ndarray) -> None:
        """Return to the best stage and make a few random swaps."""
        self.where[:] = best
        self._recount()
        rounds = self.where.shape[0]
        for _ in range(_KICK):
            f = int(self.rng.integers(0, rounds))
            playing = np.flatnonzero(self.where[f] != self.out)
            i, j = (int(p) for p in self.rng.choice(playing, 2, replace=False))
            if self.where[f, i] != self.where[f, j]:
                self._swap(f, i, j)
        self.cost = self._cost()
