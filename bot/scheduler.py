"""Scheduled pushes (reminders) with the database as the truth, swept by one process at a time.

One asyncio task sleeps until the earliest due push (a commit that changes the timetable wakes
it to look again), then sweeps: every push that is due moves into the outbox and is deleted in
one transaction, so a push reaches the outbox exactly once, whatever restarts happen. Sweeps
never overlap, and stopping lets the one under way finish.

Of several bot processes on one database, only the holder of the "scheduler" lease sweeps; it
renews the lease at every wake-up (at least every `renew_seconds`, 10 by default), and when
its holder dies another process takes it over once it runs out (within a minute).

The sweep is also the scheduler's duty towards deadlines: it closes every registration whose
deadline has come, with nobody touching the tournament. The organizer's "registration closed"
reminder is due at the deadline, so the sweep runs at that very moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from datetime import datetime

from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.worker import Clock, process_identity, utc_now
from domain.services.tournaments import close_due_registrations

log = logging.getLogger(__name__)

SCHEDULER_LEASE = "scheduler"
LEASE_SECONDS = 30.0
LEASE_RENEW_SECONDS = 10.0


class ReminderScheduler:
    """Moves due scheduled pushes into the outbox; due times are read on `clock`, the lease is
    kept on the real clock (`lease_clock`), shared by every process."""

    def __init__(
        self,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        clock: Clock = utc_now,
        lease_clock: Clock = utc_now,
        identity: str | None = None,
        renew_seconds: float = LEASE_RENEW_SECONDS,
        rate: float = 1.0,
    ) -> None:
        """`rate` says how much faster than real time `clock` runs (the simulation's)."""
        self._uow_factory = uow_factory
        self._rate = rate
        self._renew_seconds = renew_seconds
        self._clock = clock
        self._lease_clock = lease_clock
        self.identity = identity or process_identity()
        self._sweeping = asyncio.Lock()
        self._wakeup = asyncio.Event()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self.next_due: datetime | None = None  # the earliest push waiting, as last read
        self.leading = False
        self._renewed_at = -LEASE_SECONDS  # monotonic seconds of the last renewal

    async def start(self) -> None:
        """Send what fell due while stopped (if this process leads), then run."""
        self._stopping = False
        await self._wake_up()
        self._task = asyncio.create_task(self._run(), name="reminder-scheduler")

    async def stop(self) -> None:
        """Let a sweep under way finish, then step down so another process leads at once."""
        self._stopping = True
        self._wakeup.set()
        if self._task is not None:
            await self._task
            self._task = None
        if self.leading:
            async with self._uow_factory() as uow:
                await uow.leases.release(SCHEDULER_LEASE, self.identity)
                await uow.commit()
            self.leading = False

    def on_commit(self, changed: frozenset[str]) -> None:
        """A unit-of-work commit listener: a changed timetable may move the next wake-up."""
        if "scheduled_pushes" in changed:
            self._wakeup.set()

    async def _run(self) -> None:
        while not self._stopping:
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=self._sleep_seconds())
            if self._stopping:
                return
            try:
                await self._wake_up()
            except Exception:
                log.exception("the reminder scheduler could not sweep")

    def _sleep_seconds(self) -> float:
        if not self.leading or self.next_due is None:
            return self._renew_seconds
        due_in = (self.next_due - self._clock()).total_seconds() / self._rate
        return max(0.0, min(due_in, self._renew_seconds))

    async def _wake_up(self) -> None:
        """Keep (or take) the lead; when leading, sweep and read the next due time."""
        if self.leading and time.monotonic() - self._renewed_at < self._renew_seconds / 2:
            await self.sweep()  # woken by a commit just after a renewal: the lead is fresh
            return
        renewing = time.monotonic()
        async with self._uow_factory() as uow:
            now = self._lease_clock()
            self.leading = await uow.leases.take(SCHEDULER_LEASE, self.identity, now, LEASE_SECONDS)
            if self.leading:
                await uow.handled_updates.forget_old(now)
            await uow.commit()
        if self.leading:
            self._renewed_at = renewing
            await self.sweep()

    async def sweep(self) -> int:
        """Move every push due by now into the outbox, then close the registrations whose
        deadline has come; returns how many pushes were moved."""
        async with self._sweeping:
            now = self._clock()
            async with self._uow_factory() as uow:
                pushes = await uow.scheduled_pushes.take_due(now)
                for push in pushes:
                    await uow.outbox.add(push.message)
                self.next_due = await uow.scheduled_pushes.next_due_time()
                await uow.commit()
            # After the pushes: closing replans the tournament, which would cancel the
            # organizer's deadline reminder due this very moment.
            closed = await close_due_registrations(self._uow_factory, now)
        if pushes:
            log.info("moved %d due pushes into the outbox", len(pushes))
        if closed:
            log.info("closed registration at its deadline: tournaments %s", closed)
        return len(pushes)
