"""What a tournament's public web page shows, and who may open it.

Only what is public: the stages, the standings (the same board as the channel's), the rounds
once published, and the confirmed games that count. Never a protocol draft, an unpublished
round, a Telegram id, a fee, or a protest's text. A page is public, unlisted (opened only with
the token its link carries) or off, as the organizer sets it; a tournament still in draft has
no page.
"""

from __future__ import annotations

import hmac
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from datetime import date, datetime

from domain.permissions import Action
from domain.protocol import Removal, Side
from domain.regulation import Regulation
from domain.rounds import GameState
from domain.scoring import SeatScore, score_game
from domain.services.access import authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.standings import (
    PlayedGame,
    StandingsBoard,
    load_board,
    participant_key,
    played_games,
    stored_lot,
)
from domain.tournament import Tournament, TournamentState, WebVisibility


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
    player: str
    nickname: str


@dataclass(frozen=True)
class PublicTable:
    """A published table: who sits where, its judge's name, whether its game is confirmed."""

    table: int
    judge: str | None
    seats: tuple[PublicSeat, ...]
    confirmed: bool


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
class PublicTournament:
    """Everything the tournament's pages show, read once for all of them."""

    header: PublicHeader
    board: StandingsBoard
    rounds: tuple[PublicRound, ...]
    games: tuple[PublicGame, ...]
    # Who may open it (never shown): see `opens`.
    visibility: WebVisibility
    token: str | None

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

    def games_of(self, player: str) -> list[tuple[PublicGame, PublicSeatResult]]:
        """The player's confirmed games in the order played, each with his seat."""
        return [
            (game, seat)
            for game in self.games
            for seat in game.seats
            if seat.score.player == player
        ]

    def seats_of(self, player: str) -> list[tuple[PublicRound, PublicTable, PublicSeat]]:
        """Where the player sits in the published rounds."""
        return [
            (round_, table, seat)
            for round_ in self.rounds
            for table in round_.tables
            for seat in table.seats
            if seat.player == player
        ]


async def public_tournament(
    uow_factory: UnitOfWorkFactory, tournament_id: int, now: datetime
) -> PublicTournament | None:
    """The tournament's public view as of `now`; None when there is no such tournament. Who
    may see it is the view's `opens`: the pages cache one view for every visitor."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            return None
        return await _read(uow, tournament, now)


async def _judge_names(uow: UnitOfWork, judge_ids: Collection[int]) -> dict[int, str]:
    names = {}
    for judge_id in judge_ids:
        user = await uow.users.get(judge_id)
        if user is not None:
            names[judge_id] = user.display_name
    return names


async def _read(uow: UnitOfWork, tournament: Tournament, now: datetime) -> PublicTournament:
    games = await played_games(uow, tournament)
    board = await load_board(uow, tournament, games, await stored_lot(uow, tournament.id), now)
    participants = await uow.participants.of_tournament(tournament.id)
    nicknames = {participant_key(p.id): p.nickname for p in participants}
    regulation = tournament.regulation
    published = []
    for stage in regulation.stages:
        seated = await uow.rounds.stage(tournament.id, stage.id)
        for round_ in seated.rounds if seated is not None else ():
            if round_.published_at is not None:
                published.append((stage.id, round_))
    judges = await _judge_names(
        uow, {g.judge_id for _, r in published for g in r.games if g.judge_id is not None}
    )
    rounds = tuple(
        PublicRound(
            stage=stage,
            number=round_.number,
            tables=tuple(
                PublicTable(
                    table=game.table,
                    judge=judges.get(game.judge_id) if game.judge_id is not None else None,
                    seats=tuple(
                        PublicSeat(
                            seat,
                            participant_key(player),
                            nicknames.get(participant_key(player), ""),
                        )
                        for seat, player in enumerate(game.players, start=1)
                    ),
                    confirmed=game.state is GameState.CONFIRMED,
                )
                for game in round_.games
            ),
            sit_outs=tuple(nicknames.get(participant_key(p), "") for p in round_.sit_outs),
        )
        for stage, round_ in published
    )
    header = PublicHeader(
        id=tournament.id,
        title=tournament.title,
        state=tournament.state,
        locale=tournament.locale,
        city=tournament.city,
        venue=tournament.venue,
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
        regulation=regulation,
        current_stage=tournament.current_stage,
    )
    return PublicTournament(
        header=header,
        board=board,
        rounds=rounds,
        games=tuple(
            _game(game, regulation, nicknames, now) for game in _in_order(games, regulation)
        ),
        visibility=tournament.web_visibility,
        token=tournament.web_token,
    )


def _in_order(games: list[PlayedGame], regulation: Regulation) -> list[PlayedGame]:
    return sorted(
        games,
        key=lambda g: (regulation.stage_index(g.record.stage), g.record.round, g.record.table),
    )


def _game(
    game: PlayedGame, regulation: Regulation, nicknames: Mapping[str, str], now: datetime
) -> PublicGame:
    record = game.record
    protocol = record.protocol
    scores = score_game(protocol, regulation)
    seats = tuple(
        PublicSeatResult(score, nicknames.get(score.player, ""), seat.fouls, seat.removed)
        for score, seat in zip(scores, protocol.seats, strict=True)
    )
    return PublicGame(
        stage=record.stage,
        round=record.round,
        table=record.table,
        winner=protocol.winner,
        first_killed=protocol.first_killed,
        best_move=protocol.best_move,
        seats=seats,
        provisional=game.is_provisional(now),
    )


async def set_web_visibility(
    uow_factory: UnitOfWorkFactory,
    tournament_id: int,
    user_id: int,
    admin_ids: Collection[int],
    visibility: WebVisibility,
    now: datetime,
    token: str,
) -> Tournament:
    """The organizer makes the tournament's page public, unlisted or off. An unlisted page
    takes the fresh `token` (drawn by the caller) each time it is made unlisted, so an old
    link stops opening it."""
    async with uow_factory() as uow:
        tournament = await authorize(
            uow, tournament_id, user_id, admin_ids, Action.EDIT_SETTINGS, now
        )
        unlisted = visibility is WebVisibility.UNLISTED
        tournament = replace(
            tournament, web_visibility=visibility, web_token=token if unlisted else None
        )
        await uow.tournaments.save(tournament)
        uow.changed_tournaments.add(tournament.id)
        await uow.commit()
        return tournament
