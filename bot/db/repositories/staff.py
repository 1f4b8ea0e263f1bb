from __future__ import annotations

from datetime import datetime

from sqlalchemy import exists, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import OrganizerRow, ParticipantRow, StaffRow, TournamentRow
from domain.permissions import StaffRole
from domain.services.ports import Standing
from domain.tournament import TournamentState

# The labels of `standing`'s rows besides the judges' roles.
_ORGANIZER, _PLAYER = "organizer", "player"


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
        """One statement: a row per fact (an /help used to make three and a transaction)."""
        judging = (
            select(StaffRow.role)
            .join(TournamentRow, TournamentRow.id == StaffRow.tournament_id)
            .where(
                StaffRow.user_id == user_id,
                TournamentRow.state != TournamentState.FINISHED.value,
            )
        )
        appointed = exists().where(OrganizerRow.user_id == user_id)
        authored = exists().where(TournamentRow.created_by == user_id)
        plays = exists().where(ParticipantRow.user_id == user_id)
        facts = set(
            await self._session.scalars(
                union_all(
                    select(literal(_ORGANIZER)).where(appointed | authored),
                    select(literal(_PLAYER)).where(plays),
                    judging,
                )
            )
        )
        return Standing(
            organizer=_ORGANIZER in facts,
            judging=frozenset(StaffRole(fact) for fact in facts - {_ORGANIZER, _PLAYER}),
            plays=_PLAYER in facts,
        )
