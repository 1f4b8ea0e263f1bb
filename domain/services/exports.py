"""Export and import: the participants as CSV, the tournament as a `mafia-tournament/1` file."""

from __future__ import annotations

import csv
import io
from collections.abc import Collection
from dataclasses import replace
from datetime import datetime, timedelta

from domain import interchange
from domain.permissions import Action
from domain.registration import Participant, ParticipantStatus
from domain.services.access import authorize
from domain.services.ports import UnitOfWorkFactory
from domain.standings import PlayerEntry, TeamEntry
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
# The statuses whose players stand in the file: everyone who plays or played.
IN_FILE = frozenset(
    {
        ParticipantStatus.REGISTERED,
        ParticipantStatus.NO_SHOW,
        ParticipantStatus.EXCLUDED,
        ParticipantStatus.REPLACED,
    }
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
    tournament: Tournament, participants: Collection[Participant], teams: Collection[Team]
) -> interchange.Tournament:
    """The tournament in the interchange model: its regulation, players and teams."""
    players = tuple(
        PlayerEntry(f"p{p.id}", p.nickname, f"t{p.team_id}" if p.team_id else None)
        for p in participants
        if p.status in IN_FILE
    )
    used = {player.team for player in players}
    entries = tuple(TeamEntry(f"t{t.id}", t.name) for t in teams if f"t{t.id}" in used)
    preset = None if tournament.regulation_json else tournament.regulation_id
    return interchange.Tournament(tournament.regulation, preset, players, entries, ())


async def export_csv(
    uow_factory: UnitOfWorkFactory,
    tournament_id: int,
    user_id: int,
    admin_ids: Collection[int],
    now: datetime,
) -> tuple[Tournament, str]:
    """The participants as CSV, for those allowed to export."""
    async with uow_factory() as uow:
        tournament = await authorize(uow, tournament_id, user_id, admin_ids, Action.EXPORT, now)
        participants = await uow.participants.of_tournament(tournament.id)
        teams = await uow.teams.of_tournament(tournament.id)
        await uow.commit()
    return tournament, participants_csv(participants, teams)


async def dump_tournament(uow_factory: UnitOfWorkFactory, tournament_id: int) -> str:
    """The text of the tournament's `mafia-tournament/1` file (the shell's export)."""
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            raise LookupError(f"no tournament {tournament_id}")
        participants = await uow.participants.of_tournament(tournament.id)
        teams = await uow.teams.of_tournament(tournament.id)
    return interchange.dumps_tournament(tournament_file(tournament, participants, teams))


async def export_file(
    uow_factory: UnitOfWorkFactory,
    tournament_id: int,
    user_id: int,
    admin_ids: Collection[int],
    now: datetime,
) -> tuple[Tournament, str]:
    """The tournament's file, for those allowed to export."""
    async with uow_factory() as uow:
        tournament = await authorize(uow, tournament_id, user_id, admin_ids, Action.EXPORT, now)
        await uow.commit()
    return tournament, await dump_tournament(uow_factory, tournament.id)


async def import_tournament(
    uow_factory: UnitOfWorkFactory, text: str, owner_id: int, title: str, now: datetime
) -> Tournament:
    """Load a `mafia-tournament/1` file as a new tournament with closed registration.

    An invalid file raises `interchange.InterchangeError` listing its problems; nothing is
    stored then. The players come without Telegram accounts; played games are checked but
    kept only in the file until the games are stored by the rounds screens.
    """
    loaded = interchange.load_tournament(text)
    regulation = loaded.regulation
    async with uow_factory() as uow:
        tournament = await uow.tournaments.add(
            Tournament(
                id=0,
                title=title,
                regulation_id=regulation.id,
                regulation_json=None if loaded.preset else regulation.model_dump_json(),
                state=TournamentState.REGISTRATION_CLOSED,
                timezone="UTC",
                created_by=owner_id,
                created_at=now,
                capacity=len(loaded.players),
                entry_fee=regulation.entry_fee.amount if regulation.entry_fee else None,
            )
        )
        team_ids: dict[str, int] = {}
        for entry in loaded.teams:
            team = await uow.teams.add(_placeholder_team(tournament.id, entry.name))
            team_ids[entry.id] = team.id
        captains: dict[int, int] = {}
        for number, player in enumerate(loaded.players):
            stored = await uow.participants.add(
                Participant(
                    id=0,
                    tournament_id=tournament.id,
                    user_id=None,
                    nickname=player.nickname,
                    club="-",
                    city="-",
                    status=ParticipantStatus.REGISTERED,
                    registered_at=now.replace(microsecond=0) + _tick(number),
                    team_id=team_ids.get(player.team) if player.team else None,
                )
            )
            if stored.team_id is not None:
                captains.setdefault(stored.team_id, stored.id)
        for team_id, captain_id in captains.items():
            team = await uow.teams.get(team_id)
            assert team is not None
            await uow.teams.save(replace(team, captain_id=captain_id))
        await uow.commit()
        return tournament


def _placeholder_team(tournament_id: int, name: str) -> Team:
    # The captain is set once the members are stored: the first member listed leads.
    return Team(0, tournament_id, name, captain_id=0)


def _tick(number: int) -> timedelta:
    # Keeps the file's order as the registration order.
    return timedelta(microseconds=number)
