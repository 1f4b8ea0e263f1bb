"""Structured starts: a stage where everyone plays every round, seated by a design.

A player is a word of R letters (his table each round) and two players meet as often as their
words agree; codes over GF(q) and cyclic orbits (`codes.py`, `orbits.py`) give words that agree
rarely. This module picks the better of the two for a stage, packs teams into orbits so that
teammates never meet, and numbers a design's tables for few games at one table and with one
judge (docs/seating.md, "Structured starts").
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from domain.seating.bounds import SeatingBounds
from domain.seating.codes import code_tables
from domain.seating.orbits import ORBITS, orbit_tables
from domain.seating.table_numbers import NumberingProblem, numbered_with_far_over


def orbit_slots(
    player_count: int, tables: int, teams: Sequence[Sequence[int]]
) -> list[tuple[int, int]] | None:
    """(orbit, shift) of every player so that each team lies within one orbit, or None.

    Two players of one orbit never share a table, so teammates packed into one orbit stay
    apart by construction (the column construction: 60 players in teams of 3 at 6 tables put
    two teams in each orbit of 6). Teams go into orbits largest first, the first that has room.
    """
    room = [tables] * ORBITS
    orbit_of: dict[int, int] = {}
    for members in sorted(teams, key=len, reverse=True):
        orbit = next((o for o in range(ORBITS) if room[o] >= len(members)), None)
        if orbit is None:
            return None
        room[orbit] -= len(members)
        orbit_of.update(dict.fromkeys(members, orbit))
    for player in range(player_count):
        if player not in orbit_of:
            orbit = next(o for o in range(ORBITS) if room[o])
            room[orbit] -= 1
            orbit_of[player] = orbit
    shift = [0] * ORBITS
    slots = []
    for player in range(player_count):
        orbit = orbit_of[player]
        slots.append((orbit, shift[orbit]))
        shift[orbit] += 1
    return slots


def structured_start(
    player_count: int,
    tables: int,
    rounds: int,
    bounds: SeatingBounds,
    seed: int,
    teams: Sequence[Sequence[int]] = (),
    judges: Sequence[Sequence[int]] = (),
) -> tuple[tuple[int, ...], ...] | None:
    """The better design to start the search from: a code over GF(q), else cyclic orbits.

    Neither is best everywhere: codes make some stages perfect, while cyclic orbits fit any
    table count and reach the bound where every code stops short (40 players at 4 tables over
    6 rounds: S2 480, not 540). The orbits are searched only when the code misses the bounds.
    With teams only orbits serve, each team within one orbit (`orbit_slots`), if they fit.
    """
    target = max(2, bounds.max_meet)
    slots = orbit_slots(player_count, tables, teams) if teams else None
    if teams and slots is None:
        return None
    designs: tuple[Callable[[], list[list[int]]], ...] = (
        lambda: [] if teams else code_tables(player_count, tables, rounds, random.Random(seed)),
        lambda: orbit_tables(
            player_count,
            tables,
            rounds,
            target,
            bounds.s2,
            random.Random(seed),
            slots,
            judges,
            lambda tables_of: _numbered_design(tables_of, tables, judges, seed),
        ),
    )
    best: tuple[tuple[int, int], list[list[int]]] | None = None
    for design in designs:
        words = design()
        if words:
            quality = _meeting_quality(words)
            if best is None or quality < best[0]:
                best = (quality, words)
            if best[0] <= (bounds.max_meet, bounds.s2):
                break
    return None if best is None else tuple(tuple(row) for row in best[1])


def _numbered_design(
    tables_of: Sequence[Sequence[int]], tables: int, judges: Sequence[Sequence[int]], seed: int
) -> tuple[list[list[int]], int]:
    """A design (every player's table in every round) with its tables numbered for few games
    at one table and with one judge, and the games more than one above a bound it leaves."""
    rounds = len(tables_of)
    player_count = len(tables_of[0]) if tables_of else 0
    numbering = NumberingProblem(
        player_count=player_count,
        tables=(tables,) * rounds,
        judges=tuple(tuple(row) for row in judges),
        forbidden=frozenset(),
        hint=((-1,) * player_count,) * rounds,
    )
    groups = [
        [[p for p, t in enumerate(row) if t == table] for table in range(tables)]
        for row in tables_of
    ]
    numbered, far_over = numbered_with_far_over(
        numbering, groups, range(rounds), random.Random(seed)
    )
    renumbered = [[0] * player_count for _ in range(rounds)]
    for r, groups_of_round in enumerate(numbered):
        for t, group in enumerate(groups_of_round):
            for p in group:
                renumbered[r][p] = t
    return renumbered, far_over


def _meeting_quality(tables_of: Sequence[Sequence[int]]) -> tuple[int, int]:
    """(max_meet, S2) of a stage given as every player's table in every round."""
    meetings: dict[tuple[int, int], int] = {}
    for row in tables_of:
        at_table: dict[int, list[int]] = {}
        for player, table in enumerate(row):
            at_table.setdefault(table, []).append(player)
        for players in at_table.values():
            for pair in combinations(players, 2):
                meetings[pair] = meetings.get(pair, 0) + 1
    return (
        max(meetings.values(), default=0),
        sum(m * (m - 1) // 2 for m in meetings.values()),
    )
