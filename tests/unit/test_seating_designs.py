"""Structured starts (codes over finite fields) and the seat colouring of the seating generator."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from domain.seating.codes import code_tables
from domain.seating.generator import generate_seating
from domain.seating.quality import evaluate_seating
from domain.seating.request import SeatingRequest
from domain.seating.seats import assign_seats
from domain.seating.sit_out_orbits import sit_out_orbit_tables


def meetings(tables_of: list[list[int]]) -> Counter[tuple[int, int]]:
    """How often each two players share a table, from every round's table of every player."""
    players = len(tables_of[0])
    return Counter(
        (a, b) for a, b in combinations(range(players), 2) for row in tables_of if row[a] == row[b]
    )


def test_the_hexacode_seats_40_players_at_4_tables_for_6_rounds_meeting_at_most_twice() -> None:
    tables_of = code_tables(40, 4, 6, random.Random(0))
    assert len(tables_of) == 6
    for row in tables_of:
        assert Counter(row) == {0: 10, 1: 10, 2: 10, 3: 10}
    assert max(meetings(tables_of).values()) == 2


def test_a_code_over_gf5_seats_50_players_for_6_rounds_meeting_at_most_twice() -> None:
    tables_of = code_tables(50, 5, 6, random.Random(3))
    for row in tables_of:
        assert Counter(row) == dict.fromkeys(range(5), 10)
    assert max(meetings(tables_of).values()) == 2


def test_no_code_when_the_tables_are_no_prime_power_or_the_rounds_too_many() -> None:
    assert code_tables(60, 6, 6, random.Random(0)) == []
    assert code_tables(30, 3, 6, random.Random(0)) == []
    assert code_tables(41, 4, 6, random.Random(0)) == []


def test_seats_of_100_players_over_10_rounds_are_all_distinct() -> None:
    players = tuple(f"p{i}" for i in range(1, 101))
    request = SeatingRequest(players=players, rounds=10, swaps=20_000)
    quality = evaluate_seating(request, generate_seating(request))
    assert quality.players_with_repeated_seats == 0
    # Ten distinct seats are three early, four middle and three late ones.
    assert quality.seat_zone_unbalanced == 0


def test_seats_after_played_rounds_stay_and_the_rest_never_repeat_them() -> None:
    rng = random.Random(5)
    players = list(range(30))
    rounds = []
    for _ in range(8):
        rng.shuffle(players)
        rounds.append([players[k : k + 10] for k in range(0, 30, 10)])
    games = [8] * 30
    seated = assign_seats(rounds, 3, games, [frozenset()] * 30, [{}] * 8)
    assert seated[:3] == rounds[:3]
    checked = 0
    for p in range(30):
        seats = [t.index(p) for tables in seated for t in tables if p in t]
        # Random played rounds may already give a player one seat twice; nothing mends that.
        if len(set(seats[:3])) == 3:
            assert len(set(seats)) == 8
            checked += 1
    assert checked >= 20


def test_whole_orbits_sit_out_48_players_fairly_and_fill_every_table() -> None:
    tables_of = sit_out_orbit_tables(48, 4, 9, 3, random.Random(1))
    sat_out = Counter(p for row in tables_of for p, t in enumerate(row) if t < 0)
    for row in tables_of:
        assert Counter(t for t in row if t >= 0) == dict.fromkeys(range(4), 10)
    assert sorted(Counter(sat_out.values()).items()) == [(1, 24), (2, 24)]
    assert sit_out_orbit_tables(40, 4, 6, 2, random.Random(1)) == []


@pytest.mark.parametrize(
    ("players", "tables", "rounds"), [(34, 2, 3), (38, 2, 4), (44, 2, 2), (51, 3, 3), (48, 4, 9)]
)
def test_whole_orbits_sit_out_distinct_in_every_round(
    players: int, tables: int, rounds: int
) -> None:
    # A cycle of sit-outs ending inside a round once sent an orbit out twice in that round.
    tables_of = sit_out_orbit_tables(players, tables, rounds, 3, random.Random(0))
    for row in tables_of:
        assert Counter(t for t in row if t >= 0) == dict.fromkeys(range(tables), 10)
    sat_out = [sum(row[p] < 0 for row in tables_of) for p in range(players)]
    assert max(sat_out) - min(sat_out) <= 1


def test_48_players_over_9_rounds_at_4_tables_repeat_fewer_meetings_than_before() -> None:
    request = SeatingRequest(
        players=tuple(f"p{i}" for i in range(48)), rounds=9, tables_per_round=(4,) * 9, seed=2
    )
    seating = generate_seating(request)
    quality = evaluate_seating(request, seating)
    # The greedy start and swap search reached 694 on this seed, the orbit design 671.
    assert quality.max_meet <= 3 and quality.s2 <= 680
    # 36 round pairs of 16 cells, and the 24 players who sit out twice crowd 24 of them.
    assert quality.s2_bound == 624
    assert Counter(p for out in seating.sit_outs for p in out).most_common()[-1][1] == 1
