"""Bot processes sharing one PostgreSQL: a reminder planned through one wakes the process that
sweeps at once, not at its next lease renewal; two outbox workers superseding the same edits
never wait for each other."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.repositories.outbox import Anchor
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.scheduler import ReminderScheduler
from domain.outgoing import DeliveryStatus, OutgoingMessage, ScheduledPush
from domain.services.standings_posts import live_key, live_standings
from harness.fake_telegram import WAIT_LIMIT
from tests.conftest import _drop_postgres_database, make_database_url

pytestmark = pytest.mark.postgresql

# Renewals this far apart: only the notice can wake the sweeping process within WAIT_LIMIT.
NEVER_RENEWED = 24 * 3600.0


@pytest.fixture
async def postgres_url(tmp_path: Path) -> AsyncIterator[str]:
    url = await make_database_url("postgresql", tmp_path)
    yield url
    await _drop_postgres_database(url)


async def _outbox_count(uow_factory: SqlUnitOfWorkFactory) -> int:
    async with uow_factory() as uow:
        return len(await uow.outbox.waiting(100))


async def test_a_reminder_planned_by_another_process_is_swept_at_once(postgres_url: str) -> None:
    engine = create_engine(postgres_url)
    await upgrade(engine)
    leading = SqlUnitOfWorkFactory(create_session_factory(engine), process="a")
    other_engine = create_engine(postgres_url)  # another process's
    other = SqlUnitOfWorkFactory(create_session_factory(other_engine), process="b")
    scheduler = ReminderScheduler(leading, identity="a", renew_seconds=NEVER_RENEWED, engine=engine)
    leading.add_commit_listener(scheduler.on_commit)
    try:
        await scheduler.start()
        assert scheduler.leading and scheduler.next_due is None
        message = OutgoingMessage(chat_id=1001, text="Игра 1 через 15 минут")
        async with other() as uow:
            await uow.scheduled_pushes.schedule(
                ScheduledPush("round:1:1", datetime.now(UTC), message)
            )
            await uow.commit()
        async with asyncio.timeout(WAIT_LIMIT):
            while await _outbox_count(leading) == 0:
                await asyncio.sleep(0.1)
        # A plan that was rolled back tells nobody: nothing more reaches the outbox.
        async with other() as uow:
            await uow.scheduled_pushes.schedule(
                ScheduledPush("round:1:2", datetime.now(UTC), message)
            )
        async with other() as uow:
            assert await uow.scheduled_pushes.next_due_time() is None
        assert await _outbox_count(leading) == 1
    finally:
        await scheduler.stop()
        await engine.dispose()
        await other_engine.dispose()


async def test_a_replica_leaves_the_edits_another_is_superseding_to_it(postgres_url: str) -> None:
    """Two replicas' outbox workers supersede the live table's old edits at the same moment:
    the second leaves the rows the first holds instead of waiting for them (each locking them
    in its own order, two such statements deadlocked, and a worker's cycle failed with it)."""
    engine = create_engine(postgres_url)
    await upgrade(engine)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    edits = [
        OutgoingMessage(
            chat_id=-100,
            text_drawing=live_standings(7, datetime(2026, 5, 16, 12, minute, tzinfo=UTC)),
            edit_key=live_key(7),
            dedupe_key=f"live:{minute}",
        )
        for minute in range(1, 5)
    ]
    try:
        async with uow_factory() as uow:
            await uow.outbox.add_many(edits)
            await uow.outbox.set_anchor(live_key(7), Anchor(-100, 10))
            await uow.commit()
        now = datetime.now(UTC)
        async with uow_factory() as first, uow_factory() as second:
            assert await first.outbox.supersede(now) == 3  # held until `first` commits
            async with asyncio.timeout(WAIT_LIMIT):
                assert await second.outbox.supersede(now) == 0
            await second.commit()
            await first.commit()
        async with uow_factory() as uow:
            counts = await uow.outbox.status_counts()
        assert counts[DeliveryStatus.SUPERSEDED] == 3 and counts[DeliveryStatus.PENDING] == 1
    finally:
        await engine.dispose()
