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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from domain.seating.bounds import SeatingBounds, lower_bounds
from domain.seating.codes import code_tables
from domain.seating.orbits import ORBITS, orbit_tables
from domain.seating.seats import SEATS, assign_seats
from domain.seating.swap_search import TableProblem, assign_tables
from domain.seating.table_numbers import NumberingProblem, numbered_with_far_over

TABLE_SIZE = SEATS
# Swaps weighed by the table search when the request does not say: enough for the targets on
# up to 100 players and 10 rounds within about 3 s of one core.
DEFAULT_SWAPS = 400_000_000

Table = tuple[str, ...]
RoundTables = tuple[Table, ...]


class SeatingError(ValueError):
    """The hard constraints of a seating cannot be met; the message says which and why."""


@dataclass(frozen=True)
class Seating:
    """Tables of every round (each 10 player ids in seat order) and who sits out each round."""

    rounds: tuple[RoundTables, ...]
    sit_outs: tuple[tuple[str, ...], ...]
    seed: int = 0


@dataclass(frozen=True)
class SeatingRequest:
    """Everything the generator needs for one stage.

    `tables_per_round` may be empty: every round then has as many full tables as the players
    fill. `played` holds the tables of rounds already played (they stay as they are and may
    name players who left). `previous` is an earlier seating of this stage whose future rounds
    the generator stays close to. `forbidden_tables` holds (player, round, table) placements
    that are not allowed, e.g. a judge's relative at his table (see `judge_conflict_placements`).
    `seat_exclusions` maps a player to seat numbers (1–10) he may not take. `table_judges[r][t]`
    names the judge of table t in round r (None for none; empty when not known): table numbers
    then spread every player's games over the judges as well as over the tables. `swaps`
    bounds the work of the search (deterministic for a seed); the caller's clock is only a
    safety cap.
    """

    players: tuple[str, ...]
    rounds: int
    tables_per_round: tuple[int, ...] = ()
    team_of: Mapping[str, str] = field(default_factory=dict)
    keep_apart: frozenset[tuple[str, str]] = frozenset()
    seat_exclusions: Mapping[str, frozenset[int]] = field(default_factory=dict)
    forbidden_tables: frozenset[tuple[str, int, int]] = frozenset()
    table_judges: tuple[tuple[str | None, ...], ...] = ()
    played: tuple[RoundTables, ...] = ()
    previous: Seating | None = None
    seed: int = 0
    swaps: int = DEFAULT_SWAPS
    time_limit: float | None = None

    def tables_in_round(self, round_index: int) -> int:
        """Number of tables of a round (0-based)."""
        if self.tables_per_round:
            return self.tables_per_round[round_index]
        return len(self.players) // TABLE_SIZE


def judge_conflict_placements(
    table_judges: Sequence[Sequence[str]], conflicts: Iterable[tuple[str, str]]
) -> frozenset[tuple[str, int, int]]:
    """Forbidden (player, round, table) placements from each round's judges and conflicts.

    `table_judges[r][t]` is the judge of table t in round r; `conflicts` holds (judge, player)
    pairs, e.g. a judge and his relative, who must not meet at that judge's table.
    """
    players_of_judge: dict[str, list[str]] = {}
    for judge, player in conflicts:
        players_of_judge.setdefault(judge, []).append(player)
    return frozenset(
        (player, r, t)
        for r, judges in enumerate(table_judges)
        for t, judge in enumerate(judges)
        for player in players_of_judge.get(judge, ())
    )


def all_players(request: SeatingRequest) -> tuple[str, ...]:
    """The stage's players followed by players who only appear in played rounds."""
    known = set(request.players)
    extra = [p for tables in request.played for table in tables for p in table if p not in known]
    return request.players + tuple(dict.fromkeys(extra))


def apart_pairs(request: SeatingRequest) -> set[frozenset[str]]:
    """Pairs that must never share a table: teammates and the keep-apart pairs."""
    by_team: dict[str, list[str]] = {}
    for player in request.players:
        team = request.team_of.get(player)
        if team is not None:
            by_team.setdefault(team, []).append(player)
    pairs = {frozenset(pair) for members in by_team.values() for pair in combinations(members, 2)}
    pairs.update(frozenset(pair) for pair in request.keep_apart)
    return pairs


def hard_violations(request: SeatingRequest, seating: Seating) -> list[str]:
    """Every broken hard constraint of a seating, in words; empty when the seating is valid."""
    problems = []
    if len(seating.rounds) != request.rounds:
        problems.append(f"{len(seating.rounds)} rounds seated, {request.rounds} asked")
    apart = apart_pairs(request)
    known = set(all_players(request))
    for r, tables in enumerate(seating.rounds):
        if r < len(request.played):
            continue
        seen: set[str] = set()
        if len(tables) != request.tables_in_round(r):
            problems.append(
                f"round {r + 1}: {len(tables)} tables, not {request.tables_in_round(r)}"
            )
        for t, table in enumerate(tables):
            where = f"round {r + 1}, table {t + 1}"
            if len(table) != TABLE_SIZE:
                problems.append(f"{where}: {len(table)} players, not {TABLE_SIZE}")
            for seat, player in enumerate(table, start=1):
                if player not in known:
                    problems.append(f"{where}: unknown player {player}")
                if player in seen:
                    problems.append(f"round {r + 1}: {player} seated twice")
                seen.add(player)
                if seat in request.seat_exclusions.get(player, frozenset()):
                    problems.append(f"{where}: {player} may not take seat {seat}")
                if (player, r, t) in request.forbidden_tables:
                    problems.append(f"{where}: {player} may not play at this table")
            for a, b in combinations(table, 2):
                if frozenset((a, b)) in apart:
                    problems.append(f"{where}: {a} and {b} must not share a table")
    return problems


def generate_seating(request: SeatingRequest, clock: Callable[[], float] | None = None) -> Seating:
    """Seat a stage as well as the search finds within `request.swaps` swaps.

    `clock` returns seconds (the caller's CPU clock); with `request.time_limit` it stops the
    search early as a safety cap. Raises `SeatingError` if a hard constraint cannot be met.
    """
    _check_request(request)
    rng = random.Random(request.seed)
    sit_outs = sit_out_schedule(request, rng)
    names = all_players(request)
    index = {name: i for i, name in enumerate(names)}
    problem = _table_problem(request, names, index, sit_outs)
    deadline = None
    if clock is not None and request.time_limit is not None:
        deadline = clock() + request.time_limit

    def out_of_time() -> bool:
        return deadline is not None and clock is not None and clock() > deadline

    rounds = assign_tables(problem, rng, out_of_time)
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
    )
    problems = hard_violations(request, seating)
    if problems:
        raise SeatingError("no seating meets the hard constraints: " + "; ".join(problems[:5]))
    return seating


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


def sit_out_schedule(request: SeatingRequest, rng: random.Random) -> list[list[str]]:
    """Who sits out each round: a rotation, so sit-out counts never differ by more than one.

    Played rounds keep their sit-outs (whoever of the players did not play). A free round seats
    out those who sat out least so far, the previous seating's choice first, then a seeded
    order fixed for the whole stage. A team with more playing members than the round has
    tables sends its extra members out instead of the last chosen.
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


def _table_problem(
    request: SeatingRequest,
    names: tuple[str, ...],
    index: dict[str, int],
    sit_outs: list[list[str]],
) -> TableProblem:
    """The request in player indices, for the table search."""
    n = len(names)
    played = len(request.played)
    playing = []
    for r in range(request.rounds):
        if r < played:
            playing.append(tuple(index[p] for table in request.played[r] for p in table))
        else:
            out = set(sit_outs[r])
            playing.append(tuple(index[p] for p in request.players if p not in out))
    tables = tuple(
        len(request.played[r]) if r < played else request.tables_in_round(r)
        for r in range(request.rounds)
    )
    fixed_index = [
        tuple(tuple(index[p] for p in table) for table in tables_of_round)
        for tables_of_round in request.played
    ]
    apart = {tuple(sorted((index[a], index[b]))) for a, b in map(tuple, apart_pairs(request))}
    # Two players who may take only the same single seat cannot share a table either.
    single_seat: dict[int, list[str]] = {}
    for player, seats in request.seat_exclusions.items():
        allowed = set(range(1, SEATS + 1)) - set(seats)
        if len(allowed) == 1 and player in index:
            single_seat.setdefault(allowed.pop(), []).append(player)
    for players in single_seat.values():
        apart.update(tuple(sorted((index[a], index[b]))) for a, b in combinations(players, 2))
    apart_counts = [0] * n
    for a, b in apart:
        apart_counts[a] += 1
        apart_counts[b] += 1
    fixed_tables = [[list(t) for t in playing_tables] for playing_tables in fixed_index]
    hint = []
    for r in range(request.rounds):
        row = [-1] * n
        previous = request.previous
        if previous is not None and r >= played and r < len(previous.rounds):
            for t, table in enumerate(previous.rounds[r]):
                for p in table:
                    if p in index and t < tables[r]:
                        row[index[p]] = t
        hint.append(tuple(row))
    bounds = lower_bounds(n, tables, fixed_tables, apart_counts)
    start = None
    teams = _team_indices(request, index)
    team_pairs = {(a, b) for members in teams for a, b in combinations(sorted(members), 2)}
    if (
        not played
        and apart <= team_pairs
        and request.previous is None
        and len(set(tables)) == 1
        and len(playing[0]) == n
    ):
        start = _structured_start(
            n, tables[0], request.rounds, bounds, request.seed, teams, _judge_indices(request)
        )
    return TableProblem(
        player_count=n,
        playing=tuple(playing),
        tables=tables,
        fixed=tuple(fixed_index) + (None,) * (request.rounds - played),
        apart=frozenset((a, b) for a, b in apart),
        forbidden=frozenset((index[p], r, t) for p, r, t in request.forbidden_tables if p in index),
        hint=tuple(hint),
        judges=_judge_indices(request),
        meet_target=max(2, bounds.max_meet),
        swaps=request.swaps,
        start=start,
        s2_bound=bounds.s2,
    )


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


def _orbit_slots(
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


def _structured_start(
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
    With teams only orbits serve, each team within one orbit (`_orbit_slots`), if they fit.
    """
    target = max(2, bounds.max_meet)
    slots = _orbit_slots(player_count, tables, teams) if teams else None
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
