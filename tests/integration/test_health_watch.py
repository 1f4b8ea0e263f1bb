"""The admins told in Telegram when the bot is unhealthy: once when a problem starts, once
when it ends, never once per error or per look."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot import metrics
from bot.app.health_watch import ERRORS_TO_TELL, HealthWatch
from bot.db.models import OutboxRow
from bot.db.repositories.outbox import message_of
from bot.db.uow import SqlUnitOfWorkFactory
from domain.outgoing import OutgoingMessage

ADMINS = (9001, 9002)


async def _told(uow_factory: SqlUnitOfWorkFactory) -> list[tuple[int, str]]:
    """What the admins were sent, and take it out of the queue (as if it went out)."""
    async with uow_factory() as uow:
        rows = (
            await uow.session.scalars(
                select(OutboxRow).where(
                    OutboxRow.chat_id.in_(ADMINS), OutboxRow.status == "pending"
                )
            )
        ).all()
        told = [message_of(row) for row in rows]
        ids = [row.id for row in rows]
        await uow.session.execute(
            update(OutboxRow).where(OutboxRow.id.in_(ids)).values(status="sent")
        )
        await uow.commit()
    return sorted((m.chat_id, m.phrase.key) for m in told if m.phrase is not None)


async def test_each_problem_is_told_once_when_it_starts_and_once_when_it_ends(
    uow_factory: SqlUnitOfWorkFactory, engine: AsyncEngine, tmp_path: Path
) -> None:
    backups = tmp_path / "backups"
    backups.mkdir()
    nightly = backups / "mafiatour-2026-05-01.backup"
    nightly.write_bytes(b"x")
    two_days_ago = time.time() - 48 * 3600
    os.utime(nightly, (two_days_ago, two_days_ago))
    async with uow_factory() as uow:  # a player's seat, waiting for 10 minutes
        await uow.outbox.add(OutgoingMessage(chat_id=5, text="место 3"))
        await uow.commit()
    async with uow_factory() as uow:
        ten_minutes_ago = datetime.now(UTC) - timedelta(minutes=10)
        await uow.session.execute(update(OutboxRow).values(created_at=ten_minutes_ago))
        await uow.commit()
    watch = HealthWatch(uow_factory, engine, ADMINS, backups)
    for _ in range(ERRORS_TO_TELL):
        metrics.updates.labels("message", "error").inc()

    await watch.look()
    told = await _told(uow_factory)
    assert told == sorted(
        (admin, key)
        for admin in ADMINS
        for key in ("health-backup", "health-errors", "health-outbox")
    )
    metrics.updates.labels("message", "error").inc()  # one error more: under the bar
    await watch.look()  # the backup and the outbox as they were: not told again
    assert await _told(uow_factory) == [(admin, "health-errors-recovered") for admin in ADMINS]

    nightly.touch()  # the backup ran; the outbox is still stuck
    watch.lease_lost = True
    await watch.look()
    assert await _told(uow_factory) == sorted(
        (admin, key) for admin in ADMINS for key in ("health-backup-recovered", "health-lease")
    )
