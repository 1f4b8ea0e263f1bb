"""Standings: who has how many points, and in which order, by the regulation's rules.

Players (and, in a team tournament, teams) rank by the stage they reached first, then by the
regulation's tie-breaker chain over the points that stage counts (`carry_points`). A team's
figures are its members' sums. A tie that survives the chain is settled by the recorded lot
that covers it (a `SettlesTies`); otherwise the tied rows share their place and say so. Each
stage with a cut gets a `CutReport` naming who advances and whether the cut line falls inside a
tie only a lot settles.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from decimal import Decimal
from typing import Literal

from domain.cards import Role
from domain.lot_draw import LotDraw, SettlesTies
from domain.player_keys import PlayerKey
from domain.protocol import Protocol
from domain.recent import Recent
from domain.regulation import Regulation, TieBreaker
from domain.scoring import score_game

ZERO = Decimal(0)
# The ranking group of excluded players: below every stage reached and "not played yet" (-1).
_EXCLUDED_GROUP = -2


@dataclass(frozen=True)
class PlayerEntry:
    """A registered player; `team` is None in an individual tournament. An `excluded` player
    (regulation 11.3.3) keeps the points of his games but takes no place in a cut."""

    id: PlayerKey
    nickname: str
    team: PlayerKey | None = None
    excluded: bool = False


@dataclass(frozen=True)
class TeamEntry:
    """A registered team."""

    id: PlayerKey
    name: str


@dataclass(frozen=True)
class GameRecord:
    """A played game: where it sat in the tournament, and its protocol."""

    stage: str
    round: int
    table: int
    protocol: Protocol


@dataclass(frozen=True)
class Figures:
    """Everything counted for a player or team over some games: points and tie-breakers."""

    points: Decimal = ZERO
    win_points: Decimal = ZERO
    best_move_points: Decimal = ZERO
    extra_points: Decimal = ZERO
    penalty_points: Decimal = ZERO
    games: int = 0
    wins: int = 0
    wins_as_don: int = 0
    wins_as_sheriff: int = 0
    wins_as_mafia: int = 0
    times_named_best: int = 0
    first_night_deaths: int = 0

    @property
    def wins_as_don_or_sheriff(self) -> int:
        """Wins in the two roles that play alone, counted together (black-raven-cup 11.2.2)."""
        return self.wins_as_don + self.wins_as_sheriff

    def figure(self, breaker: TieBreaker) -> Decimal | int:
        """The figure a tie-breaker compares (more is better)."""
        return getattr(self, breaker.value)  # type: ignore[no-any-return]

    def __add__(self, other: Figures) -> Figures:
        return Figures(*(getattr(self, name) + getattr(other, name) for name in _FIGURE_NAMES))


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings.

    `lot` says the lot separated this row from a neighbour; `tied` says it is tied through the
    whole chain with no lot drawn yet, and shares its place. An `excluded` player is listed
    below everyone still in the tournament, with his points.
    """

    place: int
    id: PlayerKey
    name: str
    team: PlayerKey | None
    stage: str | None
    figures: Figures
    lot: bool = False
    tied: bool = False
    excluded: bool = False

    @property
    def points(self) -> Decimal:
        """The points this row is ranked by."""
        return self.figures.points


@dataclass(frozen=True)
class CutReport:
    """Who advances from a stage; `tied_at_line` is the tie the cut line falls into, if any.

    Without a lot, `advancing` holds only those certain to advance and `open_places` says how
    many places the tied contenders still share.
    """

    stage: str
    unit: Literal["players", "teams"]
    count: int
    advancing: tuple[str, ...]
    tied_at_line: tuple[str, ...]
    settled_by_lot: bool
    open_places: int

    @property
    def needs_lot(self) -> bool:
        """Whether the chief judge must draw a lot before the next stage can be seated."""
        return self.open_places > 0


@dataclass(frozen=True)
class Standings:
    """Individual and team standings in rank order, the cut reports and every lot draw."""

    players: tuple[StandingRow, ...]
    teams: tuple[StandingRow, ...]
    cuts: tuple[CutReport, ...]
    lot_draws: tuple[LotDraw, ...]


@dataclass(frozen=True)
class _Ranked:
    id: PlayerKey
    group: int
    figures: Figures
    place: int = 0
    lot: bool = False
    tied: bool = False
    # The place of the first entry this one is tied with through the whole chain.
    tie_group: int = 0


_FIGURE_NAMES = tuple(f.name for f in fields(Figures))


class _Tally:
    """Mutable per-stage sums; standings add up 10 seats per game for thousands of games."""

    __slots__ = _FIGURE_NAMES
    points: Decimal
    win_points: Decimal
    best_move_points: Decimal
    extra_points: Decimal
    penalty_points: Decimal
    games: int
    wins: int
    wins_as_don: int
    wins_as_sheriff: int
    wins_as_mafia: int
    times_named_best: int
    first_night_deaths: int

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, 0)

    def freeze(self) -> Figures:
        return Figures(*(getattr(self, name) for name in self.__slots__))


_WIN_COUNTERS = {
    Role.DON: "wins_as_don",
    Role.SHERIFF: "wins_as_sheriff",
    Role.MAFIA: "wins_as_mafia",
}


def _player_tallies(
    games: Iterable[GameRecord], regulation: Regulation, known: set[str]
) -> dict[str, list[_Tally]]:
    stage_count = len(regulation.stages)
    tallies: dict[str, list[_Tally]] = {}
    for game in games:
        stage = regulation.stage_index(game.stage)
        for score in score_game(game.protocol, regulation):
            if score.player not in known:
                raise ValueError(
                    f"{game.stage} round {game.round} table {game.table}: "
                    f"player {score.player!r} is not registered"
                )
            tally = tallies.setdefault(score.player, [_Tally() for _ in range(stage_count)])[stage]
            tally.points += score.total
            tally.win_points += score.win
            tally.best_move_points += score.best_move
            tally.extra_points += score.extra
            tally.penalty_points += score.penalty
            tally.games += 1
            tally.times_named_best += score.extra > 0
            tally.first_night_deaths += score.first_night_death
            if score.won:
                tally.wins += 1
                counter = _WIN_COUNTERS.get(score.role)
                if counter is not None:
                    setattr(tally, counter, getattr(tally, counter) + 1)
    return tallies


def _window(regulation: Regulation, stage: int) -> range:
    """The stages whose points count for a ranking after `stage` (back to a fresh start)."""
    start = stage
    while start > 0 and regulation.stages[start].carry_points:
        start -= 1
    return range(start, stage + 1)


def _sum(per_stage: Sequence[Figures], stages: Iterable[int]) -> Figures:
    total = Figures()
    for stage in stages:
        total = total + per_stage[stage]
    return total


def _reached(per_stage: Sequence[Figures]) -> int:
    """The index of the last stage played in, -1 for none yet."""
    return max((index for index, f in enumerate(per_stage) if f.games), default=-1)


def _rank(
    entries: list[_Ranked],
    chain: Sequence[TieBreaker],
    kind: str,
    context: str,
    lot: SettlesTies | None,
) -> tuple[list[_Ranked], list[LotDraw]]:
    """Order entries by group (stage reached) then the chain; settle the full ties the lot
    settles, the others share their place."""
    breakers = [breaker for breaker in chain if breaker is not TieBreaker.LOT]

    def key(entry: _Ranked) -> tuple[Decimal | int, ...]:
        return (entry.group, *(entry.figures.figure(breaker) for breaker in breakers))

    # Ids order the rows within an unresolved tie only for a stable listing: they share a place.
    ordered = sorted(sorted(entries, key=lambda e: e.id), key=key, reverse=True)
    keys = [key(entry) for entry in ordered]
    ranked: list[_Ranked] = []
    draws: list[LotDraw] = []
    index = 0
    while index < len(ordered):
        end = index + 1
        while end < len(ordered) and keys[end] == keys[index]:
            end += 1
        tie = [replace(entry, tie_group=index + 1) for entry in ordered[index:end]]
        tied_ids = tuple(entry.id for entry in tie)
        settled = lot.settle(kind, tied_ids) if lot is not None and len(tie) > 1 else None
        if len(tie) == 1:
            ranked.append(replace(tie[0], place=index + 1))
        elif settled is not None:
            order, method = settled
            draws.append(LotDraw(context, tied_ids, order, method))
            by_id = {entry.id: entry for entry in tie}
            ranked.extend(
                replace(by_id[entry_id], place=index + 1 + offset, lot=True)
                for offset, entry_id in enumerate(order)
            )
        else:
            ranked.extend(replace(entry, place=index + 1, tied=True) for entry in tie)
        index = end
    return ranked, draws


def compute_standings(
    regulation: Regulation,
    players: Sequence[PlayerEntry],
    teams: Sequence[TeamEntry],
    games: Iterable[GameRecord],
    lot: SettlesTies | None = None,
) -> Standings:
    """The standings of a tournament from its valid protocols.

    Order of the games does not matter. Players who have not played yet are listed last with
    no stage. A full tie the lot settles is ordered by it (a `LotDraw` with the method that
    drew it); any other full tie shares its place. Excluded players rank below everyone else
    and never take a place in a cut: the next player moves up. Raises ValueError for a game
    that seats an unregistered player and `LotError` if a lot meant for every tie cannot
    settle one.

    The standings are a function of these inputs alone: the few computed last are given again
    for equal ones (`domain.recent`).
    """
    return _recent((regulation, tuple(players), tuple(teams), tuple(games), lot))


_Inputs = tuple[
    Regulation,
    tuple[PlayerEntry, ...],
    tuple[TeamEntry, ...],
    tuple[GameRecord, ...],
    SettlesTies | None,
]


def _standings(inputs: _Inputs) -> Standings:
    regulation, players, teams, games, lot = inputs
    per_player, per_team = _figures(regulation, players, teams, games)
    draws: list[LotDraw] = []
    excluded = frozenset(player.id for player in players if player.excluded)
    player_rows = _ranked_rows(
        regulation,
        per_player,
        "players",
        lot,
        draws,
        by_stage=regulation.individual_ranking == "stage_reached",
        excluded=excluded,
    )
    team_rows = _ranked_rows(regulation, per_team, "teams", lot, draws, by_stage=True)
    cuts = tuple(
        _cut(
            regulation,
            index,
            per_team if stage.advance.unit == "teams" else per_player,
            lot,
            draws,
            excluded if stage.advance.unit == "players" else frozenset(),
        )
        for index, stage in enumerate(regulation.stages)
        if stage.advance is not None
    )
    # Players and teams keep separate lookups: their ids may coincide (both database numbers).
    nicknames = {player.id: player.nickname for player in players}
    player_team = {player.id: player.team for player in players}
    return Standings(
        _rows(regulation, player_rows, nicknames, player_team, excluded),
        _rows(regulation, team_rows, {team.id: team.name for team in teams}, {}, frozenset()),
        cuts,
        tuple(draws),
    )


def _figures(
    regulation: Regulation,
    players: tuple[PlayerEntry, ...],
    teams: tuple[TeamEntry, ...],
    games: tuple[GameRecord, ...],
) -> tuple[dict[str, list[Figures]], dict[str, list[Figures]]]:
    """Every player's and every team's figures, stage by stage."""
    tallies = _player_tallies(games, regulation, {player.id for player in players})
    empty = [Figures()] * len(regulation.stages)
    per_player = {
        player.id: [t.freeze() for t in tallies[player.id]] if player.id in tallies else empty
        for player in players
    }
    members: dict[str, list[str]] = {team.id: [] for team in teams}
    for player in players:
        if player.team is not None:
            members[player.team].append(player.id)
    per_team = {
        team_id: [
            _sum([per_player[member][stage] for member in ids], range(len(ids)))
            for stage in range(len(regulation.stages))
        ]
        for team_id, ids in members.items()
    }
    return per_player, per_team


def _rows(
    regulation: Regulation,
    ranked: list[tuple[_Ranked, int]],
    names: dict[str, str],
    team_of: dict[str, str | None],
    excluded: frozenset[str],
) -> tuple[StandingRow, ...]:
    """The ranked entries as rows (`excluded`: the players out of the tournament)."""
    return tuple(
        StandingRow(
            place=entry.place,
            id=entry.id,
            name=names[entry.id],
            team=team_of.get(entry.id),
            stage=regulation.stages[reached].id if reached >= 0 else None,
            figures=entry.figures,
            lot=entry.lot,
            tied=entry.tied,
            excluded=entry.id in excluded,
        )
        for entry, reached in ranked
    )


# A few tournaments' (several may run at once, and their web pages are read too).
_recent = Recent(_standings, size=4)


def _ranked_rows(
    regulation: Regulation,
    per_unit: dict[str, list[Figures]],
    kind: str,
    lot: SettlesTies | None,
    draws: list[LotDraw],
    *,
    by_stage: bool,
    excluded: frozenset[str] = frozenset(),
) -> list[tuple[_Ranked, int]]:
    every_stage = range(len(regulation.stages))
    entries = []
    reached_of: dict[str, int] = {}
    for unit_id, per_stage in per_unit.items():
        reached = _reached(per_stage)
        reached_of[unit_id] = reached
        if by_stage:
            stages = _window(regulation, reached) if reached >= 0 else range(0)
            entry = _Ranked(unit_id, reached, _sum(per_stage, stages))
        else:
            entry = _Ranked(unit_id, 0, _sum(per_stage, every_stage))
        # Below everyone still in, even those who have not played yet (groups start at -1).
        entries.append(replace(entry, group=_EXCLUDED_GROUP) if unit_id in excluded else entry)
    ranked, new_draws = _rank(entries, regulation.tie_breakers, kind, kind, lot)
    draws.extend(new_draws)
    return [(entry, reached_of[entry.id]) for entry in ranked]


def _cut(
    regulation: Regulation,
    stage_index: int,
    per_unit: dict[str, list[Figures]],
    lot: SettlesTies | None,
    draws: list[LotDraw],
    excluded: frozenset[str],
) -> CutReport:
    stage = regulation.stages[stage_index]
    assert stage.advance is not None
    window = _window(regulation, stage_index)
    entries = [
        _Ranked(unit_id, 0, _sum(per_stage, window))
        for unit_id, per_stage in per_unit.items()
        if per_stage[stage_index].games and unit_id not in excluded
    ]
    kind = stage.advance.unit
    ranked, new_draws = _rank(entries, regulation.tie_breakers, kind, f"cut {stage.id}", lot)
    count = stage.advance.count
    line_tie: tuple[str, ...] = ()
    if len(ranked) > count and ranked[count - 1].tie_group == ranked[count].tie_group:
        line_group = ranked[count].tie_group
        line_tie = tuple(entry.id for entry in ranked if entry.tie_group == line_group)
    # Only the lot draw that decides who crosses the line matters for the cut.
    line_draws = [draw for draw in new_draws if set(draw.tied) == set(line_tie)]
    draws.extend(line_draws)
    certain = [entry.id for entry in ranked[:count] if not (entry.tied and entry.id in line_tie)]
    return CutReport(
        stage=stage.id,
        unit=kind,
        count=count,
        advancing=tuple(certain),
        tied_at_line=line_tie,
        settled_by_lot=bool(line_draws),
        open_places=min(count, len(ranked)) - len(certain),
    )
