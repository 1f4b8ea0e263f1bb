"""Reading the standings: the one way every reader gets them (the channel's posts when they
are drawn, `/standings`, `/me`, the next stage's seating, exports, the public page).

Standings are never stored: each read computes them from the confirmed protocols that count,
the participants, the teams and the chief judge's lot decisions (`domain/standings.py`), and
returns a `StandingsBoard` (`domain/standings_board.py`). Publishing them to the channel is
`domain/services/standings_posts.py`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from domain.actor import Actor
from domain.lot_draw import SettlesTies
from domain.registration import Participant
from domain.services.access import NotFound
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.standings import Standings, compute_standings
from domain.standings_board import (
    PlayedGame,
    PlayerCard,
    StandingsBoard,
    player_card,
    standings_board,
    standings_entries,
    with_awards,
)
from domain.tie_decisions import RecordedLot, recorded_lot
from domain.tournament import Tournament, TournamentState


async def load_board(
    uow: UnitOfWork,
    tournament: Tournament,
    games: Sequence[PlayedGame],
    lot: SettlesTies | None,
    now: datetime,
) -> StandingsBoard:
    """The board of a tournament from its participants and teams in the database."""
    participants = await uow.participants.of_tournament(tournament.id)
    teams = await uow.teams.of_tournament(tournament.id)
    players, team_entries = standings_entries(participants, teams, games)
    # The standings and their provisional rows: CPU work, in a thread (as `compute_current`).
    board = await asyncio.to_thread(
        standings_board,
        tournament.title,
        tournament.regulation,
        players,
        team_entries,
        games,
        lot,
        tournament.current_stage,
        now,
    )
    board = replace(board, locale=tournament.locale, page_path=tournament.channel_page_path)
    if tournament.state is TournamentState.FINISHED:  # the results name the nominations
        board = with_awards(board, games)
    return board


async def played_games(uow: UnitOfWork, tournament: Tournament) -> list[PlayedGame]:
    """Every confirmed game of the tournament that counts (an annulled one does not) with the
    closing time of its protest window and whether a protest against it is still open."""
    windows: dict[tuple[str, int, int], datetime | None] = {}
    protested: set[tuple[str, int, int]] = set()
    annulled: set[tuple[str, int, int]] = set()
    open_games = await uow.protests.open_games(tournament.id)
    annulled_games = await uow.annulments.of_tournament(tournament.id)
    # Where each game is and its window; its seats are not needed (the protocol names them).
    for place in await uow.rounds.game_places(tournament.id):
        where = (place.stage, place.round, place.table)
        windows[where] = place.protest_until
        if place.game_id in open_games:
            protested.add(where)
        if place.game_id in annulled_games:
            annulled.add(where)
    played = []
    for record in await uow.protocols.results(tournament.id):
        where = (record.stage, record.round, record.table)
        if where not in annulled:
            played.append(PlayedGame(record, windows.get(where), where in protested))
    return played


async def protest_closings(uow: UnitOfWork, tournament: Tournament) -> set[datetime]:
    """When the protest windows of the games `played_games` counts close (their
    `protest_closes_at`), without reading a protocol."""
    annulled = await uow.annulments.of_tournament(tournament.id)
    return {
        place.protest_until
        for place in await uow.rounds.game_places(tournament.id)
        if place.confirmed and place.game_id not in annulled and place.protest_until is not None
    }


async def stored_lot(uow: UnitOfWork, tournament_id: int) -> RecordedLot:
    """The tournament's lot: the chief judge's decisions, each settling the tie it was for."""
    return recorded_lot(await uow.lots.of_tournament(tournament_id))


async def compute_current(uow: UnitOfWork, tournament: Tournament) -> Standings:
    """The tournament's standings as they stand now: the one way every reader gets them.

    Computed on each read from the confirmed protocols, the participants, the teams and the
    lot decisions, so a substitute, an exclusion, a correction, an annulment, a lot or an
    import shows at once (a 1,000-player, 2,000-game tournament computes in about 0.13 s).
    Players are participant ids as strings: everyone registered and whoever played a game.
    Annulled games do not count; a tie surviving every tie-breaker is separated by the chief
    judge's decision on it, and shares its place until he decides it.
    """
    games = await played_games(uow, tournament)
    players, teams = standings_entries(
        await uow.participants.of_tournament(tournament.id),
        await uow.teams.of_tournament(tournament.id),
        games,
    )
    results = [game.record for game in games]
    lot = await stored_lot(uow, tournament.id)
    # Tens of milliseconds of CPU at 300 players when the games changed: in a thread, so the
    # event loop goes on handling the other updates meanwhile (equal inputs are given again).
    return await asyncio.to_thread(
        compute_standings, tournament.regulation, players, teams, results, lot
    )


class StandingsService:
    """The standings: the tournament's table, a person's place, the boards drawn."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def board_of_tournament(self, tournament_id: int, now: datetime) -> StandingsBoard:
        """The tournament's board as it stands now, provisional results marked as of `now` (what
        the outbox draws when it sends the live table or the picture)."""
        async with self._uow() as uow:
            tournament = await uow.tournaments.get(tournament_id)
            if tournament is None:
                raise NotFound(f"tournament {tournament_id}")
            return await _board(uow, tournament, now)

    async def current_standings(self, tournament_id: int) -> Standings:
        """The tournament's standings as they stand now (`compute_current` in a unit of work)."""
        async with self._uow() as uow:
            tournament = await uow.tournaments.get(tournament_id)
            if tournament is None:
                raise NotFound(f"tournament {tournament_id}")
            return await compute_current(uow, tournament)

    async def standings_choice(self, actor: Actor, *, playing: bool = False) -> list[Tournament]:
        """The tournaments /standings (or, `playing`, /me: only those he plays in) may mean for
        this person: more than one (two running at once) and he chooses."""
        async with self._uow() as uow:
            found = await _tournaments_of(uow, actor)
        return [tournament for tournament, player in found if player is not None or not playing]

    async def standings_of_person(self, actor: Actor) -> tuple[int, StandingsBoard] | None:
        """The standings of the person's tournament (and its id); None when he has none."""
        async with self._uow() as uow:
            found = await _tournament_of(uow, actor)
            if found is None:
                return None
            tournament = found[0]
            return tournament.id, await _board(uow, tournament, actor.now)

    async def standings_of_tournament(
        self, actor: Actor, tournament_id: int
    ) -> StandingsBoard | None:
        """The standings of a tournament the person plays in, organizes or judges; None for any
        other tournament (a forged or stale button shows nothing)."""
        async with self._uow() as uow:
            tournament = await uow.tournaments.get(tournament_id)
            if tournament is None:
                return None
            playing = await uow.participants.of_person(tournament_id, actor.user_id) is not None
            staffed = any(
                t.id == tournament_id for t in await uow.tournaments.of_person(actor.user_id)
            )
            if not (playing or staffed):
                return None
            return await _board(uow, tournament, actor.now)

    async def card_of_person(
        self, actor: Actor, tournament_id: int | None = None
    ) -> PlayerCard | None:
        """The person's games and points in his tournament (`tournament_id`, chosen from several,
        or else the one nearest to being played); None when he plays in none (or not in that
        one)."""
        async with self._uow() as uow:
            if tournament_id is None:
                found = await _tournament_of(uow, actor)
            else:
                chosen = await uow.tournaments.get(tournament_id)
                found = (
                    (chosen, await uow.participants.of_person(chosen.id, actor.user_id))
                    if chosen
                    else None
                )
            if found is None:
                return None
            tournament, participant = found
            if participant is None:
                return None
            games = await played_games(uow, tournament)
            board = await load_board(
                uow, tournament, games, await stored_lot(uow, tournament.id), actor.now
            )
        return player_card(board, participant, games, actor.now)


# --- standings in a private chat -------------------------------------------------------------


# Which of a person's tournaments /standings and /me speak of: the one being played first.
_STATE_ORDER = (
    TournamentState.RUNNING,
    TournamentState.REGISTRATION_CLOSED,
    TournamentState.REGISTRATION_OPEN,
    TournamentState.FINISHED,
    TournamentState.DRAFT,
)


async def _tournaments_of(
    uow: UnitOfWork, actor: Actor
) -> list[tuple[Tournament, Participant | None]]:
    """The person's tournaments as a player, or else as their organizer or judge, in the state
    nearest to being played (running first), newest first."""
    found: list[tuple[Tournament, Participant | None]] = []
    for tournament in await uow.tournaments.of_person(actor.user_id, everything=True):
        participant = await uow.participants.of_person(tournament.id, actor.user_id)
        if participant is not None:
            found.append((tournament, participant))
    if not found:
        found = [
            (tournament, None) for tournament in await uow.tournaments.of_person(actor.user_id)
        ]
    if not found:
        return []
    nearest = min(_STATE_ORDER.index(tournament.state) for tournament, _ in found)
    return [pair for pair in found if _STATE_ORDER.index(pair[0].state) == nearest]


async def _tournament_of(
    uow: UnitOfWork, actor: Actor
) -> tuple[Tournament, Participant | None] | None:
    """The person's tournament as a player, or else as its organizer or judge: the newest of
    those nearest to being played."""
    found = await _tournaments_of(uow, actor)
    return found[0] if found else None


async def _board(uow: UnitOfWork, tournament: Tournament, now: datetime) -> StandingsBoard:
    games = await played_games(uow, tournament)
    return await load_board(uow, tournament, games, await stored_lot(uow, tournament.id), now)
