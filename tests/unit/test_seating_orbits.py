"""Cyclic orbit designs: balanced tables for any table count, the 40-player stage at its bound."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest

from domain.seating.orbits import _TRIALS, orbit_tables


def meeting_counts(tables_of: list[list[int]]) -> list[int]:
    """How often each two players share a table, from every round's table of every player."""
    players = len(tables_of[0])
    return [sum(row[a] == row[b] for row in tables_of) for a, b in combinations(range(players), 2)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_orbits_seat_40_players_at_4_tables_for_6_rounds_at_the_round_pair_bound(
    seed: int,
) -> None:
    tables_of = orbit_tables(40, 4, 6, meet_target=2, s2_bound=480, rng=random.Random(seed))
    for row in tables_of:
        assert Counter(row) == dict.fromkeys(range(4), 10)
    counts = meeting_counts(tables_of)
    assert max(counts) == 2
    # Some pairs meet once: no code over GF(4) gets there (its pairs meet 0 or 2 times).
    assert sum(comb(m, 2) for m in counts) == 480
    assert 1 in counts


def test_orbits_fit_a_table_count_that_is_no_prime_power() -> None:
    tables_of = orbit_tables(60, 6, 6, meet_target=2, s2_bound=360, rng=random.Random(0))
    for row in tables_of:
        assert Counter(row) == dict.fromkeys(range(6), 10)
    assert max(meeting_counts(tables_of)) == 2


def test_no_orbits_unless_every_player_plays_every_round_at_two_tables_or_more() -> None:
    assert orbit_tables(57, 5, 6, 2, 270, random.Random(0)) == []
    assert orbit_tables(10, 1, 3, 3, 135, random.Random(0)) == []


def test_players_placed_in_orbits_by_team_never_meet_and_spread_over_tables_and_judges() -> None:
    # 60 players in teams of 3, two teams to an orbit of 6; 6 judges rotating over the tables.
    slots = [(player // 6, player % 6) for player in range(60)]
    judges = [[(table + r) % 6 for table in range(6)] for r in range(6)]
    tables_of = orbit_tables(60, 6, 6, 2, 360, random.Random(0), slots, judges)
    for row in tables_of:
        assert Counter(row) == dict.fromkeys(range(6), 10)
        for team in range(20):
            assert len({row[3 * team + k] for k in range(3)}) == 3
    for player in range(60):
        at_table = Counter(row[player] for row in tables_of)
        with_judge = Counter(judges[r][row[player]] for r, row in enumerate(tables_of))
        # Bound ⌈6 / 6⌉ = 1: one game above it at most.
        assert max(at_table.values()) <= 2 and max(with_judge.values()) <= 2


def test_a_design_of_meetings_alone_is_the_start_when_its_numbering_spreads_everyone() -> None:
    # The caller's numbering says nobody is more than one game above a bound: its numbered
    # design is taken as it is, and no weighted search follows.
    numbered: list[list[list[int]]] = []

    def spread(tables_of: list[list[int]]) -> tuple[list[list[int]], int]:
        renumbered = [[(t + 1) % 10 for t in row] for row in tables_of]
        numbered.append(renumbered)
        return renumbered, 0

    tables_of = orbit_tables(100, 10, 6, 2, 0, random.Random(0), spread=spread)
    assert len(numbered) == 1 and tables_of == numbered[0]
    assert max(meeting_counts(tables_of)) == 2


def test_a_design_its_numbering_leaves_players_far_above_a_bound_gives_way_to_the_weighted() -> (
    None
):
    calls: list[int] = []

    def spread(tables_of: list[list[int]]) -> tuple[list[list[int]], int]:
        calls.append(1)
        return tables_of, 5

    judges = [[(table + r) % 10 for table in range(10)] for r in range(6)]
    tables_of = orbit_tables(100, 10, 6, 2, 0, random.Random(0), None, judges, spread)
    # Every trial's design is numbered, and each gives way.
    assert 1 <= len(calls) <= _TRIALS
    for player in range(100):
        with_judge = Counter(judges[r][row[player]] for r, row in enumerate(tables_of))
        assert max(with_judge.values()) <= 2


def test_with_as_many_rounds_as_tables_a_sound_design_of_meetings_alone_is_taken() -> None:
    calls: list[int] = []

    def spread(tables_of: list[list[int]]) -> tuple[list[list[int]], int]:
        calls.append(1)
        return tables_of, 0

    # 60 players at 6 tables over 6 rounds, the weighted search short of the bound (0): the
    # first design of meetings alone that the numbering leaves sound is the start.
    judges = [[(table + r) % 6 for table in range(6)] for r in range(6)]
    tables_of = orbit_tables(60, 6, 6, 2, 0, random.Random(0), None, judges, spread)
    assert calls == [1]
    assert max(meeting_counts(tables_of)) == 2
