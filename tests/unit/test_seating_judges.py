"""The judges' schedule chosen with the seating (`domain/seating/judge_schedule.py`)."""

from __future__ import annotations

import random
from collections import Counter

from domain.seating.generator import generate_seating
from domain.seating.judge_schedule import choosable, chosen_judges
from domain.seating.judges import rotate_judges
from domain.seating.quality import evaluate_seating
from domain.seating.request import SeatingRequest

JUDGES = ("Анна", "Борис")
ROTATION = tuple(rotate_judges(JUDGES, 2, r) for r in range(6))


def most_with_one_judge(
    rounds: list[list[list[int]]], schedule: tuple[tuple[str | None, ...], ...]
) -> int:
    visits = Counter(
        (player, schedule[r][t])
        for r, groups in enumerate(rounds)
        for t, group in enumerate(groups)
        for player in group
    )
    return max(visits.values())


def test_a_rotation_that_spreads_every_player_over_the_judges_is_kept() -> None:
    # Players 0-9 sit at table 1 in rounds 1-3 and at table 2 in rounds 4-6: the rotation
    # gives each of them 3 games with each judge.
    first, second = list(range(10)), list(range(10, 20))
    rounds = [[first, second]] * 3 + [[second, first]] * 3
    schedule = chosen_judges(rounds, ROTATION, 20, random.Random(1))
    assert schedule == ROTATION


def test_judges_stay_at_their_tables_when_the_rotation_would_crowd_a_player() -> None:
    # Players 0-9 alternate tables as the judges do: with the rotation they would meet Анна
    # in all 6 games (bound 3, one above it allowed).
    first, second = list(range(10)), list(range(10, 20))
    rounds = [[first, second], [second, first]] * 3
    assert most_with_one_judge(rounds, ROTATION) == 6
    schedule = chosen_judges(rounds, ROTATION, 20, random.Random(1))
    assert most_with_one_judge(rounds, schedule) <= 4
    assert all(sorted(row) == sorted(JUDGES) for row in schedule)


def test_a_schedule_naming_other_judges_in_some_round_is_not_moved() -> None:
    assert choosable(ROTATION, (2,) * 6)
    assert not choosable((("Анна", "Борис"), ("Анна", "Вера")), (2, 2))
    assert not choosable(ROTATION, (2,) * 5)


def test_the_seating_chooses_the_judges_only_when_asked_and_the_same_for_a_seed() -> None:
    players = tuple(f"p{i}" for i in range(20))
    request = SeatingRequest(players=players, rounds=6, table_judges=ROTATION, seed=3, swaps=20_000)
    assert generate_seating(request).table_judges == ROTATION
    chosen = SeatingRequest(
        players=players,
        rounds=6,
        table_judges=ROTATION,
        seed=3,
        swaps=20_000,
        choose_judges=True,
    )
    seating = generate_seating(chosen)
    assert seating == generate_seating(chosen)
    assert all(sorted(row) == sorted(JUDGES) for row in seating.table_judges)
    quality = evaluate_seating(chosen, seating)
    assert quality.most_with_judge is not None
    assert quality.most_with_judge[1] <= quality.most_with_judge_bound + 1


def test_thirty_players_in_teams_of_three_meet_within_the_pair_bound() -> None:
    # With the judges rotating on a fixed schedule no such seating exists
    # (bench/seating_teams_of_three.py); with the schedule chosen, every pair meets at most 3
    # times and every player stays within 3 games at a table and with a judge (bounds 2).
    players = tuple(f"p{i}" for i in range(30))
    judges = ("j1", "j2", "j3")
    request = SeatingRequest(
        players=players,
        rounds=6,
        team_of={p: f"t{k // 3}" for k, p in enumerate(players)},
        table_judges=tuple(rotate_judges(judges, 3, r) for r in range(6)),
        choose_judges=True,
        seed=1,
    )
    quality = evaluate_seating(request, generate_seating(request))
    assert (quality.max_meet, quality.max_meet_bound) == (3, 3)
    assert quality.teammates_together == 0
    assert quality.most_at_table is not None and quality.most_with_judge is not None
    assert quality.most_at_table[1] <= quality.most_at_table_bound + 1
    assert quality.most_with_judge[1] <= quality.most_with_judge_bound + 1
