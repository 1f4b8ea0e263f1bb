"""Why 30 players in teams of 3 at 3 tables over 6 rounds need their judges' schedule chosen.

`python bench/seating_teams_of_three.py` searches every such seating exhaustively (about 20 CPU
s) for one where every two players meet at most 3 times (the pair bound) while nobody plays
more than 3 games at one table or with one judge (his bounds, 2, plus one), the 3 judges
rotating over the tables as `rotate_judges` rotates them; `--judges-stay` keeps each judge at
his table instead.

Teammates never share a table, so every round each team puts one member at each table: a team
is a pattern, one permutation of its members over the tables per round (the first round fixed,
which only names the members). The patterns that keep each member within 3 games at a table and
with a judge are the candidates; two teams fit together when no member of one meets a member of
the other more than 3 times. A seating is 10 teams that fit pairwise: a clique of 10 in the
graph of fitting patterns. A branch and bound over that graph (greedy colouring as the bound)
finds the largest clique. With the rotation it prints 9: no seating keeps both. With the judges
staying it prints 10: the judges' rotation, not the problem, cost the meeting, so the generator
chooses the judges' schedule with the seating (`domain/seating/judge_schedule.py`, issue 31).
"""

from __future__ import annotations

import sys
import time
from itertools import permutations, product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from domain.seating.judges import rotate_judges

TABLES = 3
ROUNDS = 6
TEAMS = 10
MOST = 3


def patterns(judges_stay: bool) -> np.ndarray:
    """(pattern, member, round) -> table, for every pattern within the table and judge limits."""
    judge_of = [
        tuple(range(TABLES)) if judges_stay else rotate_judges(list(range(TABLES)), TABLES, r)
        for r in range(ROUNDS)
    ]
    orders = list(permutations(range(TABLES)))
    found = []
    for rest in product(range(len(orders)), repeat=ROUNDS - 1):
        rows = np.array([orders[0], *(orders[k] for k in rest)]).T
        if all(
            np.bincount(row, minlength=TABLES).max() <= MOST
            and max(np.bincount([judge_of[r][t] for r, t in enumerate(row)], minlength=TABLES))
            <= MOST
            for row in rows
        ):
            found.append(rows)
    return np.array(found)


def fitting(found: np.ndarray) -> list[int]:
    """Each pattern's neighbours as a bit set: the patterns whose members it meets at most
    `MOST` times each."""
    fits = np.ones((len(found), len(found)), dtype=bool)
    for a in range(TABLES):
        for b in range(TABLES):
            fits &= (found[:, None, a, :] == found[None, :, b, :]).sum(axis=2) <= MOST
    np.fill_diagonal(fits, False)
    return [sum(1 << int(v) for v in np.flatnonzero(row)) for row in fits]


def largest_clique(neighbours: list[int], enough: int) -> int:
    """Size of the largest clique, or `enough` as soon as one that large is found."""
    best = 0

    def coloured(candidates: int) -> list[tuple[int, int]]:
        """The candidates in greedy colour classes, with the number of colours so far."""
        order, colour, rest = [], 0, candidates
        while rest:
            colour += 1
            open_ = rest
            while open_:
                v = (open_ & -open_).bit_length() - 1
                open_ &= ~(1 << v) & ~neighbours[v]
                rest &= ~(1 << v)
                order.append((v, colour))
        return order

    def expand(size: int, candidates: int) -> None:
        nonlocal best
        for v, colour in reversed(coloured(candidates)):
            if size + colour <= best or best >= enough:
                return
            best = max(best, size + 1)
            expand(size + 1, candidates & neighbours[v])
            candidates &= ~(1 << v)

    expand(0, (1 << len(neighbours)) - 1)
    return best


def main() -> None:
    start = time.process_time()
    judges_stay = "--judges-stay" in sys.argv
    found = patterns(judges_stay)
    largest = largest_clique(fitting(found), TEAMS)
    print(
        f"judges {'staying at their tables' if judges_stay else 'rotating'}: "
        f"{len(found)} team patterns within {MOST} games at a table and with a judge; "
        f"at most {largest} teams fit with no pair meeting more than {MOST} times "
        f"({TEAMS} needed); CPU {time.process_time() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
