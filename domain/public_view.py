"""What a tournament's public web page shows: only what is public (no fee, no Telegram id, no
draft, no unpublished round, no protest's text), read by `domain.services.public`."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import date

from domain.cards import Side
from domain.player_keys import PlayerKey
from domain.protocol import Removal
from domain.regulation import Regulation
from domain.scoring import SeatScore
from domain.standings_board import StandingsBoard
from domain.tournament import TournamentState, WebVisibility


@dataclass(frozen=True)
class PublicHeader:
    """The tournament as its page introduces it (nothing private: no fee, no ids)."""

    id: int
    title: str
    state: TournamentState
    locale: str
    city: str | None
    venue: str | None
    starts_on: date | None
    ends_on: date | None
    regulation: Regulation
    current_stage: str | None


@dataclass(frozen=True)
class PublicSeat:
    seat: int
    player: PlayerKey
    nickname: str


@dataclass(frozen=True)
class PublicTable:
    """A published table: who sits where, its judge's name, whether its game is confirmed."""

    table: int
    judge: str | None
    seats: tuple[PublicSeat, ...]
    confirmed: bool
    # The game's id (its live page's address) and whether it is being played live: the
    # judge's app has begun it and its protocol is not confirmed yet.
    game_id: int = 0
    live: bool = False


@dataclass(frozen=True)
class PublicRound:
    stage: str
    number: int
    tables: tuple[PublicTable, ...]
    sit_outs: tuple[str, ...]


@dataclass(frozen=True)
class PublicSeatResult:
    """One seat of a confirmed game: the player, his role, fouls, how he left, his parts."""

    score: SeatScore
    nickname: str
    fouls: int
    removed: Removal | None


@dataclass(frozen=True)
class PublicGame:
    stage: str
    round: int
    table: int
    winner: Side
    first_killed: int | None
    best_move: tuple[int, ...]
    seats: tuple[PublicSeatResult, ...]
    provisional: bool


@dataclass(frozen=True)
class PublicSeason:
    """What a tournament's page links to of the season (#28): its series (id and title, or
    None), and each participant's person (by participant key) when the tournament is in a
    series or rated."""

    series_id: int | None
    series_title: str | None
    persons: dict[str, int]


@dataclass(frozen=True)
class PublicTournament:
    """Everything the tournament's pages show, read once for all of them."""

    header: PublicHeader
    board: StandingsBoard
    rounds: tuple[PublicRound, ...]
    games: tuple[PublicGame, ...]
    # Who may open it (never shown): see `opens`.
    visibility: WebVisibility
    token: str | None
    # The season's links (None: the tournament is neither in a series nor rated).
    season: PublicSeason | None = None

    def opens(self, token: str | None) -> bool:
        """Whether the page opens for a link carrying `token` (None: no token)."""
        if self.header.state is TournamentState.DRAFT:
            return False
        if self.visibility is WebVisibility.PUBLIC:
            return True
        if self.visibility is WebVisibility.UNLISTED:
            return bool(token and self.token) and hmac.compare_digest(token or "", self.token or "")
        return False

    @property
    def token_query(self) -> str:
        """What every link between the pages carries: an unlisted page's token."""
        return f"k={self.token}" if self.visibility is WebVisibility.UNLISTED else ""

    def games_of(self, player: PlayerKey) -> list[tuple[PublicGame, PublicSeatResult]]:
        """The player's confirmed games in the order played, each with his seat."""
        return [
            (game, seat)
            for game in self.games
            for seat in game.seats
            if seat.score.player == player
        ]

    def seats_of(self, player: PlayerKey) -> list[tuple[PublicRound, PublicTable, PublicSeat]]:
        """Where the player sits in the published rounds."""
        return [
            (round_, table, seat)
            for round_ in self.rounds
            for table in round_.tables
            for seat in table.seats
            if seat.player == player
        ]

    def table_of_game(self, game_id: int) -> tuple[PublicRound, PublicTable] | None:
        """The published round and table of a game (None: not in a published round)."""
        for round_ in self.rounds:
            for table in round_.tables:
                if table.game_id == game_id:
                    return round_, table
        return None

    @property
    def hall_round(self) -> PublicRound | None:
        """The round the hall looks for: the first published one with a game still to be
        confirmed (being played, or next to sit down), else the last one played."""
        waiting = (r for r in self.rounds if not all(t.confirmed for t in r.tables))
        return next(waiting, self.rounds[-1] if self.rounds else None)
