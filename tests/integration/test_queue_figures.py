"""The figures /metrics and /readyz read from the database, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.models import OutboxRow
from bot.db.uow import SqlUnitOfWorkFactory
from bot.metrics import queue_figures
from domain.outgoing import OutgoingMessage, ScheduledPush

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


async def test_an_empty_queue_is_all_zeros(engine: AsyncEngine) -> None:
    figures = await queue_figures(engine, NOW)
    assert (figures.pending, figures.oldest_pending_age) == (0, 0.0)
    assert (figures.oldest_due_age, figures.scheduler_lag) == (0.0, 0.0)


async def test_depth_ages_and_the_overdue_reminder(
    engine: AsyncEngine, uow_factory: SqlUnitOfWorkFactory
) -> None:
    async with uow_factory() as uow:
        for text in ("old", "deferred", "new"):
            await uow.outbox.add(OutgoingMessage(chat_id=5, text=text))
        await uow.scheduled_pushes.schedule(
            ScheduledPush("late", NOW - timedelta(seconds=90), OutgoingMessage(chat_id=5, text="r"))
        )
        await uow.scheduled_pushes.schedule(
            ScheduledPush("later", NOW + timedelta(hours=1), OutgoingMessage(chat_id=5, text="r"))
        )
        await uow.commit()
    ages = {"old": 600, "deferred": 900, "new": 5}
    async with engine.begin() as connection:
        for text, seconds in ages.items():
            await connection.execute(
                update(OutboxRow)
                .where(OutboxRow.body.contains(f'"{text}"'))
                .values(created_at=NOW - timedelta(seconds=seconds))
            )
        # Put back after a 429 until a minute from now: waiting, but not due.
        await connection.execute(
            update(OutboxRow)
            .where(OutboxRow.body.contains('"deferred"'))
            .values(not_before=NOW + timedelta(minutes=1))
        )
    figures = await queue_figures(engine, NOW)
    assert figures.pending == 3
    assert figures.oldest_pending_age == 900
    assert figures.oldest_due_age == 600  # the deferred one is not stuck
    assert figures.scheduler_lag == 90
