"""Seating of a stage: who sits out, who plays at which table, in which seat, every round.

The regulations ask for seating "by computer selection" in which each team meets different
players and teammates never share a table. The generator honours, in this order: the hard
constraints (tables of exactly 10, teammates and keep-apart pairs never at one table, seat
exclusions, judge conflicts), fair sit-outs in rotation, as few repeated meetings as possible
(the largest meeting count first, then S2 = Σ over pairs of C(meetings, 2)), distinct seats
spread 3:4:3 over early, middle and late seats, few returns to the same table. How often two
teams meet is measured (`SeatingQuality`) but not searched for: among seatings of equal S2 the
search finds almost no swap that keeps S2 and evens the teams out. Rounds and tables are 0-based
indices here; seat numbers are 1–10.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

from domain.seating.bounds import lower_bounds
from domain.seating.judge_schedule import choosable, chosen_judges
from domain.seating.request import (
    TABLE_SIZE,
    Seating,
    SeatingError,
    SeatingRequest,
    all_players,
    apart_pairs,
    hard_violations,
)
from domain.seating.seats import SEATS, assign_seats
from domain.seating.sit_out_orbits import sit_out_orbit_tables
from domain.seating.structured import structured_start
from domain.seating.swap_search import assign_tables
from domain.seating.table_problem import TableProblem, meeting_figures


def generate_seating(request: SeatingRequest, clock: Callable[[], float] | None = None) -> Seating:
    """Seat a stage as well as the search finds within `request.swaps` swaps.

    `clock` returns seconds (the caller's CPU clock); with `request.time_limit` it stops the
    search early as a safety cap. Raises `SeatingError` if a hard constraint cannot be met.
    """
    _check_request(request)
    rng = random.Random(request.seed)
    names = all_players(request)
    index = {name: i for i, name in enumerate(names)}
    design = _sit_out_design(request, index)
    if design:
        sit_outs = [[names[p] for p, t in enumerate(row) if t < 0] for row in design]
    else:
        sit_outs = sit_out_schedule(request, rng)
    choosing = _choosing_judges(request)
    problem = _table_problem(request, names, index, sit_outs, () if choosing else None, design)
    deadline = None
    if clock is not None and request.time_limit is not None:
        deadline = clock() + request.time_limit

    def out_of_time() -> bool:
        return deadline is not None and clock is not None and clock() > deadline

    rounds = assign_tables(problem, rng, out_of_time)
    table_judges = (
        chosen_judges(rounds, request.table_judges, len(names), rng)
        if choosing
        else request.table_judges
    )
    games = [0] * len(names)
    for tables in rounds:
        for table in tables:
            for p in table:
                games[p] += 1
    excluded = [
        frozenset(seat - 1 for seat in request.seat_exclusions.get(name, frozenset()))
        for name in names
    ]
    seat_hint = [_previous_seats(request, r, index) for r in range(request.rounds)]
    seated = assign_seats(rounds, len(request.played), games, excluded, seat_hint)
    seating = Seating(
        rounds=tuple(
            tuple(tuple(names[p] for p in table) for table in tables) for tables in seated
        ),
        sit_outs=tuple(tuple(names_out) for names_out in sit_outs),
        seed=request.seed,
        table_judges=table_judges,
    )
    problems = hard_violations(request, seating)
    if problems:
        raise SeatingError("no seating meets the hard constraints: " + "; ".join(problems[:5]))
    return seating


def _choosing_judges(request: SeatingRequest) -> bool:
    """Whether the generator chooses the judges' schedule (`SeatingRequest.choose_judges`).

    Played rounds keep their judges and a judge conflict forbids a table for his judge's sake,
    so either keeps the schedule given.
    """
    tables = [request.tables_in_round(r) for r in range(request.rounds)]
    return (
        request.choose_judges
        and not request.played
        and not request.forbidden_tables
        and choosable(request.table_judges, tables)
    )


def _check_request(request: SeatingRequest) -> None:
    """Reject requests whose hard constraints are impossible on their face."""
    if len(set(request.players)) != len(request.players):
        raise SeatingError("a player is listed twice")
    if request.rounds < len(request.played):
        raise SeatingError(f"{len(request.played)} rounds played but only {request.rounds} asked")
    if request.tables_per_round and len(request.tables_per_round) != request.rounds:
        raise SeatingError(
            f"tables given for {len(request.tables_per_round)} rounds, not {request.rounds}"
        )
    for r in range(len(request.played), request.rounds):
        seats = TABLE_SIZE * request.tables_in_round(r)
        if seats > len(request.players) or request.tables_in_round(r) < 1:
            raise SeatingError(
                f"round {r + 1}: {request.tables_in_round(r)} tables need {seats} players, "
                f"{len(request.players)} registered"
            )
    for player, excluded in request.seat_exclusions.items():
        if len(set(excluded) & set(range(1, SEATS + 1))) >= SEATS:
            raise SeatingError(f"{player} is excluded from every seat")
    for round_index, tables in enumerate(request.played):
        for t, table in enumerate(tables):
            if len(table) != TABLE_SIZE:
                raise SeatingError(
                    f"played round {round_index + 1}, table {t + 1} has {len(table)} players"
                )


def _sit_out_design(request: SeatingRequest, index: Mapping[str, int]) -> list[list[int]]:
    """Every player's table in every round (-1: he sits out) from cyclic orbits with whole
    orbits sitting out (`sit_out_orbits`), or [] when the stage is not one they fit: the same
    tables every round filled by whole orbits, nothing played or kept from a previous seating,
    nobody kept apart (teammates included). The orbits' rotation is then the sit-out schedule.
    """
    tables = {request.tables_in_round(r) for r in range(request.rounds)}
    if (
        request.played
        or request.previous is not None
        or len(tables) != 1
        or _apart_indices(request, index)
    ):
        return []
    n = len(request.players)
    bounds = lower_bounds(n, [min(tables)] * request.rounds, [], [0] * n)
    return sit_out_orbit_tables(
        n, min(tables), request.rounds, max(2, bounds.max_meet), random.Random(request.seed)
    )


def sit_out_schedule(request: SeatingRequest, rng: random.Random) -> list[list[str]]:
    """Who sits out each round: a rotation, so sit-out counts never differ by more than one.

    Played rounds keep their sit-outs (whoever of the players did not play). A free round seats
    out those who sat out least so far, the previous seating's choice first, then a seeded
    order, drawn again whenever everyone has sat out equally often: a second cycle of sit-outs
    then does not repeat the first one's groups (48 players at 4 tables over 9 rounds, before
    whole orbits sat out there: S2 691-696 on seeds 1-3, 697-703 with the groups repeated).
    Stages that orbits fit take the orbits' rotation instead (`_sit_out_design`). A team with
    more playing members than the round has tables sends its extra members out instead of the
    last chosen.
    """
    order = list(request.players)
    rng.shuffle(order)
    rank = {player: k for k, player in enumerate(order)}
    sat_out = dict.fromkeys(request.players, 0)
    schedule: list[list[str]] = []
    for r in range(request.rounds):
        if r < len(request.played):
            playing = {p for table in request.played[r] for p in table}
            out = [p for p in request.players if p not in playing]
        else:
            previous = _previous_sit_outs(request, r)
            count = len(request.players) - TABLE_SIZE * request.tables_in_round(r)
            if r and len(set(sat_out.values())) == 1:
                rng.shuffle(order)
                rank = {player: k for k, player in enumerate(order)}
            queue = sorted(request.players, key=lambda p: (sat_out[p], p not in previous, rank[p]))
            out = _respect_team_sizes(request, r, queue, count)
        for player in out:
            sat_out[player] += 1
        schedule.append(out)
    return schedule


def _respect_team_sizes(request: SeatingRequest, r: int, queue: list[str], count: int) -> list[str]:
    """The first `count` of the queue, but no team plays more members than there are tables."""
    tables = request.tables_in_round(r)
    out = queue[:count]
    playing: dict[str, list[str]] = {}
    for player in queue[count:]:
        team = request.team_of.get(player)
        if team is not None:
            playing.setdefault(team, []).append(player)
    for team in sorted(playing):
        members = playing[team]
        while len(members) > tables:
            replaced = next(
                (
                    p
                    for p in reversed(out)
                    if len(playing.get(request.team_of.get(p, ""), ())) < tables
                ),
                None,
            )
            if replaced is None:
                raise SeatingError(
                    f"round {r + 1}: team {team} has more players than the {tables} tables"
                )
            out.remove(replaced)
            out.append(members.pop(0))
            replaced_team = request.team_of.get(replaced)
            if replaced_team is not None:
                playing.setdefault(replaced_team, []).append(replaced)
    return out


def _previous_sit_outs(request: SeatingRequest, r: int) -> set[str]:
    previous = request.previous
    if previous is None or r >= len(previous.sit_outs):
        return set()
    return set(previous.sit_outs[r])


def _previous_seats(request: SeatingRequest, r: int, index: dict[str, int]) -> dict[int, int]:
    """Seat (0-based) the previous seating gave each player in round r, by player index."""
    previous = request.previous
    if previous is None or r < len(request.played) or r >= len(previous.rounds):
        return {}
    return {
        index[p]: seat for table in previous.rounds[r] for seat, p in enumerate(table) if p in index
    }


def _playing(
    request: SeatingRequest, index: dict[str, int], sit_outs: list[list[str]]
) -> list[tuple[int, ...]]:
    """Each round's players in indices: those who played a played round, else all but the
    round's sit-outs."""
    played, out = request.played, [set(names) for names in sit_outs]
    return [
        tuple(index[p] for table in played[r] for p in table)
        if r < len(played)
        else tuple(index[p] for p in request.players if p not in out[r])
        for r in range(request.rounds)
    ]


def _table_problem(
    request: SeatingRequest,
    names: tuple[str, ...],
    index: dict[str, int],
    sit_outs: list[list[str]],
    judges: tuple[tuple[int, ...], ...] | None = None,
    design: Sequence[Sequence[int]] = (),
) -> TableProblem:
    """The request in player indices, for the table search; `judges` in indices when they are
    not the request's (none: the judges are chosen after the search); `design` the start of a
    stage with whole orbits sitting out (`_sit_out_design`)."""
    n = len(names)
    played = len(request.played)
    playing = _playing(request, index, sit_outs)
    tables = tuple(
        len(request.played[r]) if r < played else request.tables_in_round(r)
        for r in range(request.rounds)
    )
    fixed_index = [
        tuple(tuple(index[p] for p in table) for table in tables_of_round)
        for tables_of_round in request.played
    ]
    apart = _apart_indices(request, index)
    apart_counts = [0] * n
    for a, b in apart:
        apart_counts[a] += 1
        apart_counts[b] += 1
    fixed_tables = [[list(t) for t in playing_tables] for playing_tables in fixed_index]
    bounds = lower_bounds(n, tables, fixed_tables, apart_counts)
    judges = _judge_indices(request) if judges is None else judges
    start = tuple(tuple(row) for row in design) if design else None
    teams = _team_indices(request, index)
    team_pairs = {(a, b) for members in teams for a, b in combinations(sorted(members), 2)}
    if (
        not played
        and apart <= team_pairs
        and request.previous is None
        and len(set(tables)) == 1
        and len(playing[0]) == n
    ):
        start = structured_start(n, tables[0], request.rounds, bounds, request.seed, teams, judges)
    return TableProblem(
        player_count=n,
        playing=tuple(playing),
        tables=tables,
        fixed=tuple(fixed_index) + (None,) * (request.rounds - played),
        apart=frozenset((a, b) for a, b in apart),
        forbidden=frozenset((index[p], r, t) for p, r, t in request.forbidden_tables if p in index),
        hint=_hint_rows(request, index, tables),
        judges=judges,
        meet_target=max(2, bounds.max_meet, _most_meetings(design)),
        swaps=request.swaps,
        start=start,
        s2_bound=bounds.s2,
    )


def _most_meetings(design: Sequence[Sequence[int]]) -> int:
    """The most games two players share in a design (tables of every round, -1 sitting out):
    the search keeps the pairs within what the design reached, not below it at any cost."""
    rounds = [
        [[p for p, t in enumerate(row) if t == table] for table in set(row) - {-1}]
        for row in design
    ]
    return meeting_figures(rounds)[0] if rounds else 0


def _apart_indices(request: SeatingRequest, index: Mapping[str, int]) -> set[tuple[int, int]]:
    """Pairs (i < j) that must never share a table: `apart_pairs`, and two players who may
    take only the same single seat."""
    apart = {tuple(sorted((index[a], index[b]))) for a, b in map(tuple, apart_pairs(request))}
    single_seat: dict[int, list[str]] = {}
    for player, seats in request.seat_exclusions.items():
        allowed = set(range(1, SEATS + 1)) - set(seats)
        if len(allowed) == 1 and player in index:
            single_seat.setdefault(allowed.pop(), []).append(player)
    for players in single_seat.values():
        apart.update(tuple(sorted((index[a], index[b]))) for a, b in combinations(players, 2))
    return {(a, b) for a, b in apart}


def _hint_rows(
    request: SeatingRequest, index: Mapping[str, int], tables: Sequence[int]
) -> tuple[tuple[int, ...], ...]:
    """Every round's table of each player in the previous seating (-1: none, or played)."""
    hint = []
    previous = request.previous
    for r in range(request.rounds):
        row = [-1] * len(index)
        if previous is not None and r >= len(request.played) and r < len(previous.rounds):
            for t, table in enumerate(previous.rounds[r]):
                for p in table:
                    if p in index and t < tables[r]:
                        row[index[p]] = t
        hint.append(tuple(row))
    return tuple(hint)


def _judge_indices(request: SeatingRequest) -> tuple[tuple[int, ...], ...]:
    """`request.table_judges` with judges as indices 0, 1, ... in order of appearance, -1 none."""
    index: dict[str, int] = {}
    return tuple(
        tuple(-1 if judge is None else index.setdefault(judge, len(index)) for judge in judges)
        for judges in request.table_judges
    )


def _team_indices(request: SeatingRequest, index: Mapping[str, int]) -> list[list[int]]:
    """The members of every team of two or more, as player indices."""
    by_team: dict[str, list[int]] = {}
    for player in request.players:
        team = request.team_of.get(player)
        if team is not None:
            by_team.setdefault(team, []).append(index[player])
    return [members for _team, members in sorted(by_team.items()) if len(members) > 1]
