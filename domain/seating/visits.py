"""Games of every player at each table and with each judge during the swap search.

A player may play one game more than his bound (`bounds.place_bounds`) at a table or with a
judge; each game beyond costs `weight` times its square over (docs/seating.md, "The search").
The search (`swap_search`) asks what a swap changes and tells every swap it makes.
"""

from __future__ import annotations

import numpy as np

from domain.seating.table_numbers import player_bounds
from domain.seating.table_problem import TableProblem, numbering_problem


class PlaceVisits:
    """`tables[p, t]` and `judged[p, j]` of the search's current stage, and what they cost.

    `out` is the extra table of the players who sit a round out (free); the judge column
    `judge_count` stands for no judge (and for sitting out) and is free too. The visits of
    played rounds count.
    """

    def __init__(
        self, problem: TableProblem, free_rounds: list[int], out: int, weight: float
    ) -> None:
        n = problem.player_count
        self.out = out
        self.weight = weight
        columns = out + 1
        judge_count = max((j for row in problem.judges for j in row), default=-1) + 1
        self.judge_count = judge_count
        self.judge_of = np.full((len(free_rounds), columns), judge_count)
        for f, r in enumerate(free_rounds):
            for t, judge in enumerate(problem.judges[r] if r < len(problem.judges) else ()):
                if judge >= 0:
                    self.judge_of[f, t] = judge
        self.base_tables = np.zeros((n, columns), dtype=np.int64)
        self.base_judged = np.zeros((n, judge_count + 1), dtype=np.int64)
        for r, fixed in enumerate(problem.fixed):
            for t, table in enumerate(fixed or ()):
                judge = problem.judges[r][t] if r < len(problem.judges) else -1
                for p in table:
                    self.base_tables[p, min(t, out - 1)] += 1
                    self.base_judged[p, judge if judge >= 0 else judge_count] += 1
        # Who plays which round is the search's own (sit-outs are decided), so the bounds are.
        rounds = [
            [list(table) for table in fixed] if fixed is not None else [list(playing)]
            for fixed, playing in zip(problem.fixed, problem.playing, strict=True)
        ]
        tables, judged = player_bounds(numbering_problem(problem), rounds, free_rounds)
        self.tables_allowed = tables + 1
        self.judges_allowed = judged + 1
        self.tables = self.base_tables.copy()
        self.judged = self.base_judged.copy()

    def count(self, where: np.ndarray) -> None:
        """Count the visits of `where[f][p]` (table of player p in the f-th free round)."""
        rounds, n = where.shape
        self.tables = self.base_tables.copy()
        self.judged = self.base_judged.copy()
        players = np.arange(n)
        for f in range(rounds):
            np.add.at(self.tables, (players, where[f]), 1)
            np.add.at(self.judged, (players, self.judge_of[f, where[f]]), 1)
        self.tables[:, self.out] = 0
        self.judged[:, self.judge_count] = 0

    def _price(self, visits: np.ndarray, allowed: np.ndarray) -> np.ndarray:
        over = np.maximum(0, visits - allowed[:, None])
        return self.weight * over * over

    def cost(self) -> float:
        """The cost of games above what each player's bounds allow at a table or with a judge."""
        tables = self._price(self.tables, self.tables_allowed).sum()
        judges = self._price(self.judged, self.judges_allowed)[:, : self.judge_count].sum()
        return float(tables + judges)

    def changes(self, rounds: int) -> tuple[np.ndarray, np.ndarray]:
        """(player, round, table): change of the cost when the player joins the table, and
        when he leaves it (the extra table of sit-outs is free)."""
        joined, left = [], []
        for visits, allowed, column_of in (
            (self.tables, self.tables_allowed, None),
            (self.judged, self.judges_allowed, self.judge_of),
        ):
            price = self._price(visits, allowed)
            up = self._price(visits + 1, allowed) - price
            down = self._price(np.maximum(visits - 1, 0), allowed) - price
            if column_of is None:
                up = np.repeat(up[:, None, :], rounds, axis=1)
                down = np.repeat(down[:, None, :], rounds, axis=1)
            else:
                up[:, self.judge_count] = down[:, self.judge_count] = 0
                up, down = up[:, column_of], down[:, column_of]
            up[:, :, self.out] = down[:, :, self.out] = 0
            joined.append(up)
            left.append(down)
        return joined[0] + joined[1], left[0] + left[1]

    def change(self, f: int, player: int, left: int, joined: int) -> float:
        """Change of the cost when the player moves from table `left` to `joined`."""
        if not self.weight:
            return 0.0
        visits, allowed = self.tables[player], self.tables_allowed[player]
        change = self._step(visits[left], allowed, -1) + self._step(visits[joined], allowed, 1)
        judged, allowed = self.judged[player], self.judges_allowed[player]
        judge_left, judge_joined = self.judge_of[f, left], self.judge_of[f, joined]
        if judge_left != judge_joined:
            if judge_left != self.judge_count:
                change += self._step(judged[judge_left], allowed, -1)
            if judge_joined != self.judge_count:
                change += self._step(judged[judge_joined], allowed, 1)
        return change

    def _step(self, count: int, allowed: int, step: int) -> float:
        """Change of one visit count's cost when it changes by `step`."""
        before = max(0, int(count) - int(allowed))
        after = max(0, int(count) + step - int(allowed))
        return self.weight * (after * after - before * before)

    def move(self, f: int, player: int, left: int, joined: int) -> None:
        """The player moved from table `left` to `joined` in the f-th free round."""
        self.tables[player, left] -= 1
        self.tables[player, joined] += 1
        self.judged[player, self.judge_of[f, left]] -= 1
        self.judged[player, self.judge_of[f, joined]] += 1
        self.judged[:, self.judge_count] = 0
