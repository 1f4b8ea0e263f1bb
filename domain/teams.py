"""Teams of a team tournament: completion, membership and the no-withdrawal rule."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.registration import Participant, ParticipantStatus
from domain.tournament import Tournament
from domain.validation import Invalid, nickname_key


@dataclass(frozen=True, slots=True)
class Team:
    """A team: its captain created it and invites the others by a link."""

    id: int
    tournament_id: int
    name: str
    captain_id: int
    withdrawn: bool = False


def members(team: Team, participants: Iterable[Participant]) -> list[Participant]:
    """The team's members who hold a place (registered or waiting)."""
    return [p for p in participants if p.team_id == team.id and p.holds_place]


def playing_members(team: Team, participants: Iterable[Participant]) -> list[Participant]:
    """The team's members with a place in the tournament (not on the waiting list)."""
    return [
        p for p in participants if p.team_id == team.id and p.status is ParticipantStatus.REGISTERED
    ]


def is_complete(team: Team, participants: Iterable[Participant], size: int) -> bool:
    """A team is complete when it has exactly the regulation's number of playing members."""
    return len(playing_members(team, participants)) == size


def incomplete_teams(
    teams: Sequence[Team], participants: Sequence[Participant], size: int
) -> list[Team]:
    """Teams still in the tournament that are short of players (or wait for places)."""
    return [
        team
        for team in teams
        if not team.withdrawn
        and members(team, participants)
        and not is_complete(team, participants, size)
    ]


def check_name_free(name: str, teams: Iterable[Team]) -> None:
    """Refuse a team name already used in the tournament (case ignored)."""
    key = nickname_key(name)
    if any(not team.withdrawn and nickname_key(team.name) == key for team in teams):
        raise Invalid("team-name-taken", name=name)


def check_can_join(team: Team, participants: Iterable[Participant], size: int) -> None:
    """Refuse a member for a withdrawn or full team."""
    if team.withdrawn:
        raise Invalid("team-join-withdrawn", name=team.name)
    if len(members(team, participants)) >= size:
        raise Invalid("team-full", name=team.name, size=size)


def check_may_withdraw(tournament: Tournament) -> None:
    """A team may not withdraw once the tournament has started (regulation)."""
    if tournament.has_started:
        raise Invalid("team-withdraw-after-start")


def check_may_remove(tournament: Tournament, team: Team, member: Participant) -> None:
    """The captain may remove a member (not himself) before the start."""
    if tournament.has_started:
        raise Invalid("team-change-after-start")
    if member.team_id != team.id or not member.holds_place:
        raise Invalid("team-not-member")
    if member.id == team.captain_id:
        raise Invalid("team-captain-stays")
