"""The seating generator: hard constraints, fair sit-outs, bounds and re-seating."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domain.player_keys import participant_id
from domain.seating.bounds import fewest_at_one_place
from domain.seating.generator import generate_seating
from domain.seating.judges import rotate_judges
from domain.seating.quality import SeatingQuality, evaluate_seating, seating_lower_bounds
from domain.seating.request import (
    Seating,
    SeatingError,
    SeatingRequest,
    hard_violations,
    judge_conflict_placements,
)
from tests.examples import examples

SWAPS = 20_000


def players(n: int) -> tuple[str, ...]:
    return tuple(f"p{i}" for i in range(1, n + 1))


def teams_of(names: tuple[str, ...], size: int) -> dict[str, str]:
    return {p: f"t{k // size + 1}" for k, p in enumerate(names)} if size else {}


def sit_out_counts(request: SeatingRequest, seating: Seating) -> list[Counter[str]]:
    counts: Counter[str] = Counter(dict.fromkeys(request.players, 0))
    history = []
    for tables in seating.rounds:
        playing = {p for table in tables for p in table}
        counts.update(p for p in request.players if p not in playing)
        history.append(Counter(counts))
    return history


@st.composite
def requests(draw: st.DrawFn) -> SeatingRequest:
    n = draw(st.integers(min_value=10, max_value=47))
    rounds = draw(st.integers(min_value=1, max_value=5))
    full = n // 10
    tables = tuple(draw(st.integers(min_value=1, max_value=full)) for _ in range(rounds))
    team_size = draw(st.sampled_from([0, 2, 3]))
    if team_size > min(tables):
        team_size = 0
    names = players(n)
    played_count = draw(st.integers(min_value=0, max_value=rounds - 1))
    base = SeatingRequest(
        players=names,
        rounds=rounds,
        tables_per_round=tables,
        team_of=teams_of(names, team_size),
        seed=draw(st.integers(min_value=0, max_value=10**6)),
        swaps=SWAPS,
    )
    if not played_count:
        return base
    earlier = generate_seating(
        SeatingRequest(
            players=names,
            rounds=played_count,
            tables_per_round=tables[:played_count],
            team_of=base.team_of,
            seed=base.seed + 1,
            swaps=SWAPS,
        )
    )
    return SeatingRequest(
        players=names,
        rounds=rounds,
        tables_per_round=tables,
        team_of=base.team_of,
        played=earlier.rounds,
        seed=base.seed,
        swaps=SWAPS,
    )


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
# 17 orbits of 2, 7 out a round: the third round sent one orbit out twice (11 a table).
@example(SeatingRequest(players=players(34), rounds=3, tables_per_round=(2, 2, 2), swaps=SWAPS))
def test_every_generated_seating_keeps_the_hard_constraints_and_rotates_sit_outs(
    request: SeatingRequest,
) -> None:
    seating = generate_seating(request)
    assert hard_violations(request, seating) == []
    quality = evaluate_seating(request, seating)
    assert quality.teammates_together == 0
    assert quality.sit_out_unfairness == 0
    assert quality.games_max - quality.games_min <= 1
    assert quality.max_meet >= quality.max_meet_bound
    assert quality.s2 >= quality.s2_bound
    assert seating.rounds[: len(request.played)] == request.played
    for after_round in sit_out_counts(request, seating):
        assert max(after_round.values()) - min(after_round.values()) <= 1
    for r, tables in enumerate(seating.rounds):
        playing = [p for table in tables for p in table]
        assert sorted(playing + list(seating.sit_outs[r])) == sorted(request.players)


def test_same_seed_gives_the_same_seating_and_another_seed_another() -> None:
    request = SeatingRequest(players=players(30), rounds=4, seed=7, swaps=SWAPS)
    assert generate_seating(request) == generate_seating(request)
    other = SeatingRequest(players=players(30), rounds=4, seed=8, swaps=SWAPS)
    assert generate_seating(other).rounds != generate_seating(request).rounds


def test_small_cup_reaches_the_bounds_with_distinct_seats() -> None:
    request = SeatingRequest(players=players(20), rounds=3, swaps=200_000)
    quality = evaluate_seating(request, generate_seating(request))
    assert (quality.max_meet, quality.s2) == (3, 120)
    assert (quality.max_meet_bound, quality.s2_bound) == (3, 120)
    assert quality.players_with_repeated_seats == 0


def test_a_swap_shows_in_the_quality_right_after_the_seating_was_measured() -> None:
    # The quality measured last is given again for an equal seating: the organizer's swap
    # (two teammates now at one table) must not get it.
    team_of = teams_of(players(30), 3)
    request = SeatingRequest(players=players(30), rounds=2, team_of=team_of, swaps=SWAPS)
    seating = generate_seating(request)
    assert evaluate_seating(request, seating).teammates_together == 0
    first, *others = seating.rounds[0]
    other = next(t for t in others if any(team_of[p] == team_of[first[0]] for p in t))
    mate = next(p for p in other if team_of[p] == team_of[first[0]])
    tables = [
        tuple(mate if p == first[1] else p for p in table)
        if table is first
        else tuple(first[1] if p == mate else p for p in table)
        if table is other
        else table
        for table in seating.rounds[0]
    ]
    moved = replace(seating, rounds=(tuple(tables), *seating.rounds[1:]))
    assert evaluate_seating(request, moved).teammates_together >= 1


def rotated_judges(tables: int, rounds: int) -> tuple[tuple[str | None, ...], ...]:
    """As many judges as tables, rotated over them round by round as the bot does."""
    judges = [f"j{t}" for t in range(1, tables + 1)]
    return tuple(rotate_judges(judges, tables, r) for r in range(rounds))


@pytest.mark.parametrize(
    ("n", "tables", "rounds", "team_size", "s2_at_most"),
    [
        # Teams packed two to an orbit of 6 (the column construction) stay apart by design;
        # spreading tables and judges costs some S2 over the bound of 360 (384 found).
        (60, 6, 6, 3, 390),
        # Seated from cyclic orbits, at the round-pair bound (every code over GF(4) gives 540).
        (40, 4, 6, 0, 480),
        (20, 2, 3, 0, 120),
        (57, 5, 6, 0, 280),
        (100, 10, 6, 0, 75),
    ],
)
def test_the_issue_cases_reach_the_meeting_bound_with_tables_and_judges_spread(
    n: int, tables: int, rounds: int, team_size: int, s2_at_most: int
) -> None:
    names = players(n)
    request = SeatingRequest(
        players=names,
        rounds=rounds,
        tables_per_round=(tables,) * rounds,
        team_of=teams_of(names, team_size),
        table_judges=rotated_judges(tables, rounds),
    )
    quality = evaluate_seating(request, generate_seating(request))
    assert quality.max_meet == max(quality.max_meet_bound, 2)
    assert quality.s2 <= s2_at_most
    assert quality.teammates_together == 0
    assert quality.sit_out_unfairness == 0
    assert quality.players_with_repeated_seats == 0
    assert quality.most_at_table is not None and quality.most_with_judge is not None
    assert quality.most_at_table[1] <= quality.most_at_table_bound + 1
    assert quality.most_with_judge[1] <= quality.most_with_judge_bound + 1


# Seed 1 once left a player 4 games with one judge (bound 2) while seed 0 was fine.
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_teams_of_three_at_three_tables_meet_no_judge_two_games_above_the_bound(
    seed: int,
) -> None:
    # Every team fills the three tables each round; three judges rotate over them. No player
    # plays more than one game above his bound at a table or with a judge, whatever the seed;
    # the pair that meets most then meets one game above its bound.
    names = players(30)
    request = SeatingRequest(
        players=names,
        rounds=6,
        tables_per_round=(3,) * 6,
        team_of=teams_of(names, 3),
        table_judges=rotated_judges(3, 6),
        seed=seed,
    )
    quality = evaluate_seating(request, generate_seating(request))
    assert quality.teammates_together == 0
    assert quality.most_at_table is not None and quality.most_with_judge is not None
    assert (quality.most_at_table_bound, quality.most_with_judge_bound) == (2, 2)
    assert quality.most_at_table[1] <= quality.most_at_table_bound + 1
    assert quality.most_with_judge[1] <= quality.most_with_judge_bound + 1
    assert quality.max_meet <= quality.max_meet_bound + 1


def test_most_games_at_one_table_and_with_one_judge_are_counted_beside_their_bounds() -> None:
    # Two rounds of one table with one judge, then a second judge: 2 games, bound ⌈2/1⌉ = 2 at
    # the table and ⌈2/2⌉ = 1 with a judge.
    names = players(10)
    request = SeatingRequest(
        players=names, rounds=2, tables_per_round=(1, 1), table_judges=(("a",), ("b",))
    )
    seating = Seating(rounds=((names,), (names,)), sit_outs=((), ()))
    quality = evaluate_seating(request, seating)
    assert quality.most_at_table is not None and quality.most_at_table[1] == 2
    assert quality.most_at_table_bound == 2
    assert quality.most_with_judge is not None and quality.most_with_judge[1] == 1
    assert quality.most_with_judge_bound == 1
    unjudged = evaluate_seating(
        SeatingRequest(players=names, rounds=2, tables_per_round=(1, 1)), seating
    )
    assert (unjudged.most_with_judge, unjudged.most_with_judge_bound) == (None, 0)


@pytest.mark.parametrize(
    ("n", "tables", "rounds", "team_size", "bounds"),
    [
        (60, 6, 6, 3, (2, 360)),
        (40, 4, 6, 0, (2, 480)),
        (20, 2, 3, 0, (3, 120)),
        (30, 3, 6, 3, (3, 540)),
    ],
)
def test_lower_bounds_of_the_issue_cases(
    n: int, tables: int, rounds: int, team_size: int, bounds: tuple[int, int]
) -> None:
    names = players(n)
    request = SeatingRequest(
        players=names,
        rounds=rounds,
        tables_per_round=(tables,) * rounds,
        team_of=teams_of(names, team_size),
    )
    found = seating_lower_bounds(request)
    assert (found.max_meet, found.s2) == bounds


def test_seat_exclusions_and_judge_conflicts_are_respected() -> None:
    names = players(30)
    judges = [("anna", "boris", "vera")] * 3
    forbidden = judge_conflict_placements(judges, [("anna", "p1"), ("vera", "p2")])
    request = SeatingRequest(
        players=names,
        rounds=3,
        seat_exclusions={"p3": frozenset(range(2, 11)), "p4": frozenset({1, 2, 3})},
        forbidden_tables=forbidden,
        swaps=SWAPS,
    )
    seating = generate_seating(request)
    for tables in seating.rounds:
        assert "p1" not in tables[0]
        assert "p2" not in tables[2]
        seat_of = {p: seat for table in tables for seat, p in enumerate(table, start=1)}
        assert seat_of["p3"] == 1
        assert seat_of["p4"] > 3


def test_keep_apart_pair_never_shares_a_table() -> None:
    request = SeatingRequest(
        players=players(20), rounds=3, keep_apart=frozenset({("p5", "p6")}), swaps=SWAPS
    )
    for tables in generate_seating(request).rounds:
        for table in tables:
            assert not {"p5", "p6"} <= set(table)


def test_a_team_larger_than_the_tables_is_refused_with_the_reason() -> None:
    names = players(20)
    request = SeatingRequest(players=names, rounds=2, team_of=teams_of(names, 3))
    with pytest.raises(SeatingError, match="team t1"):
        generate_seating(request)


def test_more_tables_than_players_is_refused() -> None:
    with pytest.raises(SeatingError, match="round 1"):
        generate_seating(SeatingRequest(players=players(25), rounds=1, tables_per_round=(3,)))


def test_a_player_excluded_from_every_seat_is_refused() -> None:
    request = SeatingRequest(
        players=players(10), rounds=1, seat_exclusions={"p1": frozenset(range(1, 11))}
    )
    with pytest.raises(SeatingError, match="p1"):
        generate_seating(request)


def test_re_seating_after_a_substitution_keeps_played_rounds_and_most_future_tables() -> None:
    names = players(40)
    first = generate_seating(SeatingRequest(players=names, rounds=5, swaps=100_000))
    # p40 leaves after round 2; p41 replaces him.
    substituted = (*names[:-1], "p41")
    again = generate_seating(
        SeatingRequest(
            players=substituted,
            rounds=5,
            played=first.rounds[:2],
            previous=first,
            swaps=100_000,
        )
    )
    assert again.rounds[:2] == first.rounds[:2]
    moved = 0
    for r in range(2, 5):
        before = {p: t for t, table in enumerate(first.rounds[r]) for p in table}
        after = {p: t for t, table in enumerate(again.rounds[r]) for p in table}
        moved += sum(1 for p in names[:-1] if before[p] != after[p])
    assert moved <= 12
    assert all("p40" not in table for tables in again.rounds[2:] for table in tables)


def test_re_seating_with_nothing_changed_keeps_every_table_and_seat() -> None:
    names = players(40)
    first = generate_seating(SeatingRequest(players=names, rounds=5, swaps=1_000_000))
    again = generate_seating(
        SeatingRequest(
            players=names, rounds=5, played=first.rounds[:2], previous=first, swaps=1_000_000
        )
    )
    assert again.rounds == first.rounds


@settings(deadline=None, max_examples=examples(60))
@given(
    st.lists(
        st.frozensets(st.integers(min_value=0, max_value=3), min_size=1, max_size=4),
        min_size=1,
        max_size=7,
    )
)
def test_the_busiest_place_bound_is_the_least_any_choice_reaches(games: list) -> None:
    bound = fewest_at_one_place(games)
    places = {place for options in games for place in options}
    assert bound >= -(-len(games) // len(places))
    # Exhaustively: no choice of one place a game does better, and some choice reaches it.
    loads = []
    for choice in product(*(sorted(options) for options in games)):
        loads.append(max(Counter(choice).values()))
    assert bound == min(loads)


def test_the_table_bound_is_the_players_own_for_the_chosen_groups() -> None:
    # A judge's relative may not sit at table 2: he plays both games at table 1, so his bound
    # there is 2 (not ⌈2 / 2⌉ = 1), and one judge judges him twice.
    names = players(20)
    request = SeatingRequest(
        players=names,
        rounds=2,
        tables_per_round=(2, 2),
        forbidden_tables=frozenset({("p1", 0, 1), ("p1", 1, 1)}),
        table_judges=(("a", "b"), ("a", "b")),
    )
    seating = Seating(rounds=((names[:10], names[10:]),) * 2, sit_outs=((), ()))
    quality = evaluate_seating(request, seating)
    assert quality.most_at_table is not None and quality.most_at_table[1] == 2
    # Everybody else could have had two tables; p2..p20 are one above their bound of 1.
    assert quality.most_at_table_bound == 1
    generated = evaluate_seating(request, generate_seating(replace(request, swaps=SWAPS)))
    assert generated.most_at_table is not None
    assert generated.most_at_table[1] <= generated.most_at_table_bound + 1
    assert generated.most_with_judge is not None
    assert generated.most_with_judge[1] <= generated.most_with_judge_bound + 1


def test_the_quality_report_renamed_names_the_same_players_the_new_way() -> None:
    # The organizer's preview names the report's players by participant id, the one crossing
    # from the solver's keys ("3" is participant 3); the figures stay as they were.
    names = tuple(str(n) for n in range(1, 21))
    request = SeatingRequest(
        players=names,
        rounds=4,
        tables_per_round=(2,) * 4,
        table_judges=rotated_judges(2, 4),
    )
    quality = evaluate_seating(request, generate_seating(request))
    renamed = quality.named_by(participant_id)
    assert quality.worst_pair is not None and quality.most_repeats is not None
    assert quality.most_at_table is not None and quality.most_with_judge is not None
    first, second, games = quality.worst_pair
    assert renamed.worst_pair == (int(first), int(second), games)
    assert renamed.most_repeats == (int(quality.most_repeats[0]), quality.most_repeats[1])
    assert renamed.most_at_table == (int(quality.most_at_table[0]), quality.most_at_table[1])
    assert renamed.most_with_judge == (
        int(quality.most_with_judge[0]),
        quality.most_with_judge[1],
    )

    def figures(report: SeatingQuality[Any]) -> SeatingQuality[Any]:
        return replace(
            report, worst_pair=None, most_repeats=None, most_at_table=None, most_with_judge=None
        )

    assert figures(renamed) == figures(quality)
