from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ColumnElement, RowMapping, bindparam, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OrganizerRow, ParticipantRow, StaffRow, TournamentRow
from domain.permissions import StaffRole
from domain.services.ports import Standing
from domain.tournament import TournamentState

# The labels of `standing_facts`' columns besides the judges' roles.
_ORGANIZER, _PLAYER = "is_organizer", "plays"


class SqlStaffRepository:
    """The judges of each tournament and the organizers admins appointed."""

    def __init__(self, session: AsyncSession, reminders_touched: set[int]) -> None:
        self._session = session
        # Tournaments whose reminder facts a write changed (`UnitOfWork.reminders_touched`).
        self._touched = reminders_touched

    async def roles(self, tournament_id: int, user_id: int) -> list[StaffRole]:
        row = await self._session.get(StaffRow, (tournament_id, user_id))
        return [StaffRole(row.role)] if row else []

    async def of_tournament(self, tournament_id: int) -> list[tuple[int, StaffRole]]:
        rows = await self._session.scalars(
            select(StaffRow).where(StaffRow.tournament_id == tournament_id)
        )
        return [(row.user_id, StaffRole(row.role)) for row in rows]

    async def appoint(self, tournament_id: int, user_id: int, role: StaffRole) -> None:
        """Give a person a judge's role in a tournament (a new role replaces the old one)."""
        row = await self._session.get(StaffRow, (tournament_id, user_id))
        if row is None:
            row = StaffRow(tournament_id=tournament_id, user_id=user_id)
            self._session.add(row)
        row.role = role.value
        await self._session.flush()
        self._touched.add(tournament_id)

    async def is_organizer(self, user_id: int) -> bool:
        return await self._session.get(OrganizerRow, user_id) is not None

    async def appoint_organizer(self, user_id: int, appointed_by: int, at: datetime) -> None:
        if await self._session.get(OrganizerRow, user_id) is None:
            self._session.add(
                OrganizerRow(user_id=user_id, appointed_by=appointed_by, appointed_at=at)
            )
            await self._session.flush()

    async def standing(self, user_id: int) -> Standing:
        """One statement of one row (an /help used to make three and a transaction)."""
        facts = await self._session.execute(_STANDING, {"user_id": user_id})
        return standing_of(facts.mappings().one())


def standing_facts(user_id: ColumnElement[int]) -> tuple[ColumnElement[bool], ...]:
    """The person's standing as columns of one row (`standing_of` reads them): an organizer
    (appointed, or a tournament's author), in any tournament's list, and a judge of each
    role in a tournament not finished yet; the read of an /help's sender adds them to his."""
    organizer = or_(
        select(OrganizerRow.user_id).where(OrganizerRow.user_id == user_id).exists(),
        select(TournamentRow.id).where(TournamentRow.created_by == user_id).exists(),
    )
    plays = select(ParticipantRow.user_id).where(ParticipantRow.user_id == user_id).exists()
    judging = (
        select(StaffRow.user_id)
        .join(TournamentRow, TournamentRow.id == StaffRow.tournament_id)
        .where(
            StaffRow.user_id == user_id,
            StaffRow.role == role.value,
            TournamentRow.state != TournamentState.FINISHED.value,
        )
        .exists()
        .label(_judges(role))
        for role in StaffRole
    )
    return (organizer.label(_ORGANIZER), plays.label(_PLAYER), *judging)


def standing_of(facts: RowMapping) -> Standing:
    """The standing from a row holding `standing_facts`' columns (by their labels)."""
    return Standing(
        organizer=bool(facts[_ORGANIZER]),
        judging=frozenset(role for role in StaffRole if facts[_judges(role)]),
        plays=bool(facts[_PLAYER]),
    )


def _judges(role: StaffRole) -> str:
    return f"judges_{role.value}"


# Built once, the person bound at each read.
_STANDING = select(*standing_facts(bindparam("user_id", type_=BigInteger)))
