"""Protests, the organizer's protest switch and the audit log, stored and read back."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import AuditEntryRow, ProtestRow, ProtestSwitchRow
from domain.protests import OPEN_STATUSES, AuditEntry, AuditKind, Protest, ProtestStatus


def _utc(moment: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def _open_key(protest: Protest) -> str | None:
    return f"{protest.game_id}:{protest.participant_id}" if protest.is_open else None


def _protest(row: ProtestRow) -> Protest:
    filed_at = _utc(row.filed_at)
    assert filed_at is not None
    return Protest(
        id=row.id,
        tournament_id=row.tournament_id,
        game_id=row.game_id,
        participant_id=row.participant_id,
        user_id=row.user_id,
        reason=row.reason,
        filed_at=filed_at,
        status=ProtestStatus(row.status),
        photo=row.photo,
        decided_by=row.decided_by,
        decided_at=_utc(row.decided_at),
        decision=row.decision,
    )


def _fill(row: ProtestRow, protest: Protest) -> None:
    row.status = protest.status.value
    row.open_key = _open_key(protest)
    row.decided_by = protest.decided_by
    row.decided_at = protest.decided_at.astimezone(UTC) if protest.decided_at else None
    row.decision = protest.decision


class SqlProtestRepository:
    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add(self, protest: Protest) -> Protest | None:
        """Store a new protest; None when the player's earlier protest on the game is open."""
        row = ProtestRow(
            tournament_id=protest.tournament_id,
            game_id=protest.game_id,
            participant_id=protest.participant_id,
            user_id=protest.user_id,
            reason=protest.reason,
            photo=protest.photo,
            filed_at=protest.filed_at.astimezone(UTC),
        )
        _fill(row, protest)
        try:
            # A savepoint: losing the race to a double filing keeps the rest of the transaction.
            async with self._session.begin_nested():
                self._session.add(row)
        except IntegrityError:
            return None
        return _protest(row)

    async def get(self, protest_id: int) -> Protest | None:
        row = await self._session.get(ProtestRow, protest_id, populate_existing=True)
        return _protest(row) if row else None

    async def save(self, protest: Protest, status_was: ProtestStatus) -> bool:
        """Store a decided or settled protest if it is still in `status_was` (False when
        someone decided it meanwhile)."""
        row = await self._session.get(
            ProtestRow, protest.id, populate_existing=True, with_for_update=True
        )
        if row is None or row.status != status_was.value:
            return False
        _fill(row, protest)
        await self._session.flush()
        return True

    async def of_game(self, game_id: int) -> list[Protest]:
        rows = await self._session.scalars(
            select(ProtestRow).where(ProtestRow.game_id == game_id).order_by(ProtestRow.id)
        )
        return [_protest(row) for row in rows]

    async def of_tournament(self, tournament_id: int) -> list[Protest]:
        rows = await self._session.scalars(
            select(ProtestRow)
            .where(ProtestRow.tournament_id == tournament_id)
            .order_by(ProtestRow.id)
        )
        return [_protest(row) for row in rows]

    async def open_games(self, tournament_id: int) -> set[int]:
        """The games of the tournament with a protest still open (their results provisional)."""
        rows = await self._session.scalars(
            select(ProtestRow.game_id).where(
                ProtestRow.tournament_id == tournament_id,
                ProtestRow.status.in_([status.value for status in OPEN_STATUSES]),
            )
        )
        return set(rows)

    async def switch(self, tournament_id: int) -> bool | None:
        """The organizer's protest switch: True on, False off, None as the regulation says."""
        row = await self._session.get(ProtestSwitchRow, tournament_id, populate_existing=True)
        return row.enabled if row else None

    async def set_switch(self, tournament_id: int, enabled: bool | None) -> None:
        row = await self._session.get(ProtestSwitchRow, tournament_id)
        if enabled is None:
            if row is not None:
                await self._session.delete(row)
        elif row is None:
            self._session.add(ProtestSwitchRow(tournament_id=tournament_id, enabled=enabled))
        else:
            row.enabled = enabled
        await self._session.flush()

    async def log(self, entry: AuditEntry) -> None:
        """Append an entry to the tournament's audit log."""
        self._session.add(
            AuditEntryRow(
                tournament_id=entry.tournament_id,
                at=entry.at.astimezone(UTC),
                actor_id=entry.actor_id,
                kind=entry.kind.value,
                text=entry.text,
                game_id=entry.game_id,
                protest_id=entry.protest_id,
            )
        )
        await self._session.flush()

    async def audit(self, tournament_id: int) -> list[AuditEntry]:
        """The tournament's audit log, oldest first."""
        rows = await self._session.scalars(
            select(AuditEntryRow)
            .where(AuditEntryRow.tournament_id == tournament_id)
            .order_by(AuditEntryRow.at, AuditEntryRow.id)
        )
        return [
            AuditEntry(
                tournament_id=row.tournament_id,
                at=_utc(row.at) or row.at,
                actor_id=row.actor_id,
                kind=AuditKind(row.kind),
                text=row.text,
                game_id=row.game_id,
                protest_id=row.protest_id,
            )
            for row in rows
        ]
