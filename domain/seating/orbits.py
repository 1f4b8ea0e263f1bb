"""Cyclic orbit designs: a structured start for any table count when everyone plays every round.

With T tables and 10·T players the players fall into 10 orbits of T. Orbit i has a base word
v_i (its table in every round, 0 in the first), and the k-th player of the orbit sits at table
(v_i[r] + k) mod T in round r. Every table of every round thus holds exactly one player of each
orbit. Two players of one orbit never meet; player k of orbit i and player l of orbit j meet in
the rounds where v_i[r] − v_j[r] ≡ l − k (mod T). With c_ij(δ) the number of rounds where the
difference is δ, the T² pairs of two orbits meet c_ij(δ) times, T pairs for each δ, so

    S2 = T · Σ_{i<j} Σ_δ C(c_ij(δ), 2)   and   max_meet = max c_ij(δ).

A tabu search changes one round of one base word at a time and weighs every such change at
once, with the table search's cost (counts above the meeting target weigh far more than S2).
Its space is 10 words of R − 1 letters instead of the stage's n players in R rounds, and the
symmetry keeps every candidate balanced, so it finds structure the swap search misses: for 40
players at 4 tables over 6 rounds it reaches S2 = 480, the round-pair bound, where every code over
GF(4) makes each pair meet 0 or 2 times (S2 = 540).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from math import comb

import numpy as np

from domain.seating.swap_search import OVER_TARGET

ORBITS = 10
# Steps of the base-word search (it stops sooner at the S2 bound): at most this many, and at
# most `_STEPS_PER_LETTER` per letter that can change, since small spaces are soon exhausted.
# 40 players at 4 tables reach the bound within about 1,100 steps on every one of 300 seeds;
# 100 players at 10 tables over 10 rounds take about a third of a second for all 3,000.
_STEPS = 3_000
_STEPS_PER_LETTER = 20
# Tabu tenure in steps (plus up to as many again at random), steps without a new best before
# the search returns to the best words and changes a few letters at random.
_TENURE = 3
_STALL = 200
_KICK = 3
# Ties between equal changes are broken by noise below one unit of S2.
_NOISE = 0.5
# Weights of a game more than one above a player's bound, in units of `_Visits.price`, for
# the searches made one after the other: the best words (meetings above the target, then such
# games, then S2) are kept. A light weight lets the walk pass through such games on its way
# and finds lower S2 with none left (60 players at 6 tables: 372 rather than 390-396, the
# weight 1 of a single search); the heavier searches catch what the light ones leave.
_VISIT_WEIGHTS = (0.01, 0.01, 0.02, 0.05, 1.0)
# Designs of the meetings alone tried after the first weighted search, each with its own
# draws, until one that the numbering leaves sound (60 players in teams of 3 at 6 tables,
# whose tables are then all a judge needs: S2 360 on seeds 1-3, found within 1-16 trials).
_TRIALS = 16


def orbit_tables(
    player_count: int,
    tables: int,
    rounds: int,
    meet_target: int,
    s2_bound: int,
    rng: random.Random,
    slots: Sequence[tuple[int, int]] | None = None,
    judges: Sequence[Sequence[int]] = (),
    spread: Callable[[list[list[int]]], tuple[list[list[int]], int]] | None = None,
) -> list[list[int]]:
    """Table of every player in every round from cyclic orbits, or [] if the stage has no fit.

    Needs every player playing every round (player_count = 10·tables) and at least two tables.
    The search stops once S2 reaches `s2_bound` with no pair above `meet_target`. `slots[p]`
    is player p's (orbit, shift) when the caller places the players (teams within an orbit),
    else they are placed at random. `judges[r][t]` is the judge (an index, -1 none) of table t
    in round r: the words also spread every player's games over the tables and the judges.
    `spread(tables_of)`, when given, numbers a design's tables for few games at one table and
    with one judge and counts the games more than one above a bound it leaves: a design of
    meetings alone is then tried after the first weighted search (`_meetings_alone`; the
    weighted searches' numbering is only the shifts of `_OrbitSearch.shifted`).
    """
    if tables < 2 or rounds < 1 or player_count != ORBITS * tables:
        return []
    labelings = [np.tile(np.arange(tables), (rounds, 1))]
    if len(judges) == rounds and all(len(row) == tables for row in judges):
        labelings.append(np.array(judges))
    generator = np.random.default_rng(rng.getrandbits(64))
    players = [(orbit, shift) for orbit in range(ORBITS) for shift in range(tables)]
    rng.shuffle(players)
    if slots is not None:
        players = list(slots)

    def tables_of(base: np.ndarray) -> list[list[int]]:
        return [
            [(int(base[orbit, r]) + shift) % tables for orbit, shift in players]
            for r in range(rounds)
        ]

    best: tuple[tuple[float, float, float], np.ndarray] | None = None
    for k, weight in enumerate(_VISIT_WEIGHTS):
        search = _OrbitSearch(tables, rounds, meet_target, generator, labelings, weight)
        words = search.shifted(search.run(s2_bound))
        figures = search.figures(words)
        if best is None or figures < best[0]:
            best = (figures, words)
        if figures[:2] == (0, 0) and figures[2] <= s2_bound:
            break
        if k == 0 and spread is not None and rounds <= tables:
            for _trial in range(_TRIALS):
                trial = _meetings_alone(tables, rounds, meet_target, generator, s2_bound)
                if trial is not None and search.figures(trial)[2] <= figures[2]:
                    numbered, far_over = spread(tables_of(trial))
                    if far_over == 0:
                        return numbered
    assert best is not None
    return tables_of(best[1])


def _meetings_alone(
    tables: int, rounds: int, meet_target: int, generator: np.random.Generator, s2_bound: int
) -> np.ndarray | None:
    """Words of a search of the meetings alone, or None if a pair meets above the target.

    Tried when the first weighted search stops short of the S2 bound: its S2 is the least the
    orbits reach (100 players at 10 tables over 6 rounds: 60-80, where the weighted searches
    end at 60-110), and if the best numbering leaves nobody more than one game above a bound
    it is the start. Its own generator keeps the weighted searches' draws as they were. Only
    with fewer rounds than tables: every player then misses some table (and judge) and may
    play two games at one, so the numbering has room; with as many rounds as tables (60
    players in teams of 3 at 6 tables, 100 players over 10 rounds) every such design tried
    left 20-75 games more than one above a bound.
    """
    search = _OrbitSearch(tables, rounds, meet_target, generator.spawn(1)[0])
    words = search.run(s2_bound)
    return words if search.figures(words)[0] == 0 else None


class _OrbitSearch:
    """Base words `words[i][r]` and the difference counts `counts[i, j, δ]` of every two orbits."""

    def __init__(
        self,
        tables: int,
        rounds: int,
        meet_target: int,
        rng: np.random.Generator,
        labelings: Sequence[np.ndarray] = (),
        visit_weight: float = 1.0,
    ):
        self.tables = tables
        self.rng = rng
        self.visits = [_Visits(labels, tables, visit_weight) for labels in labelings]
        self.meet_target = meet_target
        self.s2 = np.array([comb(m, 2) for m in range(rounds + 2)])
        self.f = np.array(
            [comb(m, 2) + OVER_TARGET * max(0, m - meet_target) ** 2 for m in range(rounds + 2)]
        )
        self.words = rng.integers(0, tables, size=(ORBITS, rounds))
        self.words[:, 0] = 0
        self.others = ~np.eye(ORBITS, dtype=bool)
        # Index arrays of every step, made once.
        orbit = np.arange(ORBITS)
        self.diagonal = (orbit, orbit)
        self.orbit_rows = orbit[:, None]
        self.letters = np.arange(tables)[:, None, None]
        self.round_row = np.arange(rounds)[None, :]
        self.other_orbits = [np.delete(orbit, i) for i in range(ORBITS)]
        # Flat offsets of (i, j) into the (orbit, orbit, difference) counts.
        self.pair_offsets = (orbit[:, None, None] * ORBITS + orbit[None, :, None]) * tables
        self._recount()

    def shifted(self, words: np.ndarray) -> np.ndarray:
        """The words with every round's letters shifted alike, for the fewest games more than
        one above a bound: a shift of a round changes no difference, so no meeting, but moves
        every player of the round to another table (and judge). Round by round, the best shift
        of each, until no round improves."""
        words = words.copy()
        rounds = words.shape[1]

        def over(candidate: np.ndarray) -> int:
            for visits in self.visits:
                visits.recount(candidate)
            return sum(visits.over() for visits in self.visits)

        best = over(words)
        improved = best > 0
        while improved:
            improved = False
            for r in range(rounds):
                for shift in range(1, self.tables):
                    candidate = words.copy()
                    candidate[:, r] = (candidate[:, r] + shift) % self.tables
                    count = over(candidate)
                    if count < best:
                        best, words, improved = count, candidate, True
                if best == 0:
                    return words
        return words

    def figures(self, words: np.ndarray) -> tuple[float, float, float]:
        """(meetings above the target, games more than one above a bound, S2) of the words."""
        self.words[:] = words
        self._recount()
        over = float((self.counts[self.others] > self.meet_target).sum())
        visits = float(sum(v.over() for v in self.visits))
        s2 = float(self.tables * self.s2[self.counts[self.others]].sum() / 2)
        return over, visits, s2

    def _recount(self) -> None:
        tables = self.tables
        differences = (self.words[:, None, :] - self.words[None, :, :]) % tables
        self.counts = np.zeros((ORBITS, ORBITS, tables), dtype=np.int64)
        for delta in range(tables):
            self.counts[:, :, delta] = (differences == delta).sum(axis=2)
        self.cost = float(tables * self.f[self.counts[self.others]].sum() / 2)
        for visits in self.visits:
            visits.recount(self.words)
            self.cost += visits.cost()

    def _changes(self) -> np.ndarray:
        """Change of the cost when word i takes letter b in round r, for every (i, r, b).

        Each other orbit j loses one round of difference v_i[r] − v_j[r] and gains one of
        b − v_j[r]; impossible changes (the first round, the letter already there) cost inf.
        """
        tables = self.tables
        counts = self.counts
        f_now = self.f[counts]
        up = self.f[counts + 1] - f_now
        down = self.f[np.maximum(counts - 1, 0)] - f_now
        # An orbit meets none of its own players: its own counts change nothing.
        up[self.diagonal] = down[self.diagonal] = 0
        words = self.words
        left = (words[:, None, :] - words[None, :, :]) % tables
        lost = np.take(down, self.pair_offsets + left).sum(axis=1)
        joined = (self.letters - words[None, :, :]) % tables
        gained = np.take(up, self.pair_offsets[:, None] + joined[None]).sum(axis=2)
        changes = tables * (lost[:, :, None] + gained.transpose(0, 2, 1)).astype(float)
        for visits in self.visits:
            changes += visits.changes(words)
        changes[:, 0, :] = np.inf
        changes[self.orbit_rows, self.round_row, words] = np.inf
        return changes

    def _change(self, i: int, r: int, letter: int) -> None:
        tables = self.tables
        others = self.other_orbits[i]
        was = (self.words[i, r] - self.words[others, r]) % tables
        now = (letter - self.words[others, r]) % tables
        self.counts[i, others, was] -= 1
        self.counts[i, others, now] += 1
        self.counts[others, i, -was % tables] -= 1
        self.counts[others, i, -now % tables] += 1
        for visits in self.visits:
            visits.change(self.words, i, r, letter)
        self.words[i, r] = letter

    def run(self, s2_bound: int) -> np.ndarray:
        """The best base words seen within the step budget."""
        rounds = self.words.shape[1]
        if rounds == 1:
            return self.words
        tabu = np.zeros((ORBITS, rounds, self.tables), dtype=np.int64)
        best = self.words.copy()
        best_cost = self.cost
        last_best = 0
        letters = ORBITS * (rounds - 1) * (self.tables - 1)
        for step in range(min(_STEPS, _STEPS_PER_LETTER * letters)):
            if best_cost <= s2_bound:
                break
            changes = self._changes()
            noisy = changes + self.rng.random(changes.shape) * _NOISE
            noisy[(tabu > step) & (self.cost + changes >= best_cost)] = np.inf
            choice = int(np.argmin(noisy))
            if not np.isfinite(noisy.flat[choice]):
                break
            i, r, letter = np.unravel_index(choice, changes.shape)
            tabu[i, r, self.words[i, r]] = step + _TENURE + int(self.rng.integers(0, _TENURE + 1))
            self.cost += float(changes[i, r, letter])
            self._change(int(i), int(r), int(letter))
            if self.cost < best_cost:
                best_cost = self.cost
                best[:] = self.words
                last_best = step
            elif step - last_best > _STALL:
                self._kick(best)
                last_best = step
        return best

    def _kick(self, best: np.ndarray) -> None:
        """Return to the best words and change a few letters at random."""
        self.words[:] = best
        rounds = self.words.shape[1]
        for _ in range(_KICK):
            i = int(self.rng.integers(0, ORBITS))
            r = int(self.rng.integers(1, rounds))
            self.words[i, r] = int(self.rng.integers(0, self.tables))
        self._recount()


class _Visits:
    """Games of the k-th player of every orbit at every label (a table, a judge) of a labeling.

    `labels[r][t]` is the label of table t in round r (-1 for none, which costs nothing). The
    player with shift k of orbit i sits at table (v_i[r] + k) mod T, so his labels follow from
    the orbit's word. A player with g games over L labels has at least ⌈g/L⌉ at one of them:
    each game above that costs 1 (squared), each one more above it `OVER_TARGET / 10`, below
    a meeting above the target.
    """

    def __init__(self, labels: np.ndarray, tables: int, weight: float = 1.0) -> None:
        rounds = labels.shape[0]
        count = int(labels.max(initial=-1)) + 1
        self.none = count
        self.labels = np.where(labels < 0, count, labels)
        self.tables = tables
        self.bound = -(-rounds // max(1, count))
        self.price = np.array(
            [weight * OVER_TARGET / 10 * max(0, c - self.bound - 1) ** 2 for c in range(rounds + 2)]
        )
        self.shifts = np.arange(tables)
        # Index arrays of every step, made once: `then[r, letter, k]` is the label the k-th
        # player of a word with that letter in round r sits at.
        self.round_index = np.arange(rounds)[None, :, None]
        letters = (np.arange(tables)[:, None] + self.shifts[None, :]) % tables
        self.then = self.labels[np.arange(rounds)[:, None, None], letters[None, :, :]][None]
        # Flat offsets into the (orbit, shift, label) counts, for one-array gathers.
        self.offsets = (
            np.arange(ORBITS)[:, None, None, None] * tables + self.shifts[None, None, None, :]
        ) * (self.none + 1)
        self.then_flat = self.offsets + self.then

    def _at(self, words: np.ndarray) -> np.ndarray:
        """(orbit, round, shift): the label of each orbit's k-th player in each round."""
        tables = (words[:, :, None] + self.shifts[None, None, :]) % self.tables
        return self.labels[self.round_index, tables]

    def recount(self, words: np.ndarray) -> None:
        at = self.at = self._at(words)
        self.counts = np.zeros((ORBITS, self.tables, self.none + 1), dtype=np.int64)
        for r in range(words.shape[1]):
            np.add.at(
                self.counts, (np.arange(ORBITS)[:, None], self.shifts[None, :], at[:, r, :]), 1
            )
        self.counts[:, :, self.none] = 0

    def cost(self) -> float:
        return float(self.price[self.counts[:, :, : self.none]].sum())

    def over(self) -> int:
        """Games more than one above the bound, over every player of every orbit."""
        return int(np.maximum(0, self.counts[:, :, : self.none] - self.bound - 1).sum())

    def changes(self, words: np.ndarray) -> np.ndarray:
        """(orbit, round, letter): change of the cost when the word takes the letter there."""
        counts = self.counts
        up = self.price[counts + 1] - self.price[counts]
        down = self.price[np.maximum(counts - 1, 0)] - self.price[counts]
        up[:, :, self.none] = down[:, :, self.none] = 0
        now = self.at[:, :, None, :]
        joined = np.take(up, self.then_flat)
        left = np.take(down, self.offsets + now)
        return ((joined + left) * (self.then != now)).sum(axis=3)

    def change(self, words: np.ndarray, i: int, r: int, letter: int) -> None:
        old = self.labels[r, (words[i, r] + self.shifts) % self.tables]
        new = self.labels[r, (letter + self.shifts) % self.tables]
        # One label per shift: no index repeats, so plain indexing adds exactly once.
        self.counts[i, self.shifts, old] -= 1
        self.counts[i, self.shifts, new] += 1
        self.counts[i, :, self.none] = 0
        self.at[i, r] = new
