"""Use cases of captains: create a team, invite by link, remove a member, withdraw the team."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from domain.actor import Actor
from domain.invites import Invite, InviteKind
from domain.outgoing import OutgoingMessage
from domain.permissions import Action, Forbidden
from domain.registration import Participant, ParticipantStatus
from domain.services.access import (
    NotFound,
    authorize,
    load_tournament,
    notice,
    read_locked,
    record,
)
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.services.registration import promote_waiting, tell_captain, withdraw_members
from domain.services.tournaments import new_token
from domain.teams import (
    Team,
    check_can_join,
    check_may_remove,
    check_may_withdraw,
    check_name_free,
    incomplete_teams,
    members,
)
from domain.tournament import Tournament
from domain.validation import Invalid


@dataclass(frozen=True, slots=True)
class TeamView:
    """A team with its members and its invite link, as the captain sees it."""

    tournament: Tournament
    team: Team
    members: tuple[Participant, ...]
    invite_payload: str
    size: int

    @property
    def complete(self) -> bool:
        """Whether every member has a place and the team has the regulation's size."""
        playing = [m for m in self.members if m.status is ParticipantStatus.REGISTERED]
        return len(playing) == self.size


async def _own_participant(uow: UnitOfWork, actor: Actor, tournament: Tournament) -> Participant:
    participant = await uow.participants.of_person(tournament.id, actor.user_id)
    if participant is None or not participant.holds_place:
        raise Forbidden(Action.EDIT_OWN_REGISTRATION)
    return participant


async def _invite(uow: UnitOfWork, team: Team, now: datetime) -> Invite:
    invite = await uow.invites.find(InviteKind.TEAM, team.tournament_id, team.id)
    if invite is None:
        invite = Invite(new_token(), InviteKind.TEAM, team.tournament_id, team.id, now)
        await uow.invites.add(invite)
    return invite


async def _view(uow: UnitOfWork, tournament: Tournament, team: Team, now: datetime) -> TeamView:
    participants = await uow.participants.of_team(team.id)
    invite = await _invite(uow, team, now)
    size = tournament.regulation.team_size or 0
    return TeamView(tournament, team, tuple(members(team, participants)), invite.payload, size)


class TeamService:
    """Teams of a team tournament: created by a captain, joined, left, withdrawn, and reminded
    when incomplete."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def create_team(self, actor: Actor, tournament_id: int, name: str) -> TeamView:
        """A registered player without a team creates one and becomes its captain."""
        async with self._uow() as uow:
            # Two captains naming their teams alike at once would both find the name free.
            await uow.tournaments.lock(tournament_id)
            tournament = await load_tournament(uow, tournament_id, actor.now)
            if not tournament.is_team_tournament:
                raise Invalid("team-not-team-tournament")
            if tournament.has_started:
                raise Invalid("team-change-after-start")
            captain = await _own_participant(uow, actor, tournament)
            if captain.team_id is not None:
                raise Invalid("team-already-member")
            check_name_free(name, await uow.teams.of_tournament(tournament.id))
            team = await uow.teams.add(Team(0, tournament.id, name, captain.id))
            await uow.participants.save(replace(captain, team_id=team.id))
            view = await _view(uow, tournament, team, actor.now)
            await uow.commit()
            return view

    async def team_of(self, actor: Actor, tournament_id: int) -> TeamView | None:
        """The team of a player, None if he has none."""
        async with self._uow() as uow:
            tournament = await load_tournament(uow, tournament_id, actor.now)
            participant = await _own_participant(uow, actor, tournament)
            team = await uow.teams.get(participant.team_id) if participant.team_id else None
            if team is None:
                return None
            view = await _view(uow, tournament, team, actor.now)
            await uow.commit()
            return view

    async def own_team(self, actor: Actor, team_id: int) -> TeamView | None:
        """The player's team `team_id`, None when it is gone or not his (a stale button)."""
        async with self._uow() as uow:
            team = await uow.teams.get(team_id)
        view = await self.team_of(actor, team.tournament_id) if team else None
        return view if view is not None and view.team.id == team_id else None

    async def join_team(self, actor: Actor, team_id: int) -> tuple[TeamView, list[OutgoingMessage]]:
        """A registered player without a team joins one by its invite link; the captain is told."""
        async with self._uow() as uow:
            team = await _locked_team(uow, team_id)
            tournament = await load_tournament(uow, team.tournament_id, actor.now)
            if tournament.has_started:
                raise Invalid("team-change-after-start")
            participant = await _own_participant(uow, actor, tournament)
            if participant.team_id is not None:
                raise Invalid("team-already-member")
            check_can_join(
                team,
                await uow.participants.of_team(team.id),
                tournament.regulation.team_size or 0,
            )
            await uow.participants.save(replace(participant, team_id=team.id))
            view = await _view(uow, tournament, team, actor.now)
            joined = await tell_captain(uow, tournament, team, participant, joined=True)
            notices = await record(uow, joined)
            await uow.commit()
        return view, notices

    async def remove_member(
        self, actor: Actor, team_id: int, member_id: int
    ) -> tuple[TeamView, list[OutgoingMessage]]:
        """The captain removes a member before the start; the member stays registered, teamless."""
        async with self._uow() as uow:
            tournament, team = await _captained_team(uow, actor, team_id)
            tournament = await load_tournament(uow, tournament.id, actor.now)
            member = await uow.participants.get(member_id)
            if member is None:
                raise NotFound(f"participant {member_id}")
            check_may_remove(tournament, team, member)
            await uow.participants.save(replace(member, team_id=None))
            view = await _view(uow, tournament, team, actor.now)
            notices = []
            if member.user_id is not None:
                notices.append(
                    notice(member.user_id, tournament.id, "notice-team-removed", team=team.name)
                )
            await record(uow, notices)
            await uow.commit()
        return view, notices

    async def withdraw_team(self, actor: Actor, team_id: int) -> list[OutgoingMessage]:
        """The captain withdraws the team, only before the tournament starts (regulation)."""
        async with self._uow() as uow:
            tournament, team = await _captained_team(uow, actor, team_id)
            tournament = await load_tournament(uow, tournament.id, actor.now)
            check_may_withdraw(tournament)
            notices = await withdraw_members(uow, tournament, team)
            notices += await promote_waiting(uow, tournament)
            await record(uow, notices)
            await uow.commit()
            return notices

    async def remind_incomplete_teams(
        self, actor: Actor, tournament_id: int
    ) -> list[OutgoingMessage]:
        """The organizer's reminders to the captains of teams still short of players."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.EDIT_SETTINGS)
            participants = await uow.participants.of_tournament(tournament.id)
            teams = await uow.teams.of_tournament(tournament.id)
            notices = _reminders(tournament, teams, participants)
            await record(uow, notices)
            await uow.commit()
            return notices


async def _locked_team(uow: UnitOfWork, team_id: int) -> Team:
    """The team, read under its tournament's lock: two changes of its members at once would
    each count them (a join: the seats left; a withdrawal: the places freed) before the other
    commits (PostgreSQL)."""
    return await read_locked(uow, lambda: uow.teams.get(team_id), f"team {team_id}")


async def _captained_team(uow: UnitOfWork, actor: Actor, team_id: int) -> tuple[Tournament, Team]:
    team = await _locked_team(uow, team_id)
    captain = await uow.participants.get(team.captain_id)
    if captain is None or captain.user_id != actor.user_id:
        raise Forbidden(Action.EDIT_OWN_REGISTRATION)
    tournament = await uow.tournaments.get(team.tournament_id)
    assert tournament is not None
    return tournament, team


def _reminders(
    tournament: Tournament, teams: list[Team], participants: list[Participant]
) -> list[OutgoingMessage]:
    size = tournament.regulation.team_size
    if size is None or tournament.has_started:
        return []
    by_id = {p.id: p for p in participants}
    notices = []
    for team in incomplete_teams(teams, participants, size):
        captain = by_id.get(team.captain_id)
        if captain is not None and captain.user_id is not None:
            count = len(members(team, participants))
            notices.append(
                notice(
                    captain.user_id,
                    tournament.id,
                    "notice-team-incomplete",
                    team=team.name,
                    count=count,
                    size=size,
                )
            )
    return notices
