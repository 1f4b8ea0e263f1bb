"""Scheduled pushes (reminders) driven by APScheduler, with the database as the truth.

The jobs live in APScheduler's in-memory job store and are rebuilt from the
`scheduled_pushes` table at start-up and after every commit that changed it. A job only
triggers a sweep: the sweep moves every push that is due into the outbox and deletes it in
one transaction, so a push reaches the outbox exactly once, whatever restarts happen. A
periodic sweep catches what a job could not (a push written by another process).

The sweep is also the scheduler's duty towards deadlines: it closes every registration whose
deadline has come, with nobody touching the tournament. The organizer's "registration closed"
reminder is due at the deadline, so its job runs the sweep at that very moment.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.worker import Clock, utc_now
from domain.services.tournaments import close_due_registrations

log = logging.getLogger(__name__)

SWEEP_JOB = "sweep"
PUSH_JOB_PREFIX = "push:"


class ReminderScheduler:
    """Moves due scheduled pushes into the outbox; time comes from `clock`."""

    def __init__(
        self,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        clock: Clock = utc_now,
        sweep_seconds: float = 30.0,
        rate: float = 1.0,
    ) -> None:
        """`rate` says how much faster than real time `clock` runs (the simulation's)."""
        self._uow_factory = uow_factory
        self._clock = clock
        self._rate = rate
        self._sweep_seconds = sweep_seconds
        self._scheduler = AsyncIOScheduler(
            timezone=UTC, job_defaults={"coalesce": True, "misfire_grace_time": None}
        )
        self._sweeping = asyncio.Lock()
        self._rebuilds: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Rebuild the jobs from the database, send what fell due while stopped, and run."""
        self._scheduler.start()
        self._scheduler.add_job(
            self.sweep, IntervalTrigger(seconds=self._sweep_seconds), id=SWEEP_JOB
        )
        await self.sweep()
        await self.rebuild()

    async def stop(self) -> None:
        self._scheduler.shutdown(wait=False)
        if self._rebuilds:
            await asyncio.gather(*self._rebuilds, return_exceptions=True)

    def on_commit(self, changed: frozenset[str]) -> None:
        """A unit-of-work commit listener: a changed timetable moves the jobs."""
        if "scheduled_pushes" in changed and self._scheduler.running:
            task = asyncio.get_running_loop().create_task(self.rebuild())
            self._rebuilds.add(task)
            task.add_done_callback(self._rebuilds.discard)

    async def rebuild(self) -> None:
        """One job per waiting push, at its due time; jobs of pushes gone are removed."""
        async with self._uow_factory() as uow:
            due_times = await uow.scheduled_pushes.due_times()
        wanted = {PUSH_JOB_PREFIX + key: due_at for key, due_at in due_times.items()}
        for job in self._scheduler.get_jobs():
            if job.id.startswith(PUSH_JOB_PREFIX) and job.id not in wanted:
                job.remove()
        for job_id, due_at in wanted.items():
            # The injected clock may run apart from the real one (tests): keep its distance.
            run_date = datetime.now(UTC) + (due_at - self._clock()) / self._rate
            self._scheduler.add_job(
                self.sweep, DateTrigger(run_date=run_date), id=job_id, replace_existing=True
            )

    def job_times(self) -> dict[str, datetime]:
        """When each push's job runs, by push key (for the organizer's view and tests)."""
        return {
            job.id.removeprefix(PUSH_JOB_PREFIX): job.trigger.run_date
            for job in self._scheduler.get_jobs()
            if job.id.startswith(PUSH_JOB_PREFIX)
        }

    async def sweep(self) -> int:
        """Move every push due by now into the outbox, then close the registrations whose
        deadline has come; returns how many pushes were moved."""
        async with self._sweeping:
            now = self._clock()
            async with self._uow_factory() as uow:
                pushes = await uow.scheduled_pushes.take_due(now)
                for push in pushes:
                    await uow.outbox.add(push.message)
                await uow.commit()
            # After the pushes: closing replans the tournament, which would cancel the
            # organizer's deadline reminder due this very moment.
            closed = await close_due_registrations(self._uow_factory, now)
        if pushes:
            log.info("moved %d due pushes into the outbox", len(pushes))
        if closed:
            log.info("closed registration at its deadline: tournaments %s", closed)
        return len(pushes)
