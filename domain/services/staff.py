"""Use cases of staffing: organizers appointed by admins, judges invited by the organizer."""

from __future__ import annotations

from dataclasses import dataclass

from domain.actor import Actor
from domain.invites import Invite, InviteKind
from domain.permissions import Action, Forbidden, StaffRole
from domain.services.access import NotFound, authorize
from domain.services.ports import UnitOfWorkFactory
from domain.services.tournaments import new_token

_STAFF_KINDS = {
    StaffRole.CHIEF_JUDGE: InviteKind.CHIEF_JUDGE,
    StaffRole.TABLE_JUDGE: InviteKind.TABLE_JUDGE,
}


class StaffService:
    """Staff invitations: an organizer or a judge invited by a link and accepting it."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def invite_organizer(self, actor: Actor) -> Invite:
        """A one-time link that makes whoever opens it an organizer; admins only."""
        if not actor.is_admin:
            raise Forbidden(Action.INVITE_STAFF)
        invite = Invite(new_token(), InviteKind.ORGANIZER, None, None, actor.now)
        async with self._uow() as uow:
            await uow.invites.add(invite)
            await uow.commit()
        return invite

    async def invite_judge(
        self,
        actor: Actor,
        tournament_id: int,
        role: StaffRole,
    ) -> Invite:
        """A one-time link that makes whoever opens it the chief judge or a table judge."""
        async with self._uow() as uow:
            tournament = await authorize(uow, actor, tournament_id, Action.INVITE_STAFF)
            invite = Invite(new_token(), _STAFF_KINDS[role], tournament.id, None, actor.now)
            await uow.invites.add(invite)
            await uow.commit()
        return invite

    async def accept_staff_invite(self, actor: Actor, token: str) -> Appointment:
        """Take the role a judge's or organizer's link gives; the link then stops working."""
        title = None
        async with self._uow() as uow:
            invite = await uow.invites.get(token)
            if invite is None or invite.used_by is not None or not invite.kind.single_use:
                raise NotFound("invite")
            if invite.kind is InviteKind.ORGANIZER:
                await uow.staff.appoint_organizer(actor.user_id, appointed_by=0, at=actor.now)
            else:
                assert invite.tournament_id is not None
                participant = await uow.participants.of_person(invite.tournament_id, actor.user_id)
                if participant is not None and participant.holds_place:
                    # A player cannot judge the tournament he plays in.
                    raise Forbidden(Action.INVITE_STAFF)
                role = (
                    StaffRole.CHIEF_JUDGE
                    if invite.kind is InviteKind.CHIEF_JUDGE
                    else StaffRole.TABLE_JUDGE
                )
                await uow.staff.appoint(invite.tournament_id, actor.user_id, role)
                tournament = await uow.tournaments.get(invite.tournament_id)
                title = tournament.title if tournament is not None else None
            await uow.invites.mark_used(token, actor.user_id)
            await uow.commit()
            return Appointment(invite, title)


@dataclass(frozen=True)
class Appointment:
    """The role a link gave, and the title of the tournament it is in (None: an organizer's)."""

    invite: Invite
    tournament_title: str | None
