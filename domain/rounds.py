"""A stage's rounds as the bot keeps them: tables, seats, judges, and the organizer's edits.

Players are participant ids here. A round seats whole tables of ten and lists who sits out;
the organizer may swap two players or move one into a seat before (or after) publishing, and
every edit keeps the hard rule of the seating: teammates never share a table. Tables and seats
are numbered from 1, as the players see them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from domain.protocol import Protocol
from domain.regulation import Regulation
from domain.regulation import Stage as StageRules

# The judges' rotation lives with the seating, which spreads every player's judges over it.
from domain.seating.judges import rotate_judges as rotate_judges
from domain.validation import Invalid

TABLE_SEATS = 10


class GameState(StrEnum):
    """A table game's protocol: still being filled in, or confirmed by its judge."""

    OPEN = "open"
    CONFIRMED = "confirmed"


@dataclass(frozen=True)
class TableGame:
    """One game of a round at one table: its players in seat order and its judge."""

    id: int
    table: int
    players: tuple[int, ...]
    judge_id: int | None = None
    state: GameState = GameState.OPEN
    # Bumped by every confirmation and correction: two confirmations of one version store one.
    version: int = 0
    protest_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class GamePlace:
    """Where a game is played and how far it got, without its seats (what the standings and
    the round's closing need of every game: reading the seats of a whole tournament for them
    would cost each result more the bigger the tournament)."""

    stage: str
    round: int
    table: int
    game_id: int
    # Its protocol is stored (confirmed, perhaps corrected since).
    confirmed: bool
    protest_until: datetime | None = None


@dataclass(frozen=True)
class Round:
    """A round of a stage: its games, who sits out, and when it was published (if it was)."""

    id: int
    number: int
    games: tuple[TableGame, ...]
    sit_outs: tuple[int, ...] = ()
    published_at: datetime | None = None

    @property
    def seating(self) -> RoundSeating:
        """The round's tables and sit-outs, as the preview edits them."""
        return RoundSeating(tuple(game.players for game in self.games), self.sit_outs)

    def game_at(self, table: int) -> TableGame:
        """The game at table `table` (from 1)."""
        return self.games[table - 1]

    def seated_of(self, players: Collection[int]) -> list[int]:
        """Those of `players` who sit at a table of the round, in their order."""
        seated = {player for game in self.games for player in game.players}
        return [player for player in players if player in seated]

    def publishable(self, gone: Collection[int]) -> bool:
        """Not published yet, and none of the players who left (`gone`: no-shows, exclusions
        without a substitute) sits in it: such a round waits for a re-seating."""
        return self.published_at is None and not self.seated_of(gone)

    def judges_elsewhere(self, game: TableGame) -> set[int]:
        """The judges of the round's other tables: a judge never judges two tables of a round."""
        return {
            other.judge_id
            for other in self.games
            if other.id != game.id and other.judge_id is not None
        }

    def next_judge(self, game: TableGame, judges: Iterable[int]) -> int | None:
        """The judge a table is handed to next: the next of `judges` free in this round, then
        nobody, and round again."""
        busy = self.judges_elsewhere(game)
        options: list[int | None] = [judge for judge in judges if judge not in busy]
        options.append(None)
        current = options.index(game.judge_id) if game.judge_id in options else -1
        return options[(current + 1) % len(options)]


@dataclass(frozen=True)
class SeatedStage:
    """A stage of a tournament with its seating: the seed it was generated from and its rounds."""

    id: int
    tournament_id: int
    stage: str
    seed: int
    rounds: tuple[Round, ...]

    def round(self, number: int) -> Round:
        """Round `number` (from 1); KeyError if the stage has no such round."""
        if not 1 <= number <= len(self.rounds):
            raise KeyError(number)
        return self.rounds[number - 1]

    @property
    def next_unpublished(self) -> Round | None:
        """The first round not published yet."""
        return next((r for r in self.rounds if r.published_at is None), None)


@dataclass(frozen=True)
class RoundSeating:
    """The tables of one round (participant ids in seat order) and who sits it out."""

    tables: tuple[tuple[int, ...], ...]
    sit_outs: tuple[int, ...] = ()

    def position(self, player: int) -> tuple[int, int] | None:
        """The player's (table, seat), or None when he sits out or is not in the round."""
        for table, players in enumerate(self.tables, start=1):
            if player in players:
                return table, players.index(player) + 1
        return None

    def player_at(self, table: int, seat: int) -> int:
        """Who sits at (table, seat); `Invalid` if the round has no such seat."""
        if not (1 <= table <= len(self.tables) and 1 <= seat <= TABLE_SEATS):
            raise Invalid("round-edit-no-seat", table=table, seat=seat)
        return self.tables[table - 1][seat - 1]


def swap_players(
    seating: RoundSeating, first: int, second: int, team_of: Mapping[int, int]
) -> RoundSeating:
    """The round with two players' places exchanged (a sit-out may swap with a seated player).

    Refused when the two are one player, both sit out, either is not in the round, or the swap
    puts two teammates at one table.
    """
    if first == second:
        raise Invalid("round-edit-same-player")
    places = {player: seating.position(player) for player in (first, second)}
    for player, place in places.items():
        if place is None and player not in seating.sit_outs:
            raise Invalid("round-edit-not-in-round", player=player)
    if places[first] is None and places[second] is None:
        raise Invalid("round-edit-both-sit-out")
    swapped = {first: second, second: first}
    tables = tuple(tuple(swapped.get(p, p) for p in table) for table in seating.tables)
    sit_outs = tuple(swapped.get(p, p) for p in seating.sit_outs)
    edited = RoundSeating(tables, sit_outs)
    _check_teammates_apart(edited, team_of)
    return edited


def move_player(
    seating: RoundSeating, player: int, table: int, seat: int, team_of: Mapping[int, int]
) -> RoundSeating:
    """The round with `player` moved to (table, seat); whoever sat there takes his old place
    (or sits out, if he sat out): tables always hold exactly ten."""
    occupant = seating.player_at(table, seat)
    if occupant == player:
        raise Invalid("round-edit-same-player")
    return swap_players(seating, player, occupant, team_of)


def _check_teammates_apart(seating: RoundSeating, team_of: Mapping[int, int]) -> None:
    for number, players in enumerate(seating.tables, start=1):
        seen: dict[int, int] = {}
        for player in players:
            team = team_of.get(player)
            if team is None:
                continue
            if team in seen:
                raise Invalid("round-edit-teammates", table=number, first=seen[team], second=player)
            seen[team] = player


def moved_players(before: RoundSeating, after: RoundSeating) -> list[int]:
    """Players whose table or seat changed (sitting out counts as a place), in id order."""
    everyone = {p for table in before.tables for p in table} | set(before.sit_outs)
    return sorted(p for p in everyone if before.position(p) != after.position(p))


def seats_changed(
    before: Sequence[RoundSeating], after: Sequence[RoundSeating], players: Collection[int]
) -> int:
    """How many places of `players` differ between two seatings of the same rounds: a player
    counts once per round in which his table, his seat or his sitting out changed."""
    return sum(
        1
        for old, new in zip(before, after, strict=True)
        for player in moved_players(old, new)
        if player in players
    )


def fill_freed_seats(
    rounds: Sequence[RoundSeating],
    gone: Collection[int],
    tables: int,
    team_of: Mapping[int, int],
    sat_out: Mapping[int, int],
    seed: int,
) -> tuple[RoundSeating, ...] | None:
    """The rounds not played yet without the players who left, changing as few places as can be.

    Each round keeps its first `tables` tables; the players of the tables beyond sit out; every
    seat a player who left held goes to one of the round's players sitting out, whoever has sat
    out most so far (`sat_out` counts the played rounds), a seeded draw among equals, never next
    to a teammate. Everyone else keeps his table and seat. `sat_out` holds every player still
    in, so that the rotation is judged over all of them. None when this breaks the rotation
    (sit-out counts would differ by more than one) or a seat finds nobody: the rounds then need
    the seating generator.
    """
    draw = random.Random(seed)
    counts = dict(sat_out)
    filled = []
    for seating in rounds:
        kept = [list(table) for table in seating.tables[:tables]]
        waiting = [p for p in seating.sit_outs if p not in gone]
        waiting += [p for table in seating.tables[tables:] for p in table if p not in gone]
        for player in waiting:
            counts.setdefault(player, 0)
        draw.shuffle(waiting)
        waiting.sort(key=lambda p: -counts[p])
        for table in kept:
            for seat, player in enumerate(table):
                if player not in gone:
                    continue
                teams = {team_of.get(p) for p in table if p not in gone} - {None}
                taker = next((p for p in waiting if team_of.get(p) not in teams), None)
                if taker is None:
                    return None
                waiting.remove(taker)
                table[seat] = taker
        for player in waiting:
            counts[player] += 1
        if max(counts.values(), default=0) - min(counts.values(), default=0) > 1:
            return None
        sit_outs = tuple(p for p in (*seating.sit_outs, *_seated(seating)) if p in waiting)
        filled.append(RoundSeating(tuple(tuple(table) for table in kept), sit_outs))
    return tuple(filled)


def _seated(seating: RoundSeating) -> tuple[int, ...]:
    return tuple(p for table in seating.tables for p in table)


def tables_of_stage(stage: StageRules, players: int) -> int:
    """Tables per round: the regulation's number, or as many full tables as the players fill."""
    return stage.tables if stage.tables is not None else players // TABLE_SEATS


def rounds_of_stage(stage: StageRules, players: int, tables: int) -> int:
    """Rounds needed for every player to play the stage's games when some sit out."""
    if tables <= 0:
        return 0
    return math.ceil(players * stage.games_per_player / (tables * TABLE_SEATS))


def round_times(regulation: Regulation, stage_id: str) -> tuple[str | None, ...]:
    """The timetable's start time of each game of the stage, in order (None if not given)."""
    return tuple(
        event.time
        for day in regulation.timetable
        for event in day.events
        if event.kind == "game" and event.stage == stage_id
    )


@dataclass(frozen=True)
class GameInRound:
    """A table game with where it sits in the tournament."""

    tournament_id: int
    stage: str
    round_number: int
    published: bool
    game: TableGame
    # When the round's seating was published: no game of it can have ended earlier.
    published_at: datetime | None = None


@dataclass(frozen=True)
class ProtocolCorrection:
    """A change of a confirmed protocol: who made it, when, and the protocol before and after."""

    game_id: int
    corrected_by: int
    corrected_at: datetime
    before: Protocol
    after: Protocol
