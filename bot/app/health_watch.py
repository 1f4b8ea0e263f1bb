"""The admins told in Telegram when the bot is unhealthy, and when it recovers.

Every `WATCH_SECONDS` one process (the holder of the "health-watch" lease, so several replicas
tell the admins once) looks at what an operator's alert rules watch (deploy/mafiatour-alerts.yml):
handler errors since the last look (`ERRORS_TO_TELL` or more), the outbox stuck (a message that
may go has waited over `OUTBOX_STUCK_SECONDS`), the newest nightly backup in BACKUP_DIR older
than `BACKUP_TOO_OLD_SECONDS`, and this process's polling lease taken by another. A problem is
told once to every `ADMIN_IDS` person when it starts, not at every look, and once when it ends.
The messages go through the outbox, in each admin's language.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot import metrics
from bot.db.uow import SqlUnitOfWorkFactory
from bot.web.health import OUTBOX_STUCK_SECONDS
from domain.outgoing import OutgoingMessage, Phrase

log = logging.getLogger(__name__)

WATCH_SECONDS = 60.0
ERRORS_TO_TELL = 5
BACKUP_TOO_OLD_SECONDS = 26 * 3600.0
WATCH_LEASE = "health-watch"


def handler_errors() -> float:
    """Updates whose handling ended in an error since the process started."""
    return sum(
        sample.value
        for family in metrics.updates.collect()
        for sample in family.samples
        if sample.name.endswith("_total") and sample.labels.get("outcome") == "error"
    )


class HealthWatch:
    """Looks every `every` seconds (see the module's doc) while the bot runs."""

    def __init__(
        self,
        uow_factory: SqlUnitOfWorkFactory,
        engine: AsyncEngine,
        admin_ids: Collection[int],
        backup_dir: Path,
        every: float = WATCH_SECONDS,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self._uow_factory = uow_factory
        self._engine = engine
        self._admin_ids = sorted(admin_ids)
        self._backup_dir = backup_dir
        self._every = every
        self._clock = clock
        self._errors_seen = handler_errors()
        self._told: set[str] = set()
        self._task: asyncio.Task[None] | None = None
        self.lease_lost = False  # set by the polling lease's keeper (bot.app)

    async def start(self) -> None:
        if self._admin_ids and self._task is None:
            self._task = asyncio.create_task(self._watch(), name="health-watch")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            try:
                await self.look()
            except Exception:
                log.exception("the health watch could not look")

    async def look(self) -> None:
        """One look: tell the admins of the problems that started or ended since the last."""
        now = self._clock()
        async with self._uow_factory() as uow:
            watching = await uow.leases.take(
                WATCH_LEASE, self._uow_factory.process, now, 2 * self._every
            )
            await uow.commit()
        problems = await self._problems(now) if watching else {}
        started = {key: args for key, args in problems.items() if key not in self._told}
        ended = self._told - set(problems) if watching else set()
        if not started and not ended:
            return
        async with self._uow_factory() as uow:
            for admin in self._admin_ids:
                for key, args in started.items():
                    await uow.outbox.add(OutgoingMessage(admin, Phrase.of(key, **args)))
                for key in sorted(ended):
                    await uow.outbox.add(OutgoingMessage(admin, Phrase.of(f"{key}-recovered")))
            await uow.commit()
        self._told = (self._told | set(started)) - ended
        log.warning("health: started %s, ended %s", sorted(started), sorted(ended))

    async def _problems(self, now: datetime) -> dict[str, dict[str, Any]]:
        problems: dict[str, dict[str, Any]] = {}
        errors = handler_errors()
        if errors - self._errors_seen >= ERRORS_TO_TELL:
            count = int(errors - self._errors_seen)
            problems["health-errors"] = {"count": count, "minutes": max(1, round(self._every / 60))}
        self._errors_seen = errors
        figures = await metrics.queue_figures(self._engine, now)
        if figures.oldest_due_age > OUTBOX_STUCK_SECONDS:
            problems["health-outbox"] = {"minutes": int(figures.oldest_due_age // 60)}
        backup_at = metrics.newest_backup_at(self._backup_dir)
        backup_age = now.timestamp() - backup_at
        if backup_at and backup_age > BACKUP_TOO_OLD_SECONDS:
            problems["health-backup"] = {"hours": int(backup_age // 3600)}
        if self.lease_lost:
            problems["health-lease"] = {}
        return problems
