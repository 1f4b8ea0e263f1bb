"""The outbox worker: sends what use cases recorded, within Telegram's limits, by the delivery
promise.

The delivery promise: no message is ever lost, and a message goes out twice only when
Telegram's answer to it was lost. A message is either sent (its answer arrived), or known not to
have been sent and tried again later (a 429, a connection that never opened), or rejected for
good (the person blocked the bot: "unreachable"; Telegram refused it: "failed"), or its request
may have reached Telegram while its answer was lost (a timeout, a 5xx, a page aiogram cannot
decode such as a proxy's 502, a process killed while waiting). For that last case one rule holds
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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import TypeVar

import aiohttp
from aiogram import Bot
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, Message

from bot import metrics
from bot.db.repositories.outbox import Anchor, Claimed, Problem
from bot.db.transactions import labelled
from bot.db.uow import SqlUnitOfWork, SqlUnitOfWorkFactory
from bot.delivery.limits import DeliveryLimits, Limiter, LocalLimiter, Slot, is_private_chat
from bot.delivery.render import IntentPacker, Rendered, render
from bot.i18n import Translator, translator
from bot.rendering.text import escape
from domain.outgoing import (
    AnswerLost,
    Attachment,
    DeliveryStatus,
    Drawing,
    Html,
    OutgoingMessage,
    Phrase,
    when_answer_lost,
)

log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
# Draws an attachment's content (bytes) or a message's text (HTML) at send time from its
# drawing's arguments, in a language.
Drawer = Callable[[Mapping[str, str | int], str, datetime], Awaitable[bytes | str]]
T = TypeVar("T")

# Telegram's words for a chat the bot may not write to, answered as 400 rather than 403.
UNREACHABLE_BAD_REQUESTS = ("chat not found", "user not found", "have no rights to send")
NOT_MODIFIED = "message is not modified"
EDIT_TARGET_GONE = ("message to edit not found", "message can't be edited")
MAX_ATTEMPTS = 8
# Why a message to a person who blocked the bot was not even tried.
BLOCKED = "not sent: the person refused an earlier message and has not opened the bot since"
MAX_BACKOFF_SECONDS = 60.0
QUEUE_WINDOW = 500
# The longest window of Telegram's limits (a group's minute): sends that recent still count.
LONGEST_WINDOW = timedelta(minutes=1)
# A worker's lease: renewed every HEARTBEAT_SECONDS, taken over LEASE_SECONDS after its last
# renewal (a killed process's messages are settled within a minute).
WORKER_LEASE_PREFIX = "worker:"
LEASE_SECONDS = 30.0
HEARTBEAT_SECONDS = 10.0
# What its transactions are counted under (`bot.db.transactions.labelled`).
TRANSACTIONS_LABEL = "outbox worker"
# How long a cycle lets the updates being handled go first (see `DeliveryWorker._make_way`).
MAKE_WAY_SECONDS = 0.25


def utc_now() -> datetime:
    """The real clock; tests pass their own."""
    return datetime.now(UTC)


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


def process_identity() -> str:
    """This process among the bot's replicas: host, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class _NotSent(Exception):
    """The request failed before anything reached Telegram: it may be tried again later."""

    def __init__(self, delay: float | None, reason: str) -> None:
        super().__init__(reason)
        self.delay = delay  # None: back off by the number of attempts
        self.reason = reason


class _AnswerLost(Exception):
    """The request may have reached Telegram, but its answer was lost."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _backoff(attempts: int) -> float:
    return min(MAX_BACKOFF_SECONDS, 2.0 ** max(0, attempts - 1))


def _reason(error: Exception) -> str:
    if isinstance(error, ClientDecodeError):
        return f"undecodable answer: {str(error)[:120]}"
    return f"{type(error).__name__}: {getattr(error, 'message', error)}"


def _never_left(error: TelegramNetworkError) -> bool:
    """A connection that never opened: nothing reached Telegram."""
    return isinstance(error.__cause__, aiohttp.ClientConnectorError)


@dataclass
class _Job:
    """A claimed message on its way: what the cycle that claimed it read for it."""

    claimed: Claimed
    locale: str
    anchor: Anchor | None
    slot: Slot
    maybe_duplicate: bool = False  # a request of it was sent again after a lost answer


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What became of a claimed message, recorded by the next cycle."""

    claimed: Claimed
    status: DeliveryStatus  # PENDING: back in the queue
    at: datetime
    telegram_id: int | None = None
    error: str | None = None
    not_before: datetime | None = None
    maybe_duplicate: bool = False
    shown: str | None = None  # a digest of what a message kept up to date in place now shows


@dataclass
class _Cycle:
    """What one cycle's transaction decided: the messages to send now, and how long to sleep."""

    jobs: list[_Job] = field(default_factory=list)
    pause: float = 0.0


class DeliveryWorker:
    """An asyncio task draining the outbox; `wake()` after a commit that added messages."""

    def __init__(
        self,
        bot: Bot,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        limits: DeliveryLimits = DeliveryLimits(),  # noqa: B008 (frozen, shared safely)
        limiter: Limiter | None = None,
        default_locale: str = "ru",
        clock: Clock = utc_now,
        monotonic: Callable[[], float] = time.monotonic,
        poll_seconds: float = 2.0,
        concurrency: int = 16,
        texts: Translator | None = None,
        drawers: Mapping[str, Drawer] | None = None,
        pack: IntentPacker | None = None,
        identity: str | None = None,
        updates_quiet: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        """`updates_quiet(timeout)` returns once the updates being handled have finished (or
        after `timeout`): a cycle waits for it first (`ReplyScope.quiet`)."""
        self._bot = bot
        self._uow_factory = uow_factory
        self._limiter: Limiter = limiter or LocalLimiter(limits, monotonic)
        self._default_locale = default_locale
        self._clock = clock
        self._monotonic = monotonic
        self._poll_seconds = poll_seconds
        self._concurrency = concurrency
        self._texts = texts or translator()
        self._drawers = dict(drawers or {})
        self._pack = pack
        self.identity = identity or process_identity()
        self._updates_quiet = updates_quiet
        self._lease = WORKER_LEASE_PREFIX + self.identity
        self._wakeup = asyncio.Event()
        self._stopping = False
        self._loop_task: asyncio.Task[None] | None = None
        self._sending: dict[int, asyncio.Task[None]] = {}  # by chat: one message at a time
        self._outcomes: list[_Outcome] = []
        self._unreachable: set[int] = set()
        self._next_heartbeat = 0.0
        self._digests_due = True

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Announce this process alive, then start sending (the loop's task, and the sending
        tasks it starts, count their transactions under the worker's label)."""
        with labelled(TRANSACTIONS_LABEL):
            await self._start()

    async def _start(self) -> None:
        async with self._uow_factory() as uow:
            await uow.leases.take(self._lease, self.identity, self._clock(), LEASE_SECONDS)
            self._unreachable = await uow.outbox.unreachable_chats()
            if isinstance(self._limiter, LocalLimiter):
                now = self._clock()
                for chat_id, sent_at in await uow.outbox.sent_since(now - LONGEST_WINDOW):
                    self._limiter.seed(chat_id, (now - sent_at).total_seconds())
            await uow.commit()
        self._next_heartbeat = self._tick()  # the first cycle settles what dead processes left
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
                    await self._record_outcomes(uow, self._outcomes)
                    await uow.leases.release(self._lease, self.identity)
                    await uow.commit()
        except Exception:
            log.exception("the delivery worker could not record its last messages")

    def wake(self) -> None:
        """Look at the outbox now rather than at the next poll."""
        self._wakeup.set()

    def on_commit(self, changed: frozenset[str]) -> None:
        """A unit-of-work commit listener: wake up when the outbox got messages."""
        if "outbox" in changed:
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
                pause = self._poll_seconds
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
        if self._updates_quiet is not None and not self._stopping:
            await self._updates_quiet(MAKE_WAY_SECONDS)

    async def _cycle(self) -> float:
        """One transaction: record outcomes, keep the lease, settle what dead processes left,
        send digests that are due, and claim what may go now; then start sending it."""
        heartbeat = self._tick() >= self._next_heartbeat
        cycle = _Cycle()
        outcomes, self._outcomes = self._outcomes, []
        try:
            async with self._uow_factory() as uow:
                await self._record_outcomes(uow, outcomes)
                if heartbeat:
                    await self._keep_alive(uow)
                if self._digests_due or heartbeat:
                    await self._send_digests(uow)
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
            self._next_heartbeat = self._tick() + HEARTBEAT_SECONDS
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
        cycle = _Cycle(pause=self._poll_seconds)
        slots: dict[int, Slot] = {}
        seen: set[int] = set()
        for item in waiting:
            if item.chat_id in seen:
                continue  # messages to one chat go in the order they were recorded
            seen.add(item.chat_id)
            if item.chat_id in self._sending:
                continue
            if len(self._sending) + len(slots) >= self._concurrency:
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
            locale = await self._locale(uow, chat_id, message.message.tournament_id)
            anchor = await self._anchor(uow, message.message)
            cycle.jobs.append(_Job(message, locale, anchor, slots.pop(message.id)))
        for slot in slots.values():  # another process claimed these first
            await self._limiter.finish(slot)
        return cycle

    def _done(self, chat_id: int, _task: object = None) -> None:
        self._sending.pop(chat_id, None)
        self._wakeup.set()

    # --- recording ---------------------------------------------------------------------------

    async def _record_outcomes(self, uow: SqlUnitOfWork, outcomes: list[_Outcome]) -> None:
        for outcome in outcomes:
            await self._record(uow, outcome)

    async def _record(self, uow: SqlUnitOfWork, outcome: _Outcome) -> None:
        claimed, message = outcome.claimed, outcome.claimed.message
        outbox = uow.outbox
        if outcome.status is DeliveryStatus.SENT:
            assert outcome.telegram_id is not None
            owned = await outbox.mark_sent(
                claimed.id,
                self.identity,
                outcome.telegram_id,
                outcome.at,
                maybe_duplicate=outcome.maybe_duplicate,
            )
        elif outcome.status is DeliveryStatus.PENDING:
            assert outcome.not_before is not None and outcome.error is not None
            owned = await outbox.retry_later(
                claimed.id,
                self.identity,
                outcome.not_before,
                outcome.error,
                maybe_duplicate=outcome.maybe_duplicate,
            )
        else:
            owned = await outbox.mark_failed(
                claimed.id, self.identity, outcome.status, outcome.at, outcome.error or ""
            )
        if not owned:
            log.warning(
                "outbox message %s was settled by another process meanwhile: %s not recorded",
                claimed.id,
                outcome.status,
            )
            return
        if outcome.status is not DeliveryStatus.PENDING:
            metrics.deliveries.labels(outcome.status.value).inc()
        if outcome.status is DeliveryStatus.SENT:
            if message.edit_key is not None:
                await outbox.set_anchor(
                    message.edit_key,
                    Anchor(message.chat_id, outcome.telegram_id or 0, outcome.shown),
                )
            if message.chat_id in self._unreachable:
                await outbox.mark_reachable(message.chat_id)
                self._unreachable.discard(message.chat_id)
        elif outcome.status is DeliveryStatus.UNREACHABLE:
            await outbox.mark_unreachable(message.chat_id, outcome.error or "", outcome.at)
            self._unreachable.add(message.chat_id)
        if outcome.status in (DeliveryStatus.UNREACHABLE, DeliveryStatus.UNCERTAIN):
            self._digests_due = True
        if outcome.status is DeliveryStatus.UNCERTAIN:
            log.warning(
                "outbox message %s to %s uncertain: %s", claimed.id, message.chat_id, outcome.error
            )
        elif outcome.status is DeliveryStatus.FAILED:
            log.error(
                "outbox message %s to %s failed: %s", claimed.id, message.chat_id, outcome.error
            )
            await self._tell_failed(uow, claimed, outcome.error or "")

    async def _keep_alive(self, uow: SqlUnitOfWork) -> None:
        """Renew this process's lease; settle the messages of processes whose lease ran out
        as if their answers were lost."""
        now = self._clock()
        await uow.leases.take(self._lease, self.identity, now, LEASE_SECONDS)
        alive = await uow.leases.alive(WORKER_LEASE_PREFIX, now)
        for claimed in await uow.outbox.take_over(self.identity, alive, now):
            anchor = await self._anchor(uow, claimed.message)
            outcome = self._answer_lost(
                claimed, anchor is not None, "in flight when its process stopped", False
            )
            await self._record(uow, outcome)

    # --- the organizer's digest --------------------------------------------------------------

    async def _tell_failed(self, uow: SqlUnitOfWork, claimed: Claimed, error: str) -> None:
        """A message that will never go (it cannot be rendered, Telegram rejects it) is the
        organizer's to know about at once, with the reason, not only a line in the log."""
        about = claimed.message
        if about.tournament_id is None:
            return
        tournament = await uow.tournaments.get(about.tournament_id)
        if tournament is None or tournament.created_by == about.chat_id:
            return  # the organizer cannot be told about their own chat
        person = await uow.users.get(about.chat_id)
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=tournament.created_by,
                phrase=Phrase.of(
                    "delivery-failed",
                    tournament=tournament.title,
                    name=person.display_name if person else str(about.chat_id),
                    channel="no" if is_private_chat(about.chat_id) else "yes",
                    reason=error[:200],
                ),
                tournament_id=tournament.id,
                dedupe_key=f"delivery:{tournament.id}:failed:{claimed.id}",
            )
        )

    async def _send_digests(self, uow: SqlUnitOfWork) -> None:
        """One message per tournament whose broadcast is over, naming whom it did not reach."""
        problems = await uow.outbox.unreported()
        self._digests_due = bool(problems)
        by_tournament: dict[int, list[Problem]] = defaultdict(list)
        for problem in problems:
            by_tournament[problem.tournament_id].append(problem)
        busy = await uow.outbox.busy_tournaments(list(by_tournament))
        now = self._clock()
        for tournament_id, items in by_tournament.items():
            if tournament_id in busy:
                continue
            digest = await self._digest(uow, tournament_id, items)
            if digest is not None:
                await uow.outbox.add(digest)
            await uow.outbox.mark_reported([item.id for item in items], now)

    async def _digest(
        self, uow: SqlUnitOfWork, tournament_id: int, problems: list[Problem]
    ) -> OutgoingMessage | None:
        tournament = await uow.tournaments.get(tournament_id)
        if tournament is None:
            return None
        names: dict[DeliveryStatus, list[str]] = defaultdict(list)
        channel: dict[DeliveryStatus, int] = defaultdict(int)
        for problem in problems:
            if problem.chat_id == tournament.created_by:
                continue  # the organizer cannot be told about their own chat
            if not is_private_chat(problem.chat_id):
                channel[problem.status] = 1
                continue
            person = await uow.users.get(problem.chat_id)
            name = escape(person.display_name if person else str(problem.chat_id))
            if name not in names[problem.status]:
                names[problem.status].append(name)
        unreachable, uncertain = names[DeliveryStatus.UNREACHABLE], names[DeliveryStatus.UNCERTAIN]
        if not (unreachable or uncertain or channel):
            return None
        return OutgoingMessage(
            chat_id=tournament.created_by,
            phrase=Phrase.of(
                "delivery-digest",
                tournament=tournament.title,
                unreachable=Html(", ".join(unreachable)),
                unreachable_count=len(unreachable),
                uncertain=Html(", ".join(uncertain)),
                uncertain_count=len(uncertain),
                channel_unreachable=channel[DeliveryStatus.UNREACHABLE],
                channel_uncertain=channel[DeliveryStatus.UNCERTAIN],
            ),
            tournament_id=tournament.id,
            dedupe_key=f"delivery-digest:{tournament.id}:{problems[-1].id}",
        )

    # --- one message -------------------------------------------------------------------------

    async def _deliver(self, job: _Job) -> None:
        try:
            outcome = await self._send_claimed(job)
        except Exception as error:  # a bug must not leave the message "sending" for ever
            log.exception("delivery of outbox message %s failed", job.claimed.id)
            outcome = _Outcome(job.claimed, DeliveryStatus.FAILED, self._clock(), error=str(error))
        finally:
            await self._limiter.finish(job.slot)
        self._outcomes.append(outcome)
        self._wakeup.set()

    async def _send_claimed(self, job: _Job) -> _Outcome:
        claimed = job.claimed
        message = claimed.message
        try:
            message = await self._drawn(message, job.locale)
            rendered = render(self._texts, job.locale, message, self._pack)
            if not rendered.texts and message.attachment is None:
                raise ValueError("the message has no text")
            if job.anchor is not None and len(rendered.texts) > 1:
                raise ValueError("a message edited in place must fit in one message")
            shown = rendered.shown_digest() if message.edit_key is not None else None
            telegram_id = await self._send(job, message, rendered, shown)
        except _NotSent as not_sent:
            return self._retry_later(claimed, not_sent.delay, not_sent.reason, False)
        except _AnswerLost as lost:
            return self._answer_lost(
                claimed, job.anchor is not None, lost.reason, job.maybe_duplicate
            )
        except TelegramForbiddenError as error:
            return self._finished(claimed, DeliveryStatus.UNREACHABLE, error.message)
        except TelegramBadRequest as error:
            if any(words in error.message for words in UNREACHABLE_BAD_REQUESTS):
                return self._finished(claimed, DeliveryStatus.UNREACHABLE, error.message)
            return self._finished(claimed, DeliveryStatus.FAILED, error.message)
        except (TelegramAPIError, ValueError, KeyError) as error:
            return self._finished(claimed, DeliveryStatus.FAILED, str(error))
        return _Outcome(
            claimed,
            DeliveryStatus.SENT,
            self._clock(),
            telegram_id=telegram_id,
            maybe_duplicate=job.maybe_duplicate,
            shown=shown,
        )

    def _finished(self, claimed: Claimed, status: DeliveryStatus, error: str) -> _Outcome:
        return _Outcome(claimed, status, self._clock(), error=error)

    def _retry_later(
        self, claimed: Claimed, delay: float | None, reason: str, maybe_duplicate: bool
    ) -> _Outcome:
        if claimed.attempts >= MAX_ATTEMPTS:
            return self._finished(claimed, DeliveryStatus.FAILED, reason)
        now = self._clock()
        seconds = delay if delay is not None else _backoff(claimed.attempts)
        return _Outcome(
            claimed,
            DeliveryStatus.PENDING,
            now,
            error=reason,
            not_before=now + timedelta(seconds=seconds),
            maybe_duplicate=maybe_duplicate,
        )

    def _answer_lost(
        self, claimed: Claimed, edits: bool, reason: str, sent_again: bool
    ) -> _Outcome:
        """The delivery promise for a message whose answer was lost (see the module's doc)."""
        if when_answer_lost(claimed.message.chat_id, edits=edits) is AnswerLost.UNCERTAIN:
            return self._finished(claimed, DeliveryStatus.UNCERTAIN, reason)
        if edits:
            return self._retry_later(claimed, None, reason, False)
        if claimed.maybe_duplicate or sent_again:
            return self._finished(claimed, DeliveryStatus.UNCERTAIN, reason)  # sent again once
        return self._retry_later(claimed, None, reason, True)

    async def _drawn(self, message: OutgoingMessage, locale: str) -> OutgoingMessage:
        """The message with its text and its attachment drawn, when they are drawn at send
        time."""
        if message.text_drawing is not None:
            text = await self._draw(message.text_drawing, locale, str)
            message = replace(message, text=text, text_drawing=None)
        attachment = message.attachment
        if attachment is None or attachment.drawing is None:
            return message
        content = await self._draw(attachment.drawing, locale, bytes)
        return replace(message, attachment=replace(attachment, content=content, drawing=None))

    async def _draw(self, drawing: Drawing, locale: str, kind: type[T]) -> T:
        drawer = self._drawers.get(drawing.drawer)
        if drawer is None:
            raise ValueError(f"no drawer {drawing.drawer!r}")
        try:
            drawn = await drawer(drawing.arguments, locale, self._clock())
        except Exception as error:  # a drawing that cannot be made fails its message only
            raise ValueError(f"drawing {drawing.drawer!r} failed: {error}") from error
        if not isinstance(drawn, kind):
            raise ValueError(f"drawing {drawing.drawer!r} made no {kind.__name__}")
        return drawn

    async def _send(
        self, job: _Job, message: OutgoingMessage, rendered: Rendered, shown: str | None
    ) -> int:
        """Every request of one message; returns the Telegram id of its first message. An edit
        that would change nothing (`shown`, the digest of its content, is what the message was
        last sent with) makes no request."""
        chat_id = message.chat_id
        anchor = job.anchor
        if anchor is not None and shown is not None and anchor.shown == shown:
            await self._limiter.give_back(job.slot)  # no request: no place in the windows
            return anchor.message_id
        if anchor is not None:
            edited = await self._first_request(job, lambda: self._edit(anchor, rendered))
            if edited:
                return anchor.message_id
            job.anchor = None  # the old message is gone: a new one is posted
        requests: list[Callable[[], Awaitable[Message]]] = []
        if message.attachment is not None:
            keyboard = rendered.keyboard if not rendered.texts else None
            attachment = message.attachment
            requests.append(
                lambda: self._send_attachment(chat_id, attachment, rendered.caption, keyboard)
            )
        for index, text in enumerate(rendered.texts):
            keyboard = rendered.keyboard if index == len(rendered.texts) - 1 else None
            requests.append(
                partial(
                    self._bot.send_message,
                    chat_id,
                    text,
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                )
            )
        if anchor is not None:
            first = await self._later_request(job, requests[0])
        else:
            first = await self._first_request(job, requests[0])
        for request in requests[1:]:
            await self._later_request(job, request)
        if message.pin:
            await self._pin(chat_id, first.message_id)
        return first.message_id

    async def _edit(self, anchor: Anchor, rendered: Rendered) -> bool:
        """Edit the anchored message; False when it no longer exists."""
        try:
            await self._bot.edit_message_text(
                text=rendered.texts[0],
                chat_id=anchor.chat_id,
                message_id=anchor.message_id,
                parse_mode=ParseMode.HTML,
                reply_markup=rendered.keyboard,
            )
        except TelegramBadRequest as error:
            if NOT_MODIFIED in error.message:
                return True
            if any(words in error.message for words in EDIT_TARGET_GONE):
                return False
            raise
        return True

    async def _send_attachment(
        self,
        chat_id: int,
        attachment: Attachment,
        caption: str | None,
        keyboard: InlineKeyboardMarkup | None,
    ) -> Message:
        file = BufferedInputFile(attachment.content, attachment.filename)
        send = self._bot.send_photo if attachment.kind == "photo" else self._bot.send_document
        return await send(
            chat_id, file, caption=caption, parse_mode=ParseMode.HTML, reply_markup=keyboard
        )

    async def _pin(self, chat_id: int, message_id: int) -> None:
        slot = await self._next_slot(chat_id)
        try:
            await self._bot.pin_chat_message(chat_id, message_id, disable_notification=True)
        except (TelegramAPIError, ClientDecodeError) as error:
            # The message went out; a missing pin right is the organizer's to fix.
            log.warning("could not pin message %s in chat %s: %s", message_id, chat_id, error)
        finally:
            await self._limiter.finish(slot)

    async def _first_request(self, job: _Job, request: Callable[[], Awaitable[T]]) -> T:
        """The request before which nothing of the message went out (its slot is the job's):
        a failure puts the message back in the queue or settles it by the promise."""
        chat_id = job.claimed.message.chat_id
        try:
            return await request()
        except TelegramRetryAfter as error:
            await self._limiter.pause(chat_id, error.retry_after)
            raise _NotSent(error.retry_after, f"429: retry after {error.retry_after}") from error
        except TelegramNetworkError as error:
            if _never_left(error):
                raise _NotSent(None, _reason(error)) from error
            raise _AnswerLost(_reason(error)) from error
        except (TelegramServerError, ClientDecodeError) as error:
            raise _AnswerLost(_reason(error)) from error
        finally:
            await self._limiter.finish(job.slot)

    async def _later_request(self, job: _Job, request: Callable[[], Awaitable[T]]) -> T:
        """A request after part of the message went out: retried here, in order, by the
        promise when its answer is lost."""
        chat_id = job.claimed.message.chat_id
        attempt = 0
        while True:
            attempt += 1
            slot = await self._next_slot(chat_id)
            try:
                return await request()
            except TelegramRetryAfter as error:
                if attempt >= MAX_ATTEMPTS:
                    raise
                await self._limiter.pause(chat_id, error.retry_after)
            except (TelegramNetworkError, TelegramServerError, ClientDecodeError) as error:
                if attempt >= MAX_ATTEMPTS:
                    raise _AnswerLost(_reason(error)) from error
                never_left = isinstance(error, TelegramNetworkError) and _never_left(error)
                if not never_left:
                    if job.maybe_duplicate or (
                        when_answer_lost(chat_id, edits=False) is AnswerLost.UNCERTAIN
                    ):
                        raise _AnswerLost(_reason(error)) from error
                    job.maybe_duplicate = True
                await asyncio.sleep(_backoff(attempt))
            finally:
                await self._limiter.finish(slot)

    async def _next_slot(self, chat_id: int) -> Slot:
        while True:
            slot = await self._limiter.try_start(chat_id)
            if isinstance(slot, Slot):
                return slot
            await asyncio.sleep(min(slot, self._poll_seconds))

    def _tick(self) -> float:
        return self._monotonic()

    # --- reading -----------------------------------------------------------------------------

    async def _locale(self, uow: SqlUnitOfWork, chat_id: int, tournament_id: int | None) -> str:
        """A person's language; a tournament's channel speaks the tournament's language."""
        if is_private_chat(chat_id):
            person = await uow.users.get(chat_id)
            return person.locale if person else self._default_locale
        tournament = await uow.tournaments.get(tournament_id) if tournament_id else None
        return tournament.locale if tournament else self._default_locale

    @staticmethod
    async def _anchor(uow: SqlUnitOfWork, message: OutgoingMessage) -> Anchor | None:
        if message.edit_key is None:
            return None
        return await uow.outbox.anchor(message.edit_key)
