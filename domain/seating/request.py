"""A stage's seating request, the seating, and its hard constraints checked: what the generator
(`generator.generate_seating`), the quality report and the bot's screens share.

This module imports no numpy (the generator's search does): the bot imports it at start and
the search only when it first seats a stage, so an idle bot does not hold numpy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from domain.player_keys import PlayerKey
from domain.seating.seats import SEATS

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
    # The judge of each table of each round the seating was made for: the request's, or the
    # schedule chosen with it (`SeatingRequest.choose_judges`); empty when not known.
    table_judges: tuple[tuple[str | None, ...], ...] = ()


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
    then spread every player's games over the judges as well as over the tables. With
    `choose_judges` the generator may move each round's judges between its tables (when every
    round names the same judges and nothing is played or forbidden yet, `judge_schedule`): the
    schedule it chooses is `Seating.table_judges`. `swaps`
    bounds the work of the search (deterministic for a seed); the caller's clock is only a
    safety cap.
    """

    players: tuple[PlayerKey, ...]
    rounds: int
    tables_per_round: tuple[int, ...] = ()
    team_of: Mapping[str, str] = field(default_factory=dict)
    keep_apart: frozenset[tuple[str, str]] = frozenset()
    seat_exclusions: Mapping[str, frozenset[int]] = field(default_factory=dict)
    forbidden_tables: frozenset[tuple[str, int, int]] = frozenset()
    table_judges: tuple[tuple[str | None, ...], ...] = ()
    played: tuple[RoundTables, ...] = ()
    previous: Seating | None = None
    choose_judges: bool = False
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
