"""The outbox worker: sends what use cases recorded, within Telegram's limits, by the delivery
promise.

The delivery promise: no message is ever lost, and a message goes out twice only when
Telegram's answer to it was lost. A message is either sent (its answer arrived), or known not to
have been sent and tried again later with a growing pause, for a few minutes (a 429, Telegram's
own 5xx answer that it failed, a connection that never opened), or rejected for good (the person
blocked the bot: "unreachable"; Telegram refused it: "failed"), or its request may have reached
Telegram while its answer never came (a timeout, a page aiogram cannot decode such as a proxy's
502, a process killed while waiting). For that last case one rule holds
per kind of message (`domain.outgoing.when_answer_lost`):
- a message to a person (a seat, a reminder) is better twice than never: it is sent again once
  and recorded as a possible duplicate (`maybe_duplicate`); if that answer is lost too, it is
  uncertain;
- an edit of a posted message is sent again (editing twice shows nothing twice);
- a new post in a group or channel is better uncertain than twice: it is marked "uncertain" and
  never sent again.
An edit whose text is drawn when it is sent (the live table) that a newer pending edit of the
same posted message replaces is settled as "superseded" without being sent: the newer one,
drawn when it goes, shows everything the older would have (the channel's limits no longer
spend a slot on each result's edit while the results come faster than they allow).
An edit that would change nothing (its text and keyboard are what the message was last sent
with: a digest of them is stored with the message's anchor, so every replica and a restart know
it) is not sent, since Telegram refuses it as "message is not modified", and counts as sent.
The organizer gets the unreachable and uncertain messages of a tournament as one digest once its
broadcast is over, not one message per person.

Several bot processes may share the outbox. Each claims the messages it sends under its own
identity and keeps a lease (`leases`, renewed every few seconds) while alive; only messages of a
process whose lease ran out are taken over, and a process settles only messages it still owns,
so a restart or a late answer never touches another's work.

Each cycle of the loop is one transaction: it records what the messages sent since the last
cycle came to, and claims the next messages that may go (one batched transaction per message).

This module is the loop (start, stop, the cycle, the claiming); the rest is beside it:
`sending.py` sends one message by the promise, `writer.py` draws and renders it in its chat's
language, `recording.py` records what became of it, `digests.py` tells the organizer,
`leases.py` keeps this process's lease and takes over a dead one's messages, and `jobs.py`
holds the claimed message on its way and its outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import partial

from aiogram import Bot

from bot import metrics
from bot.db.repositories.outbox import Anchor
from bot.db.transactions import labelled
from bot.db.uow import Committed, SqlUnitOfWork, SqlUnitOfWorkFactory
from bot.delivery.digests import send_digests
from bot.delivery.jobs import Clock, Job, Outcome, utc_now
from bot.delivery.leases import LEASE_SECONDS, Lease, process_identity
from bot.delivery.limits import DeliveryLimits, Limiter, LocalLimiter, Slot, is_private_chat
from bot.delivery.recording import Recorder
from bot.delivery.sending import Sender
from bot.delivery.writer import Writer
from domain.outgoing import DeliveryStatus, OutgoingMessage

log = logging.getLogger(__name__)

# Why a message to a person who blocked the bot was not even tried.
BLOCKED = "not sent: the person refused an earlier message and has not opened the bot since"
QUEUE_WINDOW = 500
# The longest window of Telegram's limits (a group's minute): sends that recent still count.
LONGEST_WINDOW = timedelta(minutes=1)
# What its transactions are counted under (`bot.db.transactions.labelled`).
TRANSACTIONS_LABEL = "outbox worker"
# How long a cycle lets the updates being handled go first (see `DeliveryWorker._make_way`).
MAKE_WAY_SECONDS = 0.25


async def wait_until_delivered(
    uow_factory: SqlUnitOfWorkFactory, timeout: float, poll_seconds: float = 0.1
) -> dict[DeliveryStatus, int]:
    """Wait until nothing in the outbox is pending or being sent (by any process); the
    outbox's figures by status then."""
    async with asyncio.timeout(timeout):
        while True:
            async with uow_factory() as uow:
                counts = await uow.outbox.status_counts()
            if not counts.get(DeliveryStatus.PENDING) and not counts.get(DeliveryStatus.SENDING):
                return counts
            await asyncio.sleep(poll_seconds)


@dataclass(frozen=True)
class Pace:
    """How the worker paces itself: how often it looks at the outbox unwoken, how many
    messages it sends at once, the monotonic clock its limits and lease beat by, how long its
    lease lasts unrenewed, and `updates_quiet(timeout)`, which returns once the updates being
    handled have finished (or after `timeout`): a cycle waits for it first
    (`ReplyScope.quiet`)."""

    poll_seconds: float = 2.0
    concurrency: int = 16
    monotonic: Callable[[], float] = time.monotonic
    updates_quiet: Callable[[float], Awaitable[None]] | None = None
    lease_seconds: float = LEASE_SECONDS


@dataclass
class _Cycle:
    """What one cycle's transaction decided: the messages to send now, and how long to sleep."""

    jobs: list[Job] = field(default_factory=list)
    pause: float = 0.0


class DeliveryWorker:
    """An asyncio task draining the outbox; `wake()` after a commit that added messages.

    Without a `limiter` it keeps Telegram's default limits on its own; without a `writer` it
    writes in Russian with no drawers nor buttons' packing."""

    def __init__(
        self,
        bot: Bot,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        limiter: Limiter | None = None,
        writer: Writer | None = None,
        pace: Pace | None = None,
        clock: Clock = utc_now,
        identity: str | None = None,
    ) -> None:
        self._uow_factory = uow_factory
        self._pace = pace or Pace()
        self._limiter: Limiter = limiter or LocalLimiter(DeliveryLimits(), self._pace.monotonic)
        self._writer = writer or Writer()
        self._clock = clock
        self.identity = identity or process_identity()
        self._sender = Sender(bot, self._limiter, self._writer, clock, self._pace.poll_seconds)
        self._lease = Lease(self.identity, self._pace.monotonic, self._pace.lease_seconds)
        self._recorder = Recorder(self.identity)
        self._wakeup = asyncio.Event()
        self._stopping = False
        self._loop_task: asyncio.Task[None] | None = None
        self._sending: dict[int, asyncio.Task[None]] = {}  # by chat: one message at a time
        self._outcomes: list[Outcome] = []

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Announce this process alive, then start sending (the loop's task, and the sending
        tasks it starts, count their transactions under the worker's label)."""
        with labelled(TRANSACTIONS_LABEL):
            await self._start()

    async def _start(self) -> None:
        async with self._uow_factory() as uow:
            await self._lease.take(uow, self._clock())
            self._recorder.unreachable = await uow.outbox.unreachable_chats()
            if isinstance(self._limiter, LocalLimiter):
                now = self._clock()
                for chat_id, sent_at in await uow.outbox.sent_since(now - LONGEST_WINDOW):
                    self._limiter.seed(chat_id, (now - sent_at).total_seconds())
            await uow.commit()
        self._lease.beat_now()  # the first cycle settles what dead processes left
        self._stopping = False
        self._loop_task = asyncio.create_task(self._run(), name="delivery-worker")

    async def stop(self, *, database: bool = True) -> None:
        """Stop taking messages, let the ones in flight finish, record them, and step down.

        Without a `database` (it is gone or does not answer) nothing waits for it: the loop
        and the messages in flight are cancelled, and the next start settles them by the
        promise (their claims run out)."""
        self._stopping = True
        self._wakeup.set()
        if not database:
            for task in (self._loop_task, *self._sending.values()):
                if task is not None:
                    task.cancel()
        if self._loop_task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop_task
            self._loop_task = None
        if self._sending:
            await asyncio.gather(*self._sending.values(), return_exceptions=True)
        if not database:
            return
        try:
            with labelled(TRANSACTIONS_LABEL):
                async with self._uow_factory() as uow:
                    await self._recorder.record_all(uow, self._outcomes)
                    await self._lease.release(uow)
                    await uow.commit()
        except Exception:
            log.exception("the delivery worker could not record its last messages")

    def wake(self) -> None:
        """Look at the outbox now rather than at the next poll."""
        self._wakeup.set()

    def on_commit(self, committed: Committed) -> None:
        """A unit-of-work commit listener: wake up when the outbox got messages."""
        if committed.outbox:
            self.wake()

    @property
    def idle(self) -> bool:
        """Nothing is being sent right now."""
        return not self._sending

    # --- the loop ----------------------------------------------------------------------------

    async def _run(self) -> None:
        while not self._stopping:
            await self._make_way()
            try:
                pause = await self._cycle()
            except Exception:
                log.exception("the delivery worker could not read the outbox")
                pause = self._pace.poll_seconds
            else:
                if self._outcomes:
                    continue  # answers arrived while this cycle ran: record them now
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=pause)

    async def _make_way(self) -> None:
        """People first: a cycle starts once the updates being handled have finished (up to
        MAKE_WAY_SECONDS). On SQLite every transaction queues for one connection and the event
        loop is one thread, so a cycle (claiming and recording messages, then starting their
        sends) would otherwise queue a judge's tap behind a round's 330 seat messages, which
        go out at Telegram's 30 a second anyway."""
        if self._pace.updates_quiet is not None and not self._stopping:
            await self._pace.updates_quiet(MAKE_WAY_SECONDS)

    async def _cycle(self) -> float:
        """One transaction: record outcomes, keep the lease, settle what dead processes left,
        send digests that are due, and claim what may go now; then start sending it."""
        heartbeat = self._lease.beat_due()
        cycle = _Cycle()
        outcomes, self._outcomes = self._outcomes, []
        try:
            async with self._uow_factory() as uow:
                await self._recorder.record_all(uow, outcomes)
                if heartbeat:
                    await self._keep_alive(uow)
                if self._recorder.digests_due or heartbeat:
                    self._recorder.digests_due = await send_digests(uow, self._clock())
                if not self._stopping:
                    cycle = await self._claim_what_may_go(uow)
                await uow.commit()
        except BaseException:
            # The transaction is lost, and the outcomes recorded in it with it: the next cycle
            # records them (a message left "sending" would hold its chat up for good).
            self._outcomes = outcomes + self._outcomes
            for job in cycle.jobs:
                await self._limiter.finish(job.slot)
            raise
        if heartbeat:
            self._lease.beaten()
        for job in cycle.jobs:
            chat_id = job.claimed.message.chat_id
            task = asyncio.create_task(self._deliver(job), name=f"deliver-{job.claimed.id}")
            self._sending[chat_id] = task
            task.add_done_callback(partial(self._done, chat_id))
        return max(cycle.pause, 0.001)

    async def _claim_what_may_go(self, uow: SqlUnitOfWork) -> _Cycle:
        now = self._clock()
        await uow.outbox.supersede(now)
        waiting = await uow.outbox.waiting(QUEUE_WINDOW, skip_busy_chats=True)
        cycle = _Cycle(pause=self._pace.poll_seconds)
        slots: dict[int, Slot] = {}
        seen: set[int] = set()
        for item in waiting:
            if item.chat_id in seen:
                continue  # messages to one chat go in the order they were recorded
            seen.add(item.chat_id)
            if item.chat_id in self._sending:
                continue
            if len(self._sending) + len(slots) >= self._pace.concurrency:
                break
            due_in = 0.0 if item.not_before is None else (item.not_before - now).total_seconds()
            if due_in > 0:
                cycle.pause = min(cycle.pause, due_in)
                continue
            slot = await self._limiter.try_start(item.chat_id)
            if not isinstance(slot, Slot):
                cycle.pause = min(cycle.pause, slot)
                continue
            slots[item.id] = slot
        claimed = await uow.outbox.claim(list(slots), self.identity)
        for message in claimed:
            chat_id = message.message.chat_id
            if is_private_chat(chat_id) and await uow.outbox.is_unreachable(chat_id):
                # He refused a message already (and the organizer's digest named him): nothing
                # more goes to him until he opens the bot again (`handlers/start.unblocked`).
                await uow.outbox.mark_failed(
                    message.id, self.identity, DeliveryStatus.UNREACHABLE, now, BLOCKED
                )
                await uow.outbox.mark_reported([message.id], now)
                metrics.deliveries.labels("unreachable").inc()
                await self._limiter.finish(slots.pop(message.id))
                continue
            locale = await self._writer.locale(uow, chat_id, message.message.tournament_id)
            anchor = await self._anchor(uow, message.message)
            cycle.jobs.append(Job(message, locale, anchor, slots.pop(message.id)))
        for slot in slots.values():  # another process claimed these first
            await self._limiter.finish(slot)
        return cycle

    async def _keep_alive(self, uow: SqlUnitOfWork) -> None:
        """Renew this process's lease; settle the messages of processes whose lease ran out
        as if their answers were lost."""
        for claimed in await self._lease.keep_alive(uow, self._clock()):
            anchor = await self._anchor(uow, claimed.message)
            outcome = self._sender.answer_lost(
                claimed, anchor is not None, "in flight when its process stopped", False
            )
            await self._recorder.record(uow, outcome)

    def _done(self, chat_id: int, _task: object = None) -> None:
        self._sending.pop(chat_id, None)
        self._wakeup.set()

    # --- one message -------------------------------------------------------------------------

    async def _deliver(self, job: Job) -> None:
        try:
            outcome = await self._sender.send(job)
        except Exception as error:  # a bug must not leave the message "sending" for ever
            log.exception("delivery of outbox message %s failed", job.claimed.id)
            outcome = Outcome(job.claimed, DeliveryStatus.FAILED, self._clock(), error=str(error))
        finally:
            await self._limiter.finish(job.slot)
        self._outcomes.append(outcome)
        self._wakeup.set()

    @staticmethod
    async def _anchor(uow: SqlUnitOfWork, message: OutgoingMessage) -> Anchor | None:
        if message.edit_key is None:
            return None
        return await uow.outbox.anchor(message.edit_key)
