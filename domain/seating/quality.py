"""The quality report of a seating: the figures the organizer's preview shows beside bounds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

from domain.player_keys import PlayerKey
from domain.recent import Recent
from domain.seating.bounds import SeatingBounds, lower_bounds, place_bounds
from domain.seating.request import (
    TABLE_SIZE,
    Seating,
    SeatingRequest,
    all_players,
    apart_pairs,
    hard_violations,
)
from domain.seating.seats import SEAT_ZONE, ZONE_SHARE

# How the report names a player: the solver's `PlayerKey`, or the participant's id once the
# organizer's preview has crossed over (`SeatingQuality.named_by`).
Player = TypeVar("Player")
Named = TypeVar("Named")


@dataclass(frozen=True)
class SeatingQuality(Generic[Player]):
    """How good a seating is, criterion by criterion, in the regulations' order."""

    hard_violations: tuple[str, ...]
    teammates_together: int
    sit_out_unfairness: int
    games_min: int
    games_max: int
    max_meet: int
    max_meet_bound: int
    s2: int
    s2_bound: int
    worst_pair: tuple[Player, Player, int] | None
    most_repeats: tuple[Player, int] | None
    players_with_repeated_seats: int
    seat_zone_unbalanced: int
    table_repeats: int
    table_repeats_bound: int
    # The player furthest above his own bound at one table, and with one judge (None without
    # judges): his games there, and his bound, the least any numbering of the stage's tables
    # can give him (`place_bounds`: at least ⌈games / tables⌉, ⌈games / judges⌉).
    most_at_table: tuple[Player, int] | None
    most_at_table_bound: int
    most_with_judge: tuple[Player, int] | None
    most_with_judge_bound: int
    team_pair_meetings_min: int | None
    team_pair_meetings_max: int | None

    def named_by(self, name: Callable[[Player], Named]) -> SeatingQuality[Named]:
        """The same report with every player it names renamed by `name`."""

        def one(found: tuple[Player, int] | None) -> tuple[Named, int] | None:
            return None if found is None else (name(found[0]), found[1])

        pair = self.worst_pair
        renamed: SeatingQuality[Named] = SeatingQuality(
            **{
                **vars(self),
                "worst_pair": None if pair is None else (name(pair[0]), name(pair[1]), pair[2]),
                "most_repeats": one(self.most_repeats),
                "most_at_table": one(self.most_at_table),
                "most_with_judge": one(self.most_with_judge),
            }
        )
        return renamed


def seating_lower_bounds(request: SeatingRequest) -> SeatingBounds:
    """Lower bounds on `max_meet` and S2 for the request: no seating can do better."""
    names = all_players(request)
    index = {name: i for i, name in enumerate(names)}
    tables = [
        len(request.played[r]) if r < len(request.played) else request.tables_in_round(r)
        for r in range(request.rounds)
    ]
    played = [[[index[p] for p in table] for table in tables_] for tables_ in request.played]
    apart_counts = [0] * len(names)
    for pair in apart_pairs(request):
        for player in pair:
            if player in index:
                apart_counts[index[player]] += 1
    return lower_bounds(len(names), tables, played, apart_counts)


def evaluate_seating(request: SeatingRequest, seating: Seating) -> SeatingQuality[PlayerKey]:
    """Measure a seating against every criterion of the issue and the lower bounds (the few
    measured last are given again for equal inputs: `domain.recent`)."""
    return _recent((request, seating))


@dataclass
class _Tally:
    """What every table of every round adds up to: meetings of players and of teams, games,
    seats and visits of every player."""

    meetings: dict[tuple[str, str], int]
    games: dict[str, int]
    seats: dict[str, list[int]]
    visits: dict[tuple[str, int], int]
    team_meetings: dict[tuple[str, str], int]
    teammates_together: int


def _tally(request: SeatingRequest, seating: Seating) -> _Tally:
    team_of = request.team_of
    tally = _Tally({}, dict.fromkeys(request.players, 0), {}, {}, {}, 0)
    meetings, games, team_meetings = tally.meetings, tally.games, tally.team_meetings
    for tables in seating.rounds:
        for t, table in enumerate(tables):
            for seat, player in enumerate(table):
                games[player] = games.get(player, 0) + 1
                tally.seats.setdefault(player, []).append(seat)
                tally.visits[player, t] = tally.visits.get((player, t), 0) + 1
            for a, b in combinations(sorted(table), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
                ta, tb = team_of.get(a), team_of.get(b)
                if ta is not None and ta == tb:
                    tally.teammates_together += 1
                elif ta is not None and tb is not None:
                    key = (min(ta, tb), max(ta, tb))
                    team_meetings[key] = team_meetings.get(key, 0) + 1
    return tally


def _most_met(
    request: SeatingRequest, meetings: dict[tuple[str, str], int]
) -> tuple[tuple[str, str, int] | None, tuple[str, int] | None]:
    """The pair that meets most (ties by ids), and the player with most repeated meetings."""
    worst_pair = None
    if meetings:
        (a, b), most = max(meetings.items(), key=lambda item: (item[1], item[0]))
        worst_pair = (a, b, most)
    repeats = dict.fromkeys(request.players, 0)
    for (a, b), m in meetings.items():
        for player in (a, b):
            if player in repeats:
                repeats[player] += max(0, m - 1)
    return worst_pair, max(repeats.items(), key=lambda item: (item[1], item[0]), default=None)


def _evaluated(inputs: tuple[SeatingRequest, Seating]) -> SeatingQuality[PlayerKey]:
    request, seating = inputs
    bounds = seating_lower_bounds(request)
    tally = _tally(request, seating)
    meetings, games, seats, visits = tally.meetings, tally.games, tally.seats, tally.visits
    counts = [games[p] for p in request.players]
    worst_pair, most_repeats = _most_met(request, meetings)
    table_count = max((len(tables) for tables in seating.rounds), default=0)
    played = len(request.played)
    table_bounds, judge_bounds = place_bounds(
        [[p for table in tables for p in table] for tables in seating.rounds],
        [len(tables) for tables in seating.rounds],
        {
            (p, r): t
            for r, tables in enumerate(seating.rounds[:played])
            for t, table in enumerate(tables)
            for p in table
        },
        request.forbidden_tables,
        _schedule(request, seating),
    )
    at_table = _worst(visits, table_bounds)
    with_judge = _worst(_judge_visits(request, seating), judge_bounds)
    teams = sorted({team for p in request.players if (team := request.team_of.get(p)) is not None})
    team_pairs = [tally.team_meetings.get(pair, 0) for pair in combinations(teams, 2)]
    return SeatingQuality(
        hard_violations=tuple(hard_violations(request, seating)),
        teammates_together=tally.teammates_together,
        sit_out_unfairness=_sit_out_unfairness(request, seating),
        games_min=min(counts, default=0),
        games_max=max(counts, default=0),
        max_meet=max(meetings.values(), default=0),
        max_meet_bound=bounds.max_meet,
        s2=sum(m * (m - 1) // 2 for m in meetings.values()),
        s2_bound=bounds.s2,
        worst_pair=worst_pair,
        most_repeats=most_repeats,
        players_with_repeated_seats=sum(
            1
            for p in request.players
            if len(seats.get(p, [])) <= TABLE_SIZE
            and len(set(seats.get(p, []))) < len(seats.get(p, []))
        ),
        seat_zone_unbalanced=sum(
            1 for p in request.players if not _zones_balanced(seats.get(p, []))
        ),
        table_repeats=sum(v - 1 for v in visits.values() if v > 1),
        table_repeats_bound=sum(max(0, games[p] - table_count) for p in request.players),
        most_at_table=None if at_table is None else at_table[:2],
        most_at_table_bound=0 if at_table is None else at_table[2],
        most_with_judge=None if with_judge is None else with_judge[:2],
        most_with_judge_bound=0 if with_judge is None else with_judge[2],
        team_pair_meetings_min=min(team_pairs, default=None),
        team_pair_meetings_max=max(team_pairs, default=None),
    )


# A stage preview and each round's publication measure the same seating (a swap changes it).
_recent = Recent(_evaluated, size=4)


def _schedule(request: SeatingRequest, seating: Seating) -> tuple[tuple[str | None, ...], ...]:
    """The judges the seating was made for: its own schedule when it chose one."""
    return seating.table_judges or request.table_judges


def _judge_visits(request: SeatingRequest, seating: Seating) -> dict[tuple[str, str], int]:
    """Games of every player with every judge (tables without a judge count for nobody)."""
    visits: dict[tuple[str, str], int] = {}
    schedule = _schedule(request, seating)
    for r, tables in enumerate(seating.rounds):
        judges = schedule[r] if r < len(schedule) else ()
        for t, table in enumerate(tables):
            judge = judges[t] if t < len(judges) else None
            if judge is not None:
                for player in table:
                    visits[player, judge] = visits.get((player, judge), 0) + 1
    return visits


def _worst(
    visits: dict[tuple[str, str], int] | dict[tuple[str, int], int], bounds: dict[str, int]
) -> tuple[str, int, int] | None:
    """(player, games at his busiest place, his bound) of the player furthest above his bound,
    then with the most games there, ties by id; None without visits."""
    most: dict[str, int] = {}
    for (player, _place), count in visits.items():
        most[player] = max(most.get(player, 0), count)
    if not most:
        return None
    player = max(most, key=lambda p: (most[p] - bounds.get(p, 0), most[p], p))
    return player, most[player], bounds.get(player, 0)


def _sit_out_unfairness(request: SeatingRequest, seating: Seating) -> int:
    """Rounds after which the players' sit-out counts differ by more than one."""
    sat_out = dict.fromkeys(request.players, 0)
    unfair = 0
    for tables in seating.rounds:
        playing = {p for table in tables for p in table}
        for player in request.players:
            if player not in playing:
                sat_out[player] += 1
        if sat_out and max(sat_out.values()) - min(sat_out.values()) > 1:
            unfair += 1
    return unfair


def _zones_balanced(seats: list[int]) -> bool:
    """Whether early/middle/late counts are as close to 3:4:3 as the number of games allows."""
    games = len(seats)
    zones = [0, 0, 0]
    for seat in seats:
        zones[SEAT_ZONE[seat]] += 1
    return _zone_gap(zones, games) == min(
        _zone_gap([early, middle, games - early - middle], games)
        for early in range(games + 1)
        for middle in range(games + 1 - early)
    )


def _zone_gap(zones: list[int], games: int) -> int:
    return sum(
        (10 * count - share * games) ** 2 for count, share in zip(zones, ZONE_SHARE, strict=True)
    )
