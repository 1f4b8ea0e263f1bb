"""Cyclic orbit designs: balanced tables for any table count, the 40-player stage at its bound."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest

from domain.seating_orbits import orbit_tables


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
