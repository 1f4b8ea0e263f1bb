"""Seats 1–10 at each table: distinct seats for every player, early/middle/late in 3:4:3.

The tables are already decided. Seats are first an edge colouring of the bipartite graph of
games and players (colour = seat): every game has 10 players, so while every player plays at
most 10 games König's theorem promises 10 colours, i.e. all seats of a player differ. The
colouring is built edge by edge, recolouring an alternating two-colour path when the two ends
have no free colour in common. Then each table's 10 players get the 10 seats by an optimal
assignment (the Hungarian method on a 10×10 cost matrix), one table at a time with all other
tables fixed, sweeping the stage until no table changes: a repeated seat costs more than
anything else but an excluded seat, so distinct seats stay distinct while the zones even out.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.seating.assignment import cheapest_assignment

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
    seated = _distinct_seats(rounds, fixed_rounds, excluded, hint)
    _sweep_tables(seated, fixed_rounds, games, excluded, hint)
    return seated


def _sweep_tables(
    seated: list[list[list[int]]],
    fixed_rounds: int,
    games: Sequence[int],
    excluded: Sequence[frozenset[int]],
    hint: Sequence[dict[int, int]],
) -> None:
    """Reseat one table at a time optimally, the others fixed, until no table changes."""
    used = [[0] * SEATS for _ in games]
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


def _distinct_seats(
    rounds: Sequence[Sequence[Sequence[int]]],
    fixed_rounds: int,
    excluded: Sequence[frozenset[int]],
    hint: Sequence[dict[int, int]],
) -> list[list[list[int]]]:
    """Seats of the free rounds as an edge colouring: no player twice in one seat if possible.

    Seats taken in played rounds stay, and neither they nor a player's excluded seats are given
    to him by the colouring (the alternating paths never recolour into them); the seat the
    previous seating gave a player comes first when it is free.
    """
    closed = [set(seats) for seats in excluded]
    for tables in rounds[:fixed_rounds]:
        for table in tables:
            for seat, p in enumerate(table):
                closed[p].add(seat)
    games = [(r, table) for r in range(fixed_rounds, len(rounds)) for table in rounds[r]]
    # seat → player at every free game, seat → free game of every player
    at_game: list[list[int]] = [[-1] * SEATS for _ in games]
    of_player: list[dict[int, int]] = [{} for _ in closed]
    for g, (r, table) in enumerate(games):
        # Players with few seats open to them choose first.
        for p in sorted(table, key=lambda p: len(excluded[p])):
            free_here = [c for c in range(SEATS) if at_game[g][c] < 0]
            free_there = [c for c in range(SEATS) if c not in of_player[p] and c not in closed[p]]
            common = [c for c in free_here if c in free_there]
            seat = hint[r].get(p, -1) if hint[r].get(p, -1) in common else -1
            if seat < 0 and common:
                seat = common[0]
            for a in free_here if seat < 0 else ():
                for b in free_there:
                    if _recolour_path(at_game, of_player, closed, p, a, b):
                        seat = a
                        break
                if seat >= 0:
                    break
            if seat < 0:
                # A repeated seat rather than an excluded one.
                seat = next((c for c in free_here if c not in excluded[p]), free_here[0])
            at_game[g][seat] = p
            of_player[p][seat] = g
    seated = [[list(table) for table in tables] for tables in rounds[:fixed_rounds]]
    g = 0
    for tables in rounds[fixed_rounds:]:
        seated.append([])
        for _ in tables:
            seated[-1].append(list(at_game[g]))
            g += 1
    return seated


def _recolour_path(
    at_game: list[list[int]],
    of_player: list[dict[int, int]],
    closed: list[set[int]],
    p: int,
    a: int,
    b: int,
) -> bool:
    """Swap colours a and b along the a/b path from player p (who lacks b), freeing a at p.

    In a bipartite graph the path never returns to p's side of the edge being coloured. It is
    refused (nothing changes) when the swap would give someone a seat closed to him.
    """
    if a in closed[p]:
        return False
    path: list[tuple[int, int, int]] = []  # (game, player, colour) edges along the path
    player = p
    while a in of_player[player]:
        game = of_player[player][a]
        path.append((game, player, a))
        following = at_game[game][b]
        if following < 0:
            break
        path.append((game, following, b))
        if a in closed[following]:
            return False
        player = following
    for game, player, colour in path:
        at_game[game][colour] = -1
        del of_player[player][colour]
    for game, player, colour in path:
        flipped = b if colour == a else a
        at_game[game][flipped] = player
        of_player[player][flipped] = game
    return True


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
