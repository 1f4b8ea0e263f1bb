"""Seats 1–10 at each table: distinct seats for every player, early/middle/late in 3:4:3.

The tables are already decided; each table's 10 players get the 10 seats by an optimal
assignment (the Hungarian method on a 10×10 cost matrix), one table at a time with all other
tables fixed, sweeping the stage until no table changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.seating_assignment import cheapest_assignment

SEATS = 10
# Zone of each seat (0 early 1–3, 1 middle 4–7, 2 late 8–10) and the zones' shares in tenths.
SEAT_ZONE = (0, 0, 0, 1, 1, 1, 1, 2, 2, 2)
ZONE_SHARE = (3, 4, 3)

_EXCLUDED = 10**12
_REPEATED_SEAT = 10**8
_MOVED_SEAT = 10**5
_MAX_SWEEPS = 12


def assign_seats(
    rounds: Sequence[Sequence[Sequence[int]]],
    fixed_rounds: int,
    games: Sequence[int],
    excluded: Sequence[frozenset[int]],
    hint: Sequence[dict[int, int]],
) -> list[list[list[int]]]:
    """Order every table of the free rounds by seat (index 0 is seat 1).

    `rounds` are tables of player indices; the first `fixed_rounds` keep their order. `games[p]`
    is how many games player p plays in the stage; `excluded[p]` the seats (0-based) he may not
    take; `hint[r]` maps a player to the seat (0-based) the previous seating gave him in round r.
    """
    seated = [[list(table) for table in tables] for tables in rounds]
    player_count = len(games)
    used = [[0] * SEATS for _ in range(player_count)]
    for tables in seated:
        for table in tables:
            for seat, p in enumerate(table):
                used[p][seat] += 1
    for _ in range(_MAX_SWEEPS):
        changed = False
        for r in range(fixed_rounds, len(seated)):
            for table in seated[r]:
                for seat, p in enumerate(table):
                    used[p][seat] -= 1
                costs = [
                    _seat_costs(used[p], games[p], excluded[p], hint[r].get(p, -1)) for p in table
                ]
                order = cheapest_assignment(costs)
                new_table = [0] * SEATS
                for k, seat in enumerate(order):
                    new_table[seat] = table[k]
                if new_table != table:
                    changed = True
                    table[:] = new_table
                for seat, p in enumerate(table):
                    used[p][seat] += 1
        if not changed:
            break
    return seated


def _seat_costs(used: list[int], games: int, excluded: frozenset[int], hint: int) -> list[int]:
    """Cost of each seat for one player, given the seats he takes in the other rounds."""
    zones = [0, 0, 0]
    for seat, count in enumerate(used):
        zones[SEAT_ZONE[seat]] += count
    costs = []
    for seat in range(SEATS):
        zone = SEAT_ZONE[seat]
        # Change of Σ (10·count_z − share_z·games)² when one more game falls into this zone.
        gap = 10 * zones[zone] - ZONE_SHARE[zone] * games
        cost = 20 * gap + 100
        if used[seat] and games <= SEATS:
            cost += _REPEATED_SEAT * used[seat]
        if seat in excluded:
            cost += _EXCLUDED
        if hint >= 0 and seat != hint:
            cost += _MOVED_SEAT
        costs.append(cost)
    return costs
