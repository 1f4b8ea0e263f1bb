"""The standings board: everything a standings table shows, as data, whoever shows it.

The channel's posts, `/standings`, `/me`, the pictures, the CSV file and the public web page
all read a `StandingsBoard` (or a player's `PlayerCard`): the standings computed from the
games that count, with what is not final in them marked as of a moment. Pure: the use cases
in `domain/services/standings.py` load one from the database, the rendering layer
(`bot/rendering`) writes it out in a language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from domain.awards import RoleAward, role_awards
from domain.cards import Side
from domain.game_end import GameEnd
from domain.lot_draw import SettlesTies
from domain.outgoing import Localized, Phrase
from domain.player_keys import PlayerKey
from domain.player_keys import participant_key as participant_key
from domain.registration import Participant, ParticipantStatus
from domain.regulation import Regulation
from domain.scoring import SeatScore, score_game
from domain.standings import (
    CutReport,
    GameRecord,
    PlayerEntry,
    StandingRow,
    Standings,
    TeamEntry,
    compute_standings,
)
from domain.teams import Team

# The rows a phone shows legibly on one standings picture (Telegram shrinks a photo's longer
# side to 1280 pixels, and the type is large enough to read at 360 pixels wide): a longer table
# is posted as several pictures.
ROWS_PER_PICTURE = 15


@dataclass(frozen=True)
class PlayedGame:
    """A confirmed game and where its protest stands.

    Players in `record.protocol` are participant ids as strings (see `participant_key`).
    """

    record: GameRecord
    # When the regulation's protest window closes; None when the regulation has none.
    protest_closes_at: datetime | None = None
    protest_pending: bool = False

    def is_provisional(self, now: datetime) -> bool:
        """Whether the result may still change: the protest window is open or a protest waits."""
        window_open = self.protest_closes_at is not None and now < self.protest_closes_at
        return self.protest_pending or window_open


@dataclass(frozen=True)
class StandingsBoard:
    """Everything a standings table shows: the standings and what is not final in them."""

    title: str
    regulation: Regulation
    standings: Standings
    # The stage being played: its cut line is drawn. None before the first stage starts.
    stage: str | None
    # Players and teams whose points include a provisional game.
    provisional: frozenset[str]
    games: int
    provisional_games: int
    # The games of the stage being played (`games` counts every stage's).
    stage_games: int = 0
    # The language of the tournament's channel: its posts of this board are written in it.
    locale: str = "ru"
    # The path of the tournament's public web page (with an unlisted page's token); None
    # while it has none. The live table links to it.
    page_path: str | None = None
    # The regulation's nominations, once the tournament is finished (`with_awards`).
    awards: tuple[RoleAward, ...] = ()

    @property
    def cut(self) -> CutReport | None:
        """The cut of the stage being played, if it has one."""
        return next((cut for cut in self.standings.cuts if cut.stage == self.stage), None)


def standings_entries(
    participants: Iterable[Participant], teams: Iterable[Team], games: Iterable[PlayedGame]
) -> tuple[list[PlayerEntry], list[TeamEntry]]:
    """The players and teams a table lists: everyone registered, and whoever played a game
    (a replaced or excluded player keeps the points of the games he played)."""
    seated = {seat.player for game in games for seat in game.record.protocol.seats}
    players = [
        PlayerEntry(
            participant_key(p.id),
            p.nickname,
            participant_key(p.team_id) if p.team_id is not None else None,
            excluded=p.status is ParticipantStatus.EXCLUDED,
        )
        for p in participants
        if p.status is ParticipantStatus.REGISTERED or participant_key(p.id) in seated
    ]
    listed_teams = {player.team for player in players if player.team is not None}
    team_entries = [
        TeamEntry(participant_key(team.id), team.name)
        for team in teams
        if participant_key(team.id) in listed_teams
    ]
    return players, team_entries


def standings_board(
    title: str,
    regulation: Regulation,
    players: Sequence[PlayerEntry],
    teams: Sequence[TeamEntry],
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    stage: str | None,
    now: datetime,
) -> StandingsBoard:
    """The standings over `games` with the rows whose points are still provisional at `now`."""
    standings = compute_standings(regulation, players, teams, [g.record for g in games], lot)
    board = StandingsBoard(
        title=title,
        regulation=regulation,
        standings=standings,
        stage=stage,
        provisional=frozenset(),
        games=len(games),
        provisional_games=0,
        stage_games=sum(1 for game in games if game.record.stage == stage),
    )
    return board_as_of(board, games, now)


def board_as_of(
    board: StandingsBoard, games: Sequence[PlayedGame], moment: datetime
) -> StandingsBoard:
    """The same standings, marking what is still provisional at `moment` (a protest window
    closes, a protest waits); the ranking itself does not depend on the time."""
    team_of = {row.id: row.team for row in board.standings.players}
    open_games = [game for game in games if game.is_provisional(moment)]
    provisional: set[str] = set()
    for game in open_games:
        for seat in game.record.protocol.seats:
            provisional.add(seat.player)
            team = team_of.get(seat.player)
            if team is not None:
                provisional.add(team)
    return replace(board, provisional=frozenset(provisional), provisional_games=len(open_games))


def with_awards(board: StandingsBoard, games: Sequence[PlayedGame]) -> StandingsBoard:
    """The board with the regulation's nominations decided over `games` (excluded players
    named by none)."""
    excluded = {row.id for row in board.standings.players if row.excluded}
    awards = role_awards(board.regulation, [game.record for game in games], excluded)
    return replace(board, awards=awards)


@dataclass(frozen=True)
class PlayerGame:
    """One game of a player: where he sat, his role and what he earned, part by part."""

    stage: str
    round: int
    table: int
    score: SeatScore
    provisional: bool
    # How the game ended, with its winner (None: not recorded).
    end: GameEnd | None = None
    winner: Side | None = None


@dataclass(frozen=True)
class PlayerCard:
    """A player's line of the standings and every game behind it."""

    board: StandingsBoard
    player: PlayerKey
    nickname: str
    games: tuple[PlayerGame, ...]


def player_card(
    board: StandingsBoard, participant: Participant, games: Iterable[PlayedGame], now: datetime
) -> PlayerCard:
    """A participant's games in the order played, each with his seat's score."""
    key = participant_key(participant.id)
    regulation = board.regulation
    mine = []
    for game in games:
        record = game.record
        for score in score_game(record.protocol, regulation):
            if score.player == key:
                provisional = game.is_provisional(now)
                protocol = record.protocol
                mine.append(
                    PlayerGame(
                        record.stage,
                        record.round,
                        record.table,
                        score,
                        provisional,
                        protocol.end,
                        protocol.winner,
                    )
                )
    mine.sort(key=lambda g: (regulation.stage_index(g.stage), g.round, g.table))
    return PlayerCard(board, key, participant.nickname, tuple(mine))


# The places a tournament's results announce.
PODIUM_PLACES = 3


@dataclass(frozen=True)
class Podium:
    """Who stands on the podium once the tournament is finished: players, and teams in a
    team tournament (places 1 to 3, shared places all standing, nobody excluded)."""

    players: tuple[StandingRow, ...]
    teams: tuple[StandingRow, ...]


def podium(board: StandingsBoard) -> Podium:
    """The board's podium."""

    def stand(rows: Sequence[StandingRow]) -> tuple[StandingRow, ...]:
        return tuple(row for row in rows if row.place <= PODIUM_PLACES and not row.excluded)

    teams = stand(board.standings.teams) if board.regulation.is_team_tournament else ()
    return Podium(stand(board.standings.players), teams)


# --- what closes in the channel --------------------------------------------------------------


@dataclass(frozen=True)
class RoundClosed:
    """The last protocol of a round is confirmed."""

    stage: str
    round: int


@dataclass(frozen=True)
class StageClosed:
    """The last round of a stage is closed."""

    stage: str


Closing = RoundClosed | StageClosed


def closing_heading(board: StandingsBoard, closing: Closing) -> Phrase:
    """The heading of the post closing a round or a stage (the first picture's caption and
    the start of the table's first page)."""
    name = board.regulation.stage(closing.stage).name
    stage = Localized(name.ru, name.en)
    if isinstance(closing, RoundClosed):
        return Phrase.of(
            "standings-closing-round", tournament=board.title, round=closing.round, stage=stage
        )
    return Phrase.of("standings-closing-stage", tournament=board.title, stage=stage)
