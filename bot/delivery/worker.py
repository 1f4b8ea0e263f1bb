"""The outbox worker: sends what use cases recorded, within Telegram's limits, at most once.

A message is claimed (status "sending", committed) before its first request and marked after
its answer. A message found "sending" at start-up was in flight when the process died: it is
marked "uncertain" and never sent again, and the tournament's organizer is told. A 429 or a
network error before anything went out puts the message back in the queue; a 403 marks the
chat unreachable and tells the organizer who must press /start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from aiogram import Bot
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramBadRequest,
    TelegramForbiddenError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, Message

from bot import metrics
from bot.db.repositories.outbox import Anchor, Claimed, Waiting
from bot.db.uow import SqlUnitOfWork, SqlUnitOfWorkFactory
from bot.delivery.limits import DeliveryLimits, RateLimiter, Slot, is_private_chat
from bot.delivery.render import Rendered, render
from bot.i18n import Translator, translator
from domain.outgoing import Attachment, DeliveryStatus, Drawing, OutgoingMessage, Phrase

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


def utc_now() -> datetime:
    """The real clock; tests pass their own."""
    return datetime.now(UTC)


class _NotSent(Exception):
    """The first request failed in a way that may be tried again later (nothing went out)."""

    def __init__(self, delay: float | None, reason: str) -> None:
        super().__init__(reason)
        self.delay = delay  # None: back off by the number of attempts
        self.reason = reason


def _backoff(attempts: int) -> float:
    return min(MAX_BACKOFF_SECONDS, 2.0 ** max(0, attempts - 1))


class DeliveryWorker:
    """An asyncio task draining the outbox; `wake()` after a commit that added messages."""

    def __init__(
        self,
        bot: Bot,
        uow_factory: SqlUnitOfWorkFactory,
        *,
        limits: DeliveryLimits = DeliveryLimits(),  # noqa: B008 (frozen, shared safely)
        default_locale: str = "ru",
        clock: Clock = utc_now,
        monotonic: Callable[[], float] = time.monotonic,
        poll_seconds: float = 2.0,
        concurrency: int = 16,
        texts: Translator | None = None,
        drawers: Mapping[str, Drawer] | None = None,
    ) -> None:
        self._bot = bot
        self._uow_factory = uow_factory
        self._limiter = RateLimiter(limits)
        self._default_locale = default_locale
        self._clock = clock
        self._monotonic = monotonic
        self._poll_seconds = poll_seconds
        self._concurrency = concurrency
        self._texts = texts or translator()
        self._drawers = dict(drawers or {})
        self._wakeup = asyncio.Event()
        self._stopping = False
        self._loop_task: asyncio.Task[None] | None = None
        self._sending: dict[int, asyncio.Task[None]] = {}  # by chat: one message at a time
        self._unreachable: set[int] = set()

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Settle what a crash left in flight, then start sending."""
        await self._settle_interrupted()
        async with self._uow_factory() as uow:
            self._unreachable = await uow.outbox.unreachable_chats()
            now, tick = self._clock(), self._tick()
            for chat_id, sent_at in await uow.outbox.sent_since(now - LONGEST_WINDOW):
                self._limiter.seed(chat_id, tick - (now - sent_at).total_seconds())
        self._stopping = False
        self._loop_task = asyncio.create_task(self._run(), name="delivery-worker")

    async def stop(self) -> None:
        """Stop taking messages and let the ones in flight finish (so they are marked)."""
        self._stopping = True
        self._wakeup.set()
        if self._loop_task is not None:
            await self._loop_task
            self._loop_task = None
        if self._sending:
            await asyncio.gather(*self._sending.values(), return_exceptions=True)

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
            try:
                pause = await self._start_what_may_go()
            except Exception:
                log.exception("the delivery worker could not read the outbox")
                pause = self._poll_seconds
            self._wakeup.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=pause)

    async def _start_what_may_go(self) -> float:
        """Start sending every message allowed now; return how long to sleep at most."""
        async with self._uow_factory() as uow:
            waiting = await uow.outbox.waiting(QUEUE_WINDOW)
        now, tick = self._clock(), self._tick()
        self._limiter.forget_idle(tick)
        pause = self._poll_seconds
        seen: set[int] = set()
        for item in waiting:
            if item.chat_id in seen:
                continue  # messages to one chat go in the order they were recorded
            seen.add(item.chat_id)
            if item.chat_id in self._sending or len(self._sending) >= self._concurrency:
                continue
            due_in = _seconds_until(item, now)
            wait = max(due_in, self._limiter.wait(item.chat_id, tick))
            if wait > 0:
                pause = min(pause, wait)
                continue
            slot = self._limiter.start(item.chat_id, tick)
            task = asyncio.create_task(self._deliver(item.id, item.chat_id, slot))
            self._sending[item.chat_id] = task
            task.add_done_callback(lambda _, chat=item.chat_id: self._done(chat))
        return max(pause, 0.001)

    def _done(self, chat_id: int) -> None:
        self._sending.pop(chat_id, None)
        self._wakeup.set()

    # --- one message -------------------------------------------------------------------------

    async def _deliver(self, outbox_id: int, chat_id: int, slot: Slot) -> None:
        try:
            async with self._uow_factory() as uow:
                claimed = await uow.outbox.claim(outbox_id)
                if claimed is None:
                    self._limiter.finish(slot, self._tick())
                    return
                if is_private_chat(chat_id) and await uow.outbox.is_unreachable(chat_id):
                    # He refused a message already (and the organizer was told): nothing more
                    # goes to him until he opens the bot again (`handlers/start.unblocked`).
                    await uow.outbox.mark_failed(
                        claimed.id, DeliveryStatus.UNREACHABLE, self._clock(), BLOCKED
                    )
                    await uow.commit()
                    metrics.deliveries.labels("unreachable").inc()
                    return
                locale = await self._locale(uow, chat_id, claimed.message.tournament_id)
                anchor = await self._anchor(uow, claimed.message)
                await uow.commit()
            await self._send_claimed(claimed, locale, anchor, slot)
        except Exception:
            log.exception("delivery of outbox message %s failed", outbox_id)
        finally:
            if slot.ended is None:
                self._limiter.finish(slot, self._tick())

    async def _send_claimed(
        self, claimed: Claimed, locale: str, anchor: Anchor | None, slot: Slot
    ) -> None:
        message = claimed.message
        try:
            message = await self._drawn(message, locale)
            rendered = render(self._texts, locale, message)
            if not rendered.texts and message.attachment is None:
                raise ValueError("the message has no text")
            if anchor is not None and len(rendered.texts) > 1:
                raise ValueError("a message edited in place must fit in one message")
            telegram_id = await self._send(message, rendered, anchor, slot)
        except _NotSent as not_sent:
            await self._retry_later(claimed, not_sent)
        except TelegramForbiddenError as error:
            await self._unreachable_chat(claimed, error.message)
        except TelegramBadRequest as error:
            if any(words in error.message for words in UNREACHABLE_BAD_REQUESTS):
                await self._unreachable_chat(claimed, error.message)
            else:
                await self._failed(claimed, error.message)
        except (TelegramAPIError, ValueError, KeyError) as error:
            await self._failed(claimed, str(error))
        else:
            await self._sent(claimed, telegram_id)

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
        self, message: OutgoingMessage, rendered: Rendered, anchor: Anchor | None, slot: Slot
    ) -> int:
        """Every request of one message; returns the Telegram id of its first message."""
        chat_id = message.chat_id
        if anchor is not None:
            edited = await self._first_request(chat_id, slot, lambda: self._edit(anchor, rendered))
            if edited:
                return anchor.message_id
            slot = await self._next_slot(chat_id)  # the old message is gone: send a new one
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
                lambda text=text, keyboard=keyboard: self._bot.send_message(
                    chat_id, text, parse_mode=ParseMode.HTML, reply_markup=keyboard
                )
            )
        first = await self._first_request(chat_id, slot, requests[0])
        for request in requests[1:]:
            await self._later_request(chat_id, request)
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
        except TelegramAPIError as error:
            # The message went out; a missing pin right is the organizer's to fix.
            log.warning("could not pin message %s in chat %s: %s", message_id, chat_id, error)
        finally:
            self._limiter.finish(slot, self._tick())

    async def _first_request(
        self, chat_id: int, slot: Slot, request: Callable[[], Awaitable[T]]
    ) -> T:
        """The request before which nothing of the message went out: a failure that may be
        retried puts the message back in the queue instead of waiting here."""
        try:
            return await request()
        except TelegramRetryAfter as error:
            self._limiter.pause(chat_id, error.retry_after, self._tick())
            raise _NotSent(error.retry_after, f"429: retry after {error.retry_after}") from error
        except (TelegramNetworkError, TelegramServerError) as error:
            raise _NotSent(None, f"{type(error).__name__}: {error.message}") from error
        finally:
            self._limiter.finish(slot, self._tick())

    async def _later_request(self, chat_id: int, request: Callable[[], Awaitable[T]]) -> T:
        """A request after part of the message went out: it is retried here, in order."""
        attempt = 0
        while True:
            attempt += 1
            slot = await self._next_slot(chat_id)
            try:
                return await request()
            except TelegramRetryAfter as error:
                if attempt >= MAX_ATTEMPTS:
                    raise
                self._limiter.pause(chat_id, error.retry_after, self._tick())
            except (TelegramNetworkError, TelegramServerError):
                if attempt >= MAX_ATTEMPTS:
                    raise
                await asyncio.sleep(_backoff(attempt))
            finally:
                self._limiter.finish(slot, self._tick())

    async def _next_slot(self, chat_id: int) -> Slot:
        while True:
            wait = self._limiter.wait(chat_id, self._tick())
            if wait <= 0:
                return self._limiter.start(chat_id, self._tick())
            await asyncio.sleep(min(wait, self._poll_seconds))

    def _tick(self) -> float:
        return self._monotonic()

    # --- outcomes ----------------------------------------------------------------------------

    async def _sent(self, claimed: Claimed, telegram_id: int) -> None:
        message = claimed.message
        async with self._uow_factory() as uow:
            await uow.outbox.mark_sent(claimed.id, telegram_id, self._clock())
            if message.edit_key is not None:
                await uow.outbox.set_anchor(message.edit_key, Anchor(message.chat_id, telegram_id))
            if message.chat_id in self._unreachable:
                await uow.outbox.mark_reachable(message.chat_id)
            await uow.commit()
        metrics.deliveries.labels("sent").inc()
        self._unreachable.discard(message.chat_id)

    async def _retry_later(self, claimed: Claimed, not_sent: _NotSent) -> None:
        if claimed.attempts >= MAX_ATTEMPTS:
            await self._failed(claimed, not_sent.reason)
            return
        delay = not_sent.delay if not_sent.delay is not None else _backoff(claimed.attempts)
        async with self._uow_factory() as uow:
            not_before = self._clock() + timedelta(seconds=delay)
            await uow.outbox.retry_later(claimed.id, not_before, not_sent.reason)
            await uow.commit()

    async def _failed(self, claimed: Claimed, error: str) -> None:
        log.error("outbox message %s to %s failed: %s", claimed.id, claimed.message.chat_id, error)
        async with self._uow_factory() as uow:
            await uow.outbox.mark_failed(claimed.id, DeliveryStatus.FAILED, self._clock(), error)
            # A message that will never go (it cannot be rendered, Telegram rejects it) is the
            # organizer's to know about, not only a line in the log.
            await self._tell_organizer(
                uow, claimed.message, "failed", f"failed:{claimed.id}", error
            )
            await uow.commit()
        metrics.deliveries.labels("failed").inc()

    async def _unreachable_chat(self, claimed: Claimed, error: str) -> None:
        message = claimed.message
        now = self._clock()
        async with self._uow_factory() as uow:
            await uow.outbox.mark_failed(claimed.id, DeliveryStatus.UNREACHABLE, now, error)
            await uow.outbox.mark_unreachable(message.chat_id, error, now)
            await self._tell_organizer(
                uow, message, "unreachable", f"unreachable:{message.chat_id}"
            )
            await uow.commit()
        metrics.deliveries.labels("unreachable").inc()
        self._unreachable.add(message.chat_id)

    async def _settle_interrupted(self) -> None:
        async with self._uow_factory() as uow:
            interrupted = await uow.outbox.mark_interrupted(self._clock())
            for claimed in interrupted:
                log.warning(
                    "outbox message %s to %s was in flight at a crash: marked uncertain",
                    claimed.id,
                    claimed.message.chat_id,
                )
                await self._tell_organizer(
                    uow, claimed.message, "uncertain", f"uncertain:{claimed.id}"
                )
            await uow.commit()
        metrics.deliveries.labels("uncertain").inc(len(interrupted))

    async def _tell_organizer(
        self,
        uow: SqlUnitOfWork,
        about: OutgoingMessage,
        event: str,
        dedupe: str,
        error: str = "",
    ) -> None:
        if about.tournament_id is None:
            return
        tournament = await uow.tournaments.get(about.tournament_id)
        if tournament is None or tournament.created_by == about.chat_id:
            return  # the organizer cannot be told about their own chat
        person = await uow.users.get(about.chat_id)
        name = person.display_name if person else str(about.chat_id)
        if event == "uncertain":
            phrase = Phrase.of("delivery-uncertain", tournament=tournament.title, name=name)
        elif event == "failed":
            phrase = Phrase.of(
                "delivery-failed",
                tournament=tournament.title,
                name=name,
                channel="no" if is_private_chat(about.chat_id) else "yes",
                reason=error[:200],
            )
        elif is_private_chat(about.chat_id):
            phrase = Phrase.of(
                "delivery-player-unreachable", tournament=tournament.title, name=name
            )
        else:
            phrase = Phrase.of("delivery-channel-unreachable", tournament=tournament.title)
        await uow.outbox.add(
            OutgoingMessage(
                chat_id=tournament.created_by,
                phrase=phrase,
                tournament_id=tournament.id,
                dedupe_key=f"delivery:{tournament.id}:{dedupe}",
            )
        )

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


def _seconds_until(item: Waiting, now: datetime) -> float:
    if item.not_before is None:
        return 0.0
    return max(0.0, (item.not_before - now).total_seconds())
