"""The scheduled pushes: reminders recorded with their due time, taken when they fall due."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime

from sqlalchemy import delete, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from bot.db.models import ScheduledPushRow
from bot.db.planned import tell_planned
from bot.db.repositories.stored_messages import (
    BATCH,
    conflict_insert,
    message_of,
    message_values,
    utc,
)
from domain.outgoing import ScheduledPush


class SqlScheduledPushes:
    """Pushes waiting for their time; `earliest` (the earliest due time planned in this
    transaction) tells a commit when this process's scheduler must wake at the latest, and a
    push planned tells every process's (`bot.db.planned`), as `sender`."""

    def __init__(self, session: AsyncSession, sender: str = "") -> None:
        self._session = session
        self._sender = sender
        self.told = False  # the others were told in this transaction
        self.earliest: datetime | None = None
        # The timetable was written in this transaction (a replan that changes nothing
        # writes nothing: the reminders' tests look).
        self.changed = False

    async def schedule(self, push: ScheduledPush) -> None:
        """Store a push, replacing the one with the same key (a moved timetable moves it)."""
        await self.schedule_many([push])

    async def schedule_many(self, pushes: Sequence[ScheduledPush]) -> None:
        """Store pushes, each replacing the one with its key (the last of a repeated key
        counts): one statement per `BATCH` pushes."""
        by_key = {push.key: push for push in pushes}
        rows = [
            {"key": key, "due_at": push.due_at.astimezone(UTC), **message_values(push.message)}
            for key, push in by_key.items()
        ]
        for start in range(0, len(rows), BATCH):
            statement = conflict_insert(self._session, ScheduledPushRow).values(
                rows[start : start + BATCH]
            )
            replaced = {column: statement.excluded[column] for column in rows[0] if column != "key"}
            await self._session.execute(
                statement.on_conflict_do_update(index_elements=["key"], set_=replaced)
            )
        if rows:
            self.changed = True
            soonest = min(row["due_at"] for row in rows)
            self.earliest = soonest if self.earliest is None else min(self.earliest, soonest)
            if not self.told:  # once a transaction: the scheduler reads every due time anyway
                self.told = True
                await tell_planned(self._session, self._sender)

    async def cancel(self, key: str) -> None:
        """Forget a push that has not become due yet (nothing happens if there is none)."""
        await self._session.execute(delete(ScheduledPushRow).where(ScheduledPushRow.key == key))
        self.changed = True

    async def waiting(self, *key_prefixes: str) -> dict[str, ScheduledPush]:
        """The waiting pushes whose keys start with one of `key_prefixes` (one tournament's,
        one round's), by key."""
        rows = await self._session.scalars(
            select(ScheduledPushRow)
            .where(or_(*(ScheduledPushRow.key.startswith(prefix) for prefix in key_prefixes)))
            # `schedule` writes without the ORM: rows read before in this session are stale.
            .execution_options(populate_existing=True)
        )
        return {row.key: _scheduled_push(row) for row in rows}

    async def waiting_keys(self, keys: Collection[str]) -> dict[str, ScheduledPush]:
        """The waiting pushes of exactly these keys (one person's), by key: found by the keys'
        index, whatever the number of the tournament's other pushes."""
        if not keys:
            return {}
        rows = await self._session.scalars(
            select(ScheduledPushRow)
            .where(ScheduledPushRow.key.in_(sorted(keys)))
            .execution_options(populate_existing=True)
        )
        return {row.key: _scheduled_push(row) for row in rows}

    async def cancel_many(self, keys: Collection[str]) -> None:
        """Forget several waiting pushes at once."""
        if keys:
            await self._session.execute(
                delete(ScheduledPushRow).where(ScheduledPushRow.key.in_(list(keys)))
            )
            self.changed = True

    async def due_times(self) -> dict[str, datetime]:
        """Every waiting push's due time by key."""
        result = await self._session.execute(select(ScheduledPushRow.key, ScheduledPushRow.due_at))
        return {key: utc(due_at) for key, due_at in result}  # type: ignore[misc]

    async def next_due_time(self) -> datetime | None:
        """When the earliest waiting push falls due."""
        return utc(await self._session.scalar(select(func.min(ScheduledPushRow.due_at))))

    async def get(self, key: str) -> ScheduledPush | None:
        row = await self._session.scalar(
            select(ScheduledPushRow)
            .where(ScheduledPushRow.key == key)
            .execution_options(populate_existing=True)
        )
        return _scheduled_push(row) if row else None

    async def take_due(self, now: datetime) -> list[ScheduledPush]:
        """Remove and return the pushes due by `now`; a push another sweep took is skipped."""
        rows = (
            await self._session.scalars(
                select(ScheduledPushRow)
                .where(ScheduledPushRow.due_at <= now.astimezone(UTC))
                .order_by(ScheduledPushRow.due_at, ScheduledPushRow.id)
                .execution_options(populate_existing=True)
            )
        ).all()
        if not rows:
            return []
        # One statement: what another sweep deleted first is not returned, so not taken.
        deleted = set(
            await self._session.scalars(
                delete(ScheduledPushRow)
                .where(ScheduledPushRow.id.in_([row.id for row in rows]))
                .returning(ScheduledPushRow.id)
            )
        )
        return [_scheduled_push(row) for row in rows if row.id in deleted]


def _scheduled_push(row: ScheduledPushRow) -> ScheduledPush:
    return ScheduledPush(row.key, utc(row.due_at), message_of(row))  # type: ignore[arg-type]
