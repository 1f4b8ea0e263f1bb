"""The assignment problem: rows to columns at least total cost (seats, table numbers)."""

from __future__ import annotations


def cheapest_assignment(costs: list[list[int]]) -> list[int]:
    """Column of each row in a minimum-cost perfect assignment (Hungarian method, O(n³))."""
    n = len(costs)
    infinity = float("inf")
    row_potential: list[float] = [0] * (n + 1)
    column_potential: list[float] = [0] * (n + 1)
    owner = [0] * (n + 1)  # owner[column] = row (1-based), 0 when free
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0] = row
        column = 0
        slack = [infinity] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column] = True
            current = owner[column]
            delta = infinity
            next_column = 0
            for j in range(1, n + 1):
                if used[j]:
                    continue
                reduced = costs[current - 1][j - 1] - row_potential[current] - column_potential[j]
                if reduced < slack[j]:
                    slack[j] = reduced
                    way[j] = column
                if slack[j] < delta:
                    delta = slack[j]
                    next_column = j
            for j in range(n + 1):
                if used[j]:
                    row_potential[owner[j]] += delta
                    column_potential[j] -= delta
                else:
                    slack[j] -= delta
            column = next_column
            if owner[column] == 0:
                break
        while column:
            previous = way[column]
            owner[column] = owner[previous]
            column = previous
    seat_of_row = [0] * n
    for j in range(1, n + 1):
        seat_of_row[owner[j] - 1] = j - 1
    return seat_of_row
