"""Export and import: the participants as CSV, the tournament as a `mafia-tournament/1` file."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta

from domain import interchange
from domain.actor import Actor
from domain.game_log import Entry
from domain.permissions import Action
from domain.player_keys import PlayerKey
from domain.protocol import Protocol
from domain.registration import Participant, ParticipantStatus
from domain.services.access import authorize
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.standings import played_games
from domain.standings import GameRecord, PlayerEntry, TeamEntry
from domain.standings_board import PlayedGame, participant_key, standings_entries
from domain.teams import Team
from domain.tournament import Tournament, TournamentState

CSV_COLUMNS = (
    "nickname",
    "club",
    "city",
    "status",
    "team",
    "paid",
    "checked_in",
    "substitute_for",
    "telegram_id",
)


def participants_csv(participants: Collection[Participant], teams: Collection[Team]) -> str:
    """The participants as CSV, one row each, in registration order."""
    team_names = {team.id: team.name for team in teams}
    nicknames = {p.id: p.nickname for p in participants}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for p in participants:
        writer.writerow(
            [
                p.nickname,
                p.club,
                p.city,
                p.status.value,
                team_names.get(p.team_id, "") if p.team_id else "",
                "yes" if p.paid else "no",
                "yes" if p.checked_in else "no",
                nicknames.get(p.substitute_for, "") if p.substitute_for else "",
                p.user_id or "",
            ]
        )
    return out.getvalue()


def tournament_file(
    tournament: Tournament,
    participants: Collection[Participant],
    teams: Collection[Team],
    games: Iterable[GameRecord],
    logs: Mapping[tuple[str, int, int], tuple[Entry, ...]] | None = None,
) -> interchange.Tournament:
    """The tournament in the interchange model: its regulation, the players and teams its
    standings list, and every confirmed game as its protocol now stands, in the order played.

    `games` name players by participant id (`participant_key`). In the file players and teams
    are numbered in registration order (p1, p2, ... and t1, t2, ...), so a file does not
    depend on the database it came from: importing it elsewhere and exporting gives it back.
    """
    regulation = tournament.regulation
    played = sorted(games, key=lambda g: (regulation.stage_index(g.stage), g.round, g.table))
    players, team_entries = standings_entries(participants, teams, [PlayedGame(g) for g in played])
    team_ids = {team.id: f"t{number}" for number, team in enumerate(team_entries, start=1)}
    player_ids = {player.id: f"p{number}" for number, player in enumerate(players, start=1)}
    return interchange.Tournament(
        regulation=regulation,
        preset=None if tournament.regulation_json else tournament.regulation_id,
        players=tuple(
            PlayerEntry(
                player_ids[p.id], p.nickname, team_ids[p.team] if p.team else None, p.excluded
            )
            for p in players
        ),
        teams=tuple(TeamEntry(team_ids[t.id], t.name) for t in team_entries),
        games=tuple(replace(g, protocol=_renamed(g.protocol, player_ids)) for g in played),
        logs=dict(logs or {}),
    )


def _renamed(protocol: Protocol, names: Mapping[str, str]) -> Protocol:
    """The protocol with its players named as `names` says (file ids or participant keys)."""
    seats = tuple(replace(seat, player=names[seat.player]) for seat in protocol.seats)
    return replace(protocol, seats=seats)


class ExportService:
    """Tournament files: exported as CSV or the interchange file, and imported."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def export_csv(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> tuple[Tournament, str]:
        """The participants as CSV, for those allowed to export."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EXPORT)
            participants = await uow.participants.of_tournament(tournament.id)
            teams = await uow.teams.of_tournament(tournament.id)
            await uow.commit()
        return tournament, participants_csv(participants, teams)

    async def dump_tournament(self, tournament_id: int) -> str:
        """The text of the tournament's `mafia-tournament/1` file (the shell's export)."""
        async with self._uow() as uow:
            tournament = await uow.tournaments.get(tournament_id)
            if tournament is None:
                raise LookupError(f"no tournament {tournament_id}")
            participants = await uow.participants.of_tournament(tournament.id)
            teams = await uow.teams.of_tournament(tournament.id)
            # The games that count: an annulled game would count for everyone reading the file.
            games = [game.record for game in await played_games(uow, tournament)]
            logs = await _live_logs(uow, tournament)
        return interchange.dumps_tournament(
            tournament_file(tournament, participants, teams, games, logs)
        )

    async def export_file(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> tuple[Tournament, str]:
        """The tournament's file, for those allowed to export."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EXPORT)
            await uow.commit()
        return tournament, await self.dump_tournament(tournament.id)

    async def import_tournament(self, owner: Actor, text: str, title: str) -> Tournament:
        """Load a `mafia-tournament/1` file as a new tournament, in one transaction.

        An invalid file raises `interchange.InterchangeError` listing every problem; nothing is
        stored then. The players come without Telegram accounts. The games are stored as the
        rounds screens store them (stages, published rounds, tables and seats; no judges) with
        their protocols confirmed by `owner` at his moment, and the standings are computed and
        stored as after a confirmation. A tournament with games is running in the last stage it
        played, so the organizer can go on from there; one without games has its registration
        closed.
        """
        loaded = interchange.load_tournament(text)
        async with self._uow() as uow:
            tournament = await store_imported(uow, owner, loaded, title)
            await uow.commit()
            return tournament


async def _live_logs(
    uow: UnitOfWork, tournament: Tournament
) -> dict[tuple[str, int, int], tuple[Entry, ...]]:
    """The logs of the games the judges ran live, by (stage, round, table)."""
    places: dict[int, tuple[str, int, int]] = {}
    for stage in tournament.regulation.stages:
        seated = await uow.rounds.stage(tournament.id, stage.id)
        for round_ in seated.rounds if seated is not None else ():
            for game in round_.games:
                places[game.id] = (stage.id, round_.number, game.table)
    logs = await uow.game_logs.logs(list(places))
    return {places[game_id]: log for game_id, log in logs.items()}


async def store_imported(
    uow: UnitOfWork,
    owner: Actor,
    loaded: interchange.Tournament,
    title: str,
    *,
    starts_on: date | None = None,
    finished: bool = False,
    person_of: Callable[[str], int | None] | None = None,
) -> Tournament:
    """Store a loaded file as a new tournament in `uow` (not committed): `import_tournament`
    and the season's import into a series (`starts_on` its day, `finished` a tournament of
    the past, `person_of` the person a nickname is matched to, None for a new one)."""
    regulation = loaded.regulation
    stages = [
        stage.id for stage in regulation.stages if any(g.stage == stage.id for g in loaded.games)
    ]
    state = TournamentState.RUNNING if stages else TournamentState.REGISTRATION_CLOSED
    tournament = await uow.tournaments.add(
        Tournament(
            id=0,
            title=title,
            regulation_id=regulation.id,
            regulation_json=None if loaded.preset else regulation.model_dump_json(),
            state=TournamentState.FINISHED if finished and stages else state,
            current_stage=stages[-1] if stages else None,
            timezone="UTC",
            created_by=owner.user_id,
            created_at=owner.now,
            capacity=len(loaded.players),
            entry_fee=regulation.entry_fee.amount if regulation.entry_fee else None,
            starts_on=starts_on,
            ends_on=starts_on,
        )
    )
    keys = await _store_players(uow, tournament.id, loaded, owner.now, person_of)
    await _store_games(uow, tournament, loaded.games, keys, owner, loaded.logs)
    return tournament


async def _store_players(
    uow: UnitOfWork,
    tournament_id: int,
    loaded: interchange.Tournament,
    now: datetime,
    person_of: Callable[[str], int | None] | None = None,
) -> dict[str, str]:
    """Register the file's players and teams; each file id's participant key."""
    team_ids: dict[PlayerKey, int] = {}
    for entry in loaded.teams:
        team = await uow.teams.add(_placeholder_team(tournament_id, entry.name))
        team_ids[entry.id] = team.id
    keys: dict[str, str] = {}
    captains: dict[int, int] = {}
    for number, player in enumerate(loaded.players):
        stored = await uow.participants.add(
            Participant(
                id=0,
                tournament_id=tournament_id,
                user_id=None,
                nickname=player.nickname,
                club="-",
                city="-",
                status=(
                    ParticipantStatus.EXCLUDED if player.excluded else ParticipantStatus.REGISTERED
                ),
                registered_at=now.replace(microsecond=0) + _tick(number),
                team_id=team_ids.get(player.team) if player.team else None,
                person_id=person_of(player.nickname) if person_of is not None else None,
            )
        )
        keys[player.id] = participant_key(stored.id)
        if stored.team_id is not None:
            captains.setdefault(stored.team_id, stored.id)
    for team_id, captain_id in captains.items():
        captained = await uow.teams.get(team_id)
        assert captained is not None
        await uow.teams.save(replace(captained, captain_id=captain_id))
    return keys


async def _store_games(
    uow: UnitOfWork,
    tournament: Tournament,
    games: Sequence[GameRecord],
    keys: Mapping[str, str],
    owner: Actor,
    logs: Mapping[tuple[str, int, int], tuple[Entry, ...]],
) -> None:
    """Store the games with their protocols confirmed (the standings are computed from them on
    every read) and the logs of those run live."""
    if not games:
        return
    await uow.protocols.start_standings(tournament.id)
    await uow.protocols.lock_standings(tournament.id)
    for stage in tournament.regulation.stages:
        played = [game for game in games if game.stage == stage.id]
        if not played:
            continue
        seats = {
            (game.round, game.table): [int(keys[seat.player]) for seat in game.protocol.seats]
            for game in played
        }
        # The file does not say how the stage was seated: seed 0 stands for "not generated".
        game_ids = await uow.rounds.add_played_stage(tournament.id, stage.id, 0, owner.now, seats)
        for game in played:
            game_id = game_ids[(game.round, game.table)]
            await uow.protocols.advance_game(game_id, 0, None)
            await uow.protocols.store(
                game_id, _renamed(game.protocol, keys), owner.user_id, owner.now
            )
            log = logs.get((game.stage, game.round, game.table))
            if log:
                await uow.game_logs.save(game_id, log, 0, owner.user_id, owner.now)


def _placeholder_team(tournament_id: int, name: str) -> Team:
    # The captain is set once the members are stored: the first member listed leads.
    return Team(0, tournament_id, name, captain_id=0)


def _tick(number: int) -> timedelta:
    # Keeps the file's order as the registration order.
    return timedelta(microseconds=number)
