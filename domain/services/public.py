"""What a tournament's public web page shows, and who may open it.

Only what is public: the stages, the standings (the same board as the channel's), the rounds
once published, and the confirmed games that count. Never a protocol draft, an unpublished
round, a Telegram id, a fee, or a protest's text. A page is public, unlisted (opened only with
the token its link carries) or off, as the organizer sets it; a tournament still in draft has
no page.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from datetime import datetime

from domain.actor import Actor
from domain.permissions import Action
from domain.public_view import (
    PublicGame,
    PublicHeader,
    PublicRound,
    PublicSeat,
    PublicSeatResult,
    PublicTable,
    PublicTournament,
)
from domain.regulation import Regulation
from domain.rounds import GameState, Round, TableGame
from domain.scoring import score_game
from domain.services.access import authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.season_screens import page_season
from domain.services.standings import load_board, played_games, stored_lot
from domain.services.standings_posts import refresh_live_link
from domain.standings_board import PlayedGame, participant_key
from domain.tournament import Tournament, WebVisibility


class PublicService:
    """The tournament's public web page and whether it is shown."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def public_tournament(self, tournament_id: int, now: datetime) -> PublicTournament | None:
        """The tournament's public view as of `now`; None when there is no such tournament. Who
        may see it is the view's `opens`: the pages cache one view for every visitor."""
        async with self._uow() as uow:
            tournament = await uow.tournaments.get(tournament_id)
            if tournament is None:
                return None
            return await _read(uow, tournament, now)

    async def set_web_visibility(
        self,
        actor: Actor,
        tournament_id: int,
        visibility: WebVisibility,
        token: str,
        now: datetime,
    ) -> Tournament:
        """The organizer makes the tournament's page public, unlisted or off. An unlisted page
        takes the fresh `token` (drawn by the caller) each time it is made unlisted, so an old
        link stops opening it. The channel's pinned table is edited to follow: it links only a
        public page."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            unlisted = visibility is WebVisibility.UNLISTED
            tournament = replace(
                tournament, web_visibility=visibility, web_token=token if unlisted else None
            )
            await uow.tournaments.save(tournament)
            uow.changed_tournaments.add(tournament.id)
            await refresh_live_link(uow, tournament, f"page:{visibility.value}:{token}", now)
            await uow.commit()
            return tournament


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
    return PublicTournament(
        header=_header(tournament),
        board=board,
        rounds=await _published_rounds(uow, tournament, nicknames),
        games=tuple(
            _game(game, regulation, nicknames, now) for game in _in_order(games, regulation)
        ),
        visibility=tournament.web_visibility,
        token=tournament.web_token,
        season=await page_season(uow, tournament.id),
    )


def _header(tournament: Tournament) -> PublicHeader:
    return PublicHeader(
        id=tournament.id,
        title=tournament.title,
        state=tournament.state,
        locale=tournament.locale,
        city=tournament.city,
        venue=tournament.venue,
        starts_on=tournament.starts_on,
        ends_on=tournament.ends_on,
        regulation=tournament.regulation,
        current_stage=tournament.current_stage,
    )


async def _published_rounds(
    uow: UnitOfWork, tournament: Tournament, nicknames: Mapping[str, str]
) -> tuple[PublicRound, ...]:
    """Every published round of every stage: its tables, their judges and seats, who sat out."""
    published: list[tuple[str, Round]] = []
    for stage in tournament.regulation.stages:
        seated = await uow.rounds.stage(tournament.id, stage.id)
        for round_ in seated.rounds if seated is not None else ():
            if round_.published_at is not None:
                published.append((stage.id, round_))
    judges = await _judge_names(
        uow, {g.judge_id for _, r in published for g in r.games if g.judge_id is not None}
    )
    live = await uow.game_logs.started(
        [g.id for _, r in published for g in r.games if g.state is not GameState.CONFIRMED]
    )
    return tuple(
        PublicRound(
            stage=stage,
            number=round_.number,
            tables=tuple(_table(game, judges, nicknames, live) for game in round_.games),
            sit_outs=tuple(nicknames.get(participant_key(p), "") for p in round_.sit_outs),
        )
        for stage, round_ in published
    )


def _table(
    game: TableGame,
    judges: Mapping[int, str],
    nicknames: Mapping[str, str],
    live: Collection[int],
) -> PublicTable:
    return PublicTable(
        table=game.table,
        judge=judges.get(game.judge_id) if game.judge_id is not None else None,
        seats=tuple(
            PublicSeat(seat, participant_key(player), nicknames.get(participant_key(player), ""))
            for seat, player in enumerate(game.players, start=1)
        ),
        confirmed=game.state is GameState.CONFIRMED,
        game_id=game.id,
        live=game.id in live,
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
