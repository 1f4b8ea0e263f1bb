from __future__ import annotations

from collections.abc import Collection
from dataclasses import fields, replace

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import ParticipantRow, UnreachableChatRow
from bot.db.repositories.tournaments import as_read, as_stored
from domain.registration import Participant, ParticipantStatus

_COLUMNS = tuple(f.name for f in fields(Participant) if f.name not in ("id", "status"))


def _to_participant(row: ParticipantRow) -> Participant:
    values = {name: as_read(getattr(row, name)) for name in _COLUMNS}
    return Participant(id=row.id, status=ParticipantStatus(row.status), **values)


def _fill(row: ParticipantRow, participant: Participant) -> None:
    row.status = participant.status.value
    for name in _COLUMNS:
        setattr(row, name, as_stored(getattr(participant, name)))


class SqlParticipantRepository:
    """A unit of work's participants. A tournament's list is read once per unit of work (a
    confirmation, a registration and the replan that follows each read it two or three times)
    and read anew after this unit of work changes any participant; it never outlives the
    transaction, so another process's changes are seen by the next one."""

    def __init__(self, session: AsyncSession, reminders_touched: set[int]) -> None:
        self._session = session
        # Tournaments whose reminder facts a write changed (`UnitOfWork.reminders_touched`).
        self._touched = reminders_touched
        self._of_tournament: dict[int, list[Participant]] = {}

    def forget(self) -> None:
        """The transaction ended: the next read sees what other processes committed."""
        self._of_tournament.clear()

    async def get(self, participant_id: int) -> Participant | None:
        row = await self._session.get(ParticipantRow, participant_id)
        return _to_participant(row) if row else None

    async def of_tournament(self, tournament_id: int) -> list[Participant]:
        """Everyone who ever registered for the tournament, in registration order."""
        if tournament_id not in self._of_tournament:
            rows = await self._session.scalars(
                select(ParticipantRow)
                .where(ParticipantRow.tournament_id == tournament_id)
                .order_by(ParticipantRow.registered_at, ParticipantRow.id)
            )
            self._of_tournament[tournament_id] = [_to_participant(row) for row in rows]
        return list(self._of_tournament[tournament_id])

    async def nicknames(self, participant_ids: Collection[int]) -> dict[int, str]:
        """The nicknames of these participants (a table's ten seats), by id."""
        if not participant_ids:
            return {}
        rows = await self._session.execute(
            select(ParticipantRow.id, ParticipantRow.nickname).where(
                ParticipantRow.id.in_(participant_ids)
            )
        )
        return {row.id: row.nickname for row in rows}

    async def of_person(self, tournament_id: int, user_id: int) -> Participant | None:
        row = await self._session.scalar(
            select(ParticipantRow).where(
                ParticipantRow.tournament_id == tournament_id, ParticipantRow.user_id == user_id
            )
        )
        return _to_participant(row) if row else None

    async def add(self, participant: Participant) -> Participant:
        self.forget()
        row = ParticipantRow()
        _fill(row, participant)
        self._session.add(row)
        await self._session.flush()
        self._touched.add(participant.tournament_id)
        return replace(participant, id=row.id)

    async def save(self, participant: Participant) -> None:
        self.forget()
        row = await self._session.get(ParticipantRow, participant.id)
        if row is None:
            raise LookupError(f"no participant {participant.id}")
        _fill(row, participant)
        await self._session.flush()
        self._touched.add(participant.tournament_id)

    async def unreachable(self, tournament_id: int) -> set[int]:
        """The Telegram ids of the tournament's people the bot cannot write to (blocked it)."""
        rows = await self._session.scalars(
            select(ParticipantRow.user_id)
            .join(UnreachableChatRow, UnreachableChatRow.chat_id == ParticipantRow.user_id)
            .where(ParticipantRow.tournament_id == tournament_id)
        )
        return {user_id for user_id in rows if user_id is not None}
