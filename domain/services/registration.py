"""Use cases of players: register by link, edit, withdraw; the waiting list moves up by itself."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypedDict

from domain.actor import Actor
from domain.invites import Invite, split_payload
from domain.outgoing import OutgoingMessage
from domain.permissions import Action, Forbidden, Role, require
from domain.registration import (
    Application,
    Participant,
    ParticipantStatus,
    check_club_quota,
    check_nickname_free,
    initial_status,
    may_change_registration,
    places_to_give,
    registration_refusal,
)
from domain.services.access import (
    NotFound,
    authorize,
    load_tournament,
    notice,
    read_locked,
    record,
    roles_in,
)
from domain.services.ports import UnitOfWork, UnitOfWorkFactory
from domain.teams import Team, check_can_join, is_complete, playing_members
from domain.tournament import Tournament
from domain.validation import Invalid


class _Entry(TypedDict):
    """What a registration writes, whether the person registers anew or comes back."""

    nickname: str
    club: str
    city: str
    status: ParticipantStatus
    registered_at: datetime
    team_id: int | None


@dataclass(frozen=True, slots=True)
class Registration:
    """A person's place in a tournament, as the registration screen shows it."""

    tournament: Tournament
    participant: Participant | None
    team: Team | None = None
    # Who plays the remaining games of a replaced (or excluded) participant.
    substitute: Participant | None = None

    @property
    def left(self) -> bool:
        """The person is out of the tournament by the judges' decision (replaced, excluded):
        the registration link tells him so instead of inviting him to register anew."""
        return self.participant is not None and self.participant.status in (
            ParticipantStatus.REPLACED,
            ParticipantStatus.EXCLUDED,
        )


class RegistrationService:
    """A player's registration: the link, his application, its changes and withdrawal, the
    roster and the payments."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def open_registration_link(
        self, actor: Actor, payload: str
    ) -> tuple[Invite, Registration] | None:
        """The tournament invite a `/start` payload names and the person's registration in its
        tournament, read in one unit of work; None for an unknown or used link or one that names
        no tournament."""
        parts = split_payload(payload)
        if parts is None:
            return None
        async with self._uow() as uow:
            invite = await uow.invites.get(parts[1])
            if (
                invite is None
                or invite.kind is not parts[0]
                or invite.used_by is not None
                or invite.tournament_id is None
            ):
                return None
            mine = await _registration(uow, actor, invite.tournament_id)
            await uow.commit()
            return invite, mine

    async def registration_of(self, actor: Actor, tournament_id: int) -> Registration:
        """The person's registration (or its absence) in a tournament."""
        async with self._uow() as uow:
            mine = await _registration(uow, actor, tournament_id)
            await uow.commit()
            return mine

    async def register(
        self,
        actor: Actor,
        tournament_id: int,
        application: Application,
        team_id: int | None = None,
    ) -> Registration:
        """Register a person: a place if one is free, the waiting list otherwise; returns his
        registration as the registration screen shows it, read in the same unit of work.

        Refused (`Invalid`) when registration is closed, the nickname is taken, the club's quota is
        full or the team is full; nothing is stored then.
        """
        async with self._uow() as uow:
            # Before anything is counted (places, the club's players, the team's members): two
            # registrations counting at once would both take the last place (PostgreSQL).
            await uow.tournaments.lock(tournament_id)
            tournament = await load_tournament(uow, tournament_id, actor.now)
            closed = registration_refusal(tournament, actor.now)
            if closed is not None:
                await uow.commit()
                raise Invalid(closed)
            earlier = await uow.participants.of_person(tournament.id, actor.user_id)
            if earlier is not None and earlier.holds_place:
                raise Invalid("already-registered")
            require(await roles_in(uow, actor, tournament), Action.REGISTER)
            others = await _rivals(uow, tournament, application)
            check_nickname_free(application.nickname, others)
            check_club_quota(application.club, tournament.club_quota, others)
            team = await _team_to_join(uow, tournament, team_id)
            if team is not None:
                members = await uow.participants.of_team(team.id)
                check_can_join(team, members, tournament.regulation.team_size or 0)
            values: _Entry = {
                "nickname": application.nickname,
                "club": application.club,
                "city": application.city,
                "status": initial_status(
                    tournament.capacity, await uow.participants.places(tournament.id)
                ),
                "registered_at": actor.now,
                "team_id": team.id if team else None,
            }
            if earlier is not None:
                participant = replace(earlier, **values, paid=False, checked_in=False)
                await uow.participants.save(participant)
            else:
                participant = await uow.participants.add(
                    Participant(id=0, tournament_id=tournament.id, user_id=actor.user_id, **values)
                )
            if team is not None:
                await record(
                    uow, await tell_captain(uow, tournament, team, participant, joined=True)
                )
            await uow.commit()
            return Registration(tournament, participant, team)

    async def edit_registration(
        self,
        actor: Actor,
        tournament_id: int,
        application: Application,
    ) -> Participant:
        """Change a player's nickname, club or city until the tournament starts."""
        async with self._uow() as uow:
            await uow.tournaments.lock(tournament_id)  # the club's quota is counted
            tournament = await load_tournament(uow, tournament_id, actor.now)
            participant = await _own_place(uow, actor, tournament)
            others = await _rivals(uow, tournament, application)
            check_nickname_free(application.nickname, others, participant.id)
            check_club_quota(application.club, tournament.club_quota, others, participant.id)
            participant = replace(
                participant,
                nickname=application.nickname,
                club=application.club,
                city=application.city,
            )
            await uow.participants.save(participant)
            await uow.commit()
            return participant

    async def withdraw(self, actor: Actor, tournament_id: int) -> list[OutgoingMessage]:
        """Withdraw a player before the start; a captain's withdrawal takes his team out.

        Returns the notices to push: promotions from the waiting list, teammates told.
        """
        async with self._uow() as uow:
            # Two withdrawals counting the free places at once would promote the same player.
            await uow.tournaments.lock(tournament_id)
            tournament = await load_tournament(uow, tournament_id, actor.now)
            participant = await _own_place(uow, actor, tournament)
            notices: list[OutgoingMessage] = []
            team = await uow.teams.get(participant.team_id) if participant.team_id else None
            if team is not None and team.captain_id == participant.id:
                notices += await withdraw_members(uow, tournament, team)
            else:
                await uow.participants.save(
                    replace(participant, status=ParticipantStatus.WITHDRAWN, team_id=None)
                )
                if team is not None:
                    notices += await tell_captain(uow, tournament, team, participant, joined=False)
            notices += await promote_waiting(uow, tournament)
            await record(uow, notices)
            await uow.commit()
            return notices

    async def roster(
        self,
        actor: Actor,
        tournament_id: int,
    ) -> Roster:
        """The tournament's participants and teams, for those allowed to see them."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.VIEW_PARTICIPANTS)
            result = Roster(
                tournament=tournament,
                roles=await roles_in(uow, actor, tournament),
                participants=tuple(await uow.participants.of_tournament(tournament.id)),
                teams=tuple(await uow.teams.of_tournament(tournament.id)),
                unreachable=frozenset(await uow.participants.unreachable(tournament.id)),
            )
            await uow.commit()
            return result

    async def participant(self, participant_id: int) -> Participant | None:
        """A participant by his number, before his tournament's roster is asked for."""
        async with self._uow() as uow:
            return await uow.participants.get(participant_id)

    async def mark_paid(
        self,
        actor: Actor,
        participant_id: int,
        paid: bool,
    ) -> Participant:
        """The organizer marks that a player paid the entry fee (or takes the mark back)."""
        async with self._uow() as uow:
            _, participant = await locked_participant(uow, actor, participant_id, Action.MARK_PAID)
            participant = replace(participant, paid=paid)
            await uow.participants.save(participant)
            await uow.commit()
            return participant


async def locked_participant(
    uow: UnitOfWork, actor: Actor, participant_id: int, action: Action
) -> tuple[Tournament, Participant]:
    """The participant, read under his tournament's lock, and the tournament, for one allowed
    to take `action` on him: two decisions on one player at once (two substitutes for one
    no-show, one waiting player for two) would each read him before the other commits."""
    participant = await read_locked(
        uow, lambda: uow.participants.get(participant_id), f"participant {participant_id}"
    )
    tournament = await authorize(uow, actor, participant.tournament_id, action)
    return tournament, participant


async def _team_to_join(
    uow: UnitOfWork, tournament: Tournament, team_id: int | None
) -> Team | None:
    if team_id is None:
        return None
    team = await uow.teams.get(team_id)
    if team is None or team.tournament_id != tournament.id:
        raise NotFound(f"team {team_id}")
    return team


async def _registration(uow: UnitOfWork, actor: Actor, tournament_id: int) -> Registration:
    tournament = await load_tournament(uow, tournament_id, actor.now)
    participant = await uow.participants.of_person(tournament_id, actor.user_id)
    team = None
    if participant is not None and participant.team_id is not None:
        team = await uow.teams.get(participant.team_id)
    substitute = None
    if participant is not None and not participant.holds_place:
        substitute = await uow.participants.substitute_of(participant.id)
    return Registration(tournament, participant, team, substitute)


async def _own_place(uow: UnitOfWork, actor: Actor, tournament: Tournament) -> Participant:
    participant = await uow.participants.of_person(tournament.id, actor.user_id)
    if participant is None or not participant.holds_place:
        raise Forbidden(Action.EDIT_OWN_REGISTRATION)
    if not may_change_registration(tournament):
        raise Invalid("registration-frozen")
    return participant


async def withdraw_members(
    uow: UnitOfWork, tournament: Tournament, team: Team
) -> list[OutgoingMessage]:
    """Take a team out: the team is marked withdrawn and its members leave with it."""
    await uow.teams.save(replace(team, withdrawn=True))
    notices = []
    for member in await uow.participants.of_team(team.id):
        if member.holds_place:
            await uow.participants.save(replace(member, status=ParticipantStatus.WITHDRAWN))
            if member.user_id is not None and member.id != team.captain_id:
                notices.append(
                    notice(member.user_id, tournament.id, "notice-team-withdrawn", team=team.name)
                )
    return notices


async def tell_captain(
    uow: UnitOfWork,
    tournament: Tournament,
    team: Team | None,
    member: Participant,
    *,
    joined: bool,
    left_key: str = "notice-team-left",
) -> list[OutgoingMessage]:
    """The captain's notice that `member` joined his team (or that it is complete now) or left
    it (`left_key` says how), with how many players it has; nothing when the captain himself
    is the one. `team` None: the member's own team, if he has one."""
    if team is None and member.team_id is not None:
        team = await uow.teams.get(member.team_id)
    if team is None:
        return []
    captain = await uow.participants.get(team.captain_id)
    if captain is None or captain.user_id is None or captain.id == member.id:
        return []
    participants = await uow.participants.of_team(team.id)
    size = tournament.regulation.team_size or 0
    if not joined:
        key = left_key
    elif is_complete(team, participants, size):
        key = "notice-team-complete"
    else:
        key = "notice-team-joined"
    return [
        notice(
            captain.user_id,
            tournament.id,
            key,
            team=team.name,
            nickname=member.nickname,
            count=len(playing_members(team, participants)),
            size=size,
        )
    ]


async def promote_waiting(uow: UnitOfWork, tournament: Tournament) -> list[OutgoingMessage]:
    """Give freed places to the waiting list in order and tell each promoted player."""
    if tournament.has_started:
        return []
    free = places_to_give(tournament.capacity, await uow.participants.places(tournament.id))
    notices = []
    promoted_now = await uow.participants.first_waiting(tournament.id, free)
    for promoted in promoted_now:
        await uow.participants.save(replace(promoted, status=ParticipantStatus.REGISTERED))
        if promoted.user_id is not None:
            notices.append(
                notice(
                    promoted.user_id, tournament.id, "notice-promoted", tournament=tournament.title
                )
            )
    if promoted_now and tournament.regulation.team_size is not None:
        notices += await _tell_captains_of_promotions(uow, tournament, promoted_now)
    return notices


async def _tell_captains_of_promotions(
    uow: UnitOfWork, tournament: Tournament, promoted: Sequence[Participant]
) -> list[OutgoingMessage]:
    """Each captain whose team members got places: who did, and whether the team is complete
    now (a captain promoted himself hears of his team being complete)."""
    size = tournament.regulation.team_size or 0
    notices = []
    for team_id in dict.fromkeys(p.team_id for p in promoted if p.team_id is not None):
        participants = await uow.participants.of_team(team_id)
        team = await uow.teams.get(team_id)
        captain = await uow.participants.get(team.captain_id) if team is not None else None
        if team is None or captain is None or captain.user_id is None:
            continue
        names = ", ".join(p.nickname for p in promoted if p.team_id == team_id)
        complete = is_complete(team, participants, size)
        if not complete and all(p.id == captain.id for p in promoted if p.team_id == team_id):
            continue  # the captain's own place: his "promoted" notice says it
        notices.append(
            notice(
                captain.user_id,
                tournament.id,
                "notice-team-complete-promoted" if complete else "notice-team-member-promoted",
                team=team.name,
                nickname=names,
                count=len(playing_members(team, participants)),
                size=size,
            )
        )
    return notices


@dataclass(frozen=True, slots=True)
class Roster:
    """Everyone registered and every team, for the organizer's and judges' lists."""

    tournament: Tournament
    roles: frozenset[Role]
    participants: tuple[Participant, ...]
    teams: tuple[Team, ...]
    # Telegram ids the bot cannot write to (they blocked it).
    unreachable: frozenset[int]


async def _rivals(
    uow: UnitOfWork, tournament: Tournament, application: Application
) -> list[Participant]:
    """Those the nickname rule and the club's quota compare the application with (the
    club's players only when the tournament has a quota), found by the storage's index."""
    club = application.club if tournament.club_quota is not None else None
    return await uow.participants.rivals(tournament.id, application.nickname, club)
