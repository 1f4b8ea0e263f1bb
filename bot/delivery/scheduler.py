"""Scheduled pushes (reminders) with the database as the truth, swept by one process at a time.

APScheduler (3.11, an `AsyncIOScheduler` on the bot's event loop) holds one job: the wake-up,
planned at the earliest due push (a commit that plans a push due sooner moves it there: the
commit tells its earliest due time, so no sweep is needed to learn it). A wake-up sweeps: every
push that is due moves into the outbox and is deleted in one transaction, so a push reaches the
outbox exactly once, whatever restarts happen. The job runs with `max_instances=1` and
`coalesce`, and the next wake-up is planned only once the last one finished, so sweeps never
overlap; stopping lets the one under way finish (for up to `STOP_WAIT_SECONDS`), and one that
does not is cancelled quietly: its transaction rolls back, so what it had not committed stays
due for the next sweep, and no traceback is logged.

Of several bot processes on one database, only the holder of the "scheduler" lease sweeps; every
process wakes at least every `renew_seconds` (a third of the lease's `lease_seconds`, 30 by
default, the LEASE_SECONDS setting): the holder renews the lease, the others try to take it, so
when its holder dies another process takes over once it runs out (within a minute). A push
planned by another process wakes the holder at once: on PostgreSQL it listens for the notice
the planning transaction sends (`bot.db.planned`). So does a jump of a clock that can jump
(`bot.clock.JumpingClock`, a test's `FixedClock` moved on): what fell due is swept at once,
not at the next renewal. The system's clock only flows: its wake-ups are planned in real time.

The sweep is also the scheduler's duty towards deadlines: it closes every registration whose
deadline has come, with nobody touching the tournament. The organizer's "registration closed"
reminder is due at the deadline, so the sweep runs at that very moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_SUBMITTED,
    JobEvent,
)
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.clock import JumpingClock
from bot.db.planned import PlannedListener
from bot.db.transactions import labelled
from bot.db.uow import Committed, SqlUnitOfWork, SqlUnitOfWorkFactory
from bot.delivery.jobs import Clock, utc_now
from bot.delivery.leases import LEASE_SECONDS, RENEWALS_PER_LEASE, process_identity
from domain.services.tournaments import TournamentService

log = logging.getLogger(__name__)

SCHEDULER_LEASE = "scheduler"
# What its transactions are counted under (`bot.db.transactions.labelled`).
TRANSACTIONS_LABEL = "reminder scheduler"
WAKE_UP_JOB = "reminders-wake-up"
# How long stopping waits for a wake-up under way (a database that stopped answering).
STOP_WAIT_SECONDS = 10.0
# How long stopping waits for a cancelled wake-up to roll back.
CANCEL_WAIT_SECONDS = 5.0


class ReminderScheduler:
    """Moves due scheduled pushes into the outbox; due times are read on `clock`, the lease is
    kept on the real clock (`lease_clock`), shared by every process; with the database's
    `engine`, the lead listens for pushes other processes plan, and with `jumps` (the clock
    behind `clock`, when it can jump), for its jumps."""

    def __init__(
        self,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        clock: Clock = utc_now,
        lease_clock: Clock = utc_now,
        identity: str | None = None,
        lease_seconds: float = LEASE_SECONDS,
        renew_seconds: float | None = None,
        rate: float = 1.0,
        engine: AsyncEngine | None = None,
        jumps: JumpingClock | None = None,
    ) -> None:
        """`rate` says how much faster than real time `clock` runs (the simulation's)."""
        self._uow_factory = uow_factory
        # The one use case the sweep calls; the scheduler is infrastructure over the factory.
        self._tournaments = TournamentService(uow_factory)
        self._rate = rate
        self._lease_seconds = lease_seconds
        self._renew_seconds = renew_seconds or lease_seconds / RENEWALS_PER_LEASE
        self._clock = clock
        self._lease_clock = lease_clock
        self.identity = identity or process_identity()
        self._sweeping = asyncio.Lock()
        self._scheduler: AsyncIOScheduler | None = None
        self._running = False  # a wake-up submitted and not finished yet
        self._waking: asyncio.Task[None] | None = None  # the wake-up running now
        self._again = False  # the timetable changed during a wake-up: wake again at once
        self._idle = asyncio.Event()
        self._idle.set()
        self._stopping = False
        self.next_due: datetime | None = None  # the earliest push waiting, as last read
        self.leading = False
        self._renewed_at = -lease_seconds  # monotonic seconds of the last renewal
        # The context the wake-ups run in: the one the scheduler was started in (see `_plan`).
        self._context = contextvars.Context()
        self._planned = (
            None
            if engine is None
            else PlannedListener(engine, self.identity, self._timetable_unknown)
        )
        self._jumps = jumps
        self._stop_hearing_jumps: Callable[[], None] | None = None

    async def start(self) -> None:
        """Send what fell due while stopped (if this process leads), then run."""
        self._stopping = False
        with labelled(TRANSACTIONS_LABEL):
            # APScheduler's own loop callbacks run in the context it was started in, the
            # wake-ups in the one `_plan` gives them: both are this one.
            self._context = contextvars.copy_context()
            scheduler = AsyncIOScheduler(
                timezone=UTC,
                job_defaults={"max_instances": 1, "coalesce": True, "misfire_grace_time": None},
            )
            scheduler.add_listener(
                self._on_job_event, EVENT_JOB_SUBMITTED | EVENT_JOB_EXECUTED | EVENT_JOB_ERROR
            )
            scheduler.start()
        self._scheduler = scheduler
        if self._jumps is not None and self._stop_hearing_jumps is None:
            self._stop_hearing_jumps = self._jumps.on_jump(self._timetable_unknown)
        self._idle.clear()
        self._plan(None)
        await self._idle.wait()  # the first wake-up, at once

    async def stop(self, *, database: bool = True) -> None:
        """Let a wake-up under way finish, then step down so another process leads at once.

        Without a `database` (it is gone or does not answer) no wake-up is waited for and the
        lease is left to run out."""
        self._stopping = True
        if self._stop_hearing_jumps is not None:
            self._stop_hearing_jumps()
            self._stop_hearing_jumps = None
        scheduler, self._scheduler = self._scheduler, None
        if scheduler is not None:
            with contextlib.suppress(JobLookupError):
                scheduler.remove_job(WAKE_UP_JOB)
            if database:
                try:
                    await asyncio.wait_for(self._idle.wait(), STOP_WAIT_SECONDS)
                except TimeoutError:
                    log.warning(
                        "the reminder scheduler's sweep did not finish within %.0f s; stopping "
                        "without it (what it did not commit is swept at the next start)",
                        STOP_WAIT_SECONDS,
                    )
            await self._cancel_wake_up()
            scheduler.shutdown(wait=False)
        leading, self.leading = self.leading, False
        if self._planned is not None:
            await self._planned.close()
        if leading and database:
            with labelled(TRANSACTIONS_LABEL):
                async with self._uow_factory() as uow:
                    await uow.leases.release(SCHEDULER_LEASE, self.identity)
                    await uow.commit()

    def on_commit(self, committed: Committed) -> None:
        """A unit-of-work commit listener: a push planned here may bring the next wake-up
        forward. Its due time is known, so no sweep is needed to learn it: a registration
        that plans a person's reminders costs the scheduler nothing (a push due after the
        planned wake-up changes nothing; a cancelled one is found gone by its wake-up).

        Only the lead cares: another process's wake-ups only watch the lease."""
        earliest = committed.earliest_push
        if earliest is None or not self.leading or self._stopping:
            return
        if self._running:  # the sweep under way may have read the next due time before
            self._again = True
        elif self._scheduler is not None and (self.next_due is None or earliest < self.next_due):
            self.next_due = earliest
            self._plan(self._next_wake_up())

    def _timetable_unknown(self) -> None:
        """Another process planned a push (its due time unknown here), or the clock jumped (a
        push may have fallen due): sweep now to learn it."""
        if not self.leading or self._stopping:
            return
        if self._running:
            self._again = True
        elif self._scheduler is not None:
            self._plan(None)

    def _plan(self, at: datetime | None) -> None:
        """The one wake-up job, at `at` (real time; None: now).

        Planned in a copy of the context the scheduler was started in (its transactions are
        counted there, under its label): APScheduler runs the job in the context it was
        planned in, and a commit listener plans it from within an update's handling, whose
        context variables (the simulation's CPU meter among them) are not the sweep's."""
        assert self._scheduler is not None
        self._context.copy().run(
            self._scheduler.add_job,
            self._wake,
            DateTrigger(run_date=at or datetime.now(UTC)),
            id=WAKE_UP_JOB,
            name="reminders' wake-up",
            replace_existing=True,
        )

    def _on_job_event(self, event: JobEvent) -> None:
        if event.job_id != WAKE_UP_JOB:
            return
        if event.code == EVENT_JOB_SUBMITTED:
            self._running = True
            self._idle.clear()
            return
        # Finished (the executor no longer counts it): the next one may be planned.
        self._running = False
        self._idle.set()
        if self._stopping or self._scheduler is None:
            return
        self._plan(self._next_wake_up())

    def _next_wake_up(self) -> datetime | None:
        if self._again:
            return None
        now = datetime.now(UTC)
        renew = now + timedelta(seconds=self._renew_seconds)
        if not self.leading or self.next_due is None:
            return renew
        due = now + (self.next_due - self._clock()) / self._rate
        return max(now, min(due, renew))

    async def _cancel_wake_up(self) -> None:
        """Cancel the wake-up still under way and let it roll back (what it did not commit
        stays due)."""
        task = self._waking
        if task is None or task.done():
            return
        task.cancel()
        await asyncio.wait({task}, timeout=CANCEL_WAIT_SECONDS)

    async def _wake(self) -> None:
        self._again = False
        self._waking = asyncio.current_task()
        try:
            await self._wake_up()
        except asyncio.CancelledError:
            # Only a stop cancels a wake-up (or the process's end): it is not an error of the
            # job, which APScheduler would log with its traceback.
            log.info(
                "the reminder scheduler's sweep under way was stopped; what it did not "
                "commit stays due"
            )
        except Exception:
            log.exception("the reminder scheduler could not sweep")
        finally:
            self._waking = None

    async def _wake_up(self) -> None:
        """Keep (or take) the lead; when leading, sweep and read the next due time.

        The lead renews its lease in its sweep's transaction (it listens already); a process
        taking the lead first listens, then sweeps, so no push planned elsewhere meanwhile is
        missed."""
        if self.leading:
            renew = time.monotonic() - self._renewed_at >= self._renew_seconds / 2
            await self.sweep(renew=renew)
            if self.leading:
                if self._planned is not None:
                    await self._listen_while_leading()  # again, if its connection was lost
                return
            # The lead ran out under it: try to take it again, as any process does.
        renewing = time.monotonic()
        async with self._uow_factory() as uow:
            self.leading = await self._renew(uow)
            await uow.commit()
        if self._planned is not None:
            await self._listen_while_leading()
        if self.leading:
            self._renewed_at = renewing
            await self.sweep()

    async def _renew(self, uow: SqlUnitOfWork) -> bool:
        """Take or keep the lead (and forget the updates too old to come again)."""
        now = self._lease_clock()
        leading = await uow.leases.take(SCHEDULER_LEASE, self.identity, now, self._lease_seconds)
        if leading:
            await uow.handled_updates.forget_old(now)
        return leading

    async def _listen_while_leading(self) -> None:
        """The lead hears of pushes planned elsewhere; the others need not."""
        assert self._planned is not None
        if not self.leading:
            await self._planned.close()
            return
        try:
            await self._planned.listen()
        except Exception as error:  # the renewals still look every `renew_seconds`
            log.warning("cannot listen for reminders other processes plan: %r", error)

    async def sweep(self, *, renew: bool = False) -> int:
        """Move every push due by now into the outbox, then close the registrations whose
        deadline has come; returns how many pushes were moved.

        One transaction (renewing the lead first when `renew`: it moves nothing when the lead
        was lost); closing a registration takes a second one, only when one is due."""
        async with self._sweeping:
            now = self._clock()
            renewing = time.monotonic()
            async with self._uow_factory() as uow:
                if renew and not await self._renew(uow):
                    await uow.commit()
                    self.leading = False
                    return 0
                pushes = await uow.scheduled_pushes.take_due(now)
                await uow.outbox.add_many([push.message for push in pushes])
                self.next_due = await uow.scheduled_pushes.next_due_time()
                closing = bool(await uow.tournaments.registration_due_to_close(now))
                await uow.commit()
            if renew:
                self._renewed_at = renewing
            # After the pushes: closing replans the tournament, which would cancel the
            # organizer's deadline reminder due this very moment.
            closed = await self._tournaments.close_due_registrations(now) if closing else []
        if pushes:
            log.info("moved %d due pushes into the outbox", len(pushes))
        if closed:
            log.info("closed registration at its deadline: tournaments %s", closed)
        return len(pushes)
