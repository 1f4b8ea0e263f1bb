"""Sending one claimed outbox message to Telegram by the delivery promise (stated in
`bot/delivery/worker.py`): its requests in order within Telegram's limits, and what became of
it (sent, back in the queue, unreachable, failed or uncertain)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
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
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, InputMediaPhoto, Message

from bot.db.repositories.outbox import Anchor, Claimed
from bot.delivery.jobs import Clock, Job, Outcome
from bot.delivery.limits import Limiter, Slot
from bot.delivery.render import Rendered
from bot.delivery.writer import Writer
from domain.outgoing import (
    AnswerLost,
    Attachment,
    DeliveryStatus,
    OutgoingMessage,
    when_answer_lost,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
# Telegram's most photos in one album (sendMediaGroup).
ALBUM_LIMIT = 10

# Telegram's words for a chat the bot may not write to, answered as 400 rather than 403.
UNREACHABLE_BAD_REQUESTS = ("chat not found", "user not found", "have no rights to send")
NOT_MODIFIED = "message is not modified"
EDIT_TARGET_GONE = ("message to edit not found", "message can't be edited")
MAX_ATTEMPTS = 8
MAX_BACKOFF_SECONDS = 60.0


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


class Sender:
    """Sends claimed messages: one at a time per chat (the worker's loop sees to it), each
    request in a slot of the limiter."""

    def __init__(
        self, bot: Bot, limiter: Limiter, writer: Writer, clock: Clock, poll_seconds: float
    ) -> None:
        self._bot = bot
        self._limiter = limiter
        self._writer = writer
        self._clock = clock
        self._poll_seconds = poll_seconds

    async def send(self, job: Job) -> Outcome:
        """Send the job's message by the promise; what became of it."""
        claimed = job.claimed
        message = claimed.message
        try:
            message, rendered = await self._writer.write(message, job.locale, self._clock)
            if not rendered.texts and message.attachment is None:
                raise ValueError("the message has no text")
            if job.anchor is not None and len(rendered.texts) > 1:
                raise ValueError("a message edited in place must fit in one message")
            shown = rendered.shown_digest() if message.edit_key is not None else None
            telegram_id = await self._send(job, message, rendered, shown)
        except _NotSent as not_sent:
            return self._retry_later(claimed, not_sent.delay, not_sent.reason, False)
        except _AnswerLost as lost:
            return self.answer_lost(
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
        return Outcome(
            claimed,
            DeliveryStatus.SENT,
            self._clock(),
            telegram_id=telegram_id,
            maybe_duplicate=job.maybe_duplicate,
            shown=shown,
        )

    def _finished(self, claimed: Claimed, status: DeliveryStatus, error: str) -> Outcome:
        return Outcome(claimed, status, self._clock(), error=error)

    def _retry_later(
        self, claimed: Claimed, delay: float | None, reason: str, maybe_duplicate: bool
    ) -> Outcome:
        if claimed.attempts >= MAX_ATTEMPTS:
            return self._finished(claimed, DeliveryStatus.FAILED, reason)
        now = self._clock()
        seconds = delay if delay is not None else _backoff(claimed.attempts)
        return Outcome(
            claimed,
            DeliveryStatus.PENDING,
            now,
            error=reason,
            not_before=now + timedelta(seconds=seconds),
            maybe_duplicate=maybe_duplicate,
        )

    def answer_lost(self, claimed: Claimed, edits: bool, reason: str, sent_again: bool) -> Outcome:
        """The delivery promise for a message whose answer was lost (see the module's doc)."""
        if when_answer_lost(claimed.message.chat_id, edits=edits) is AnswerLost.UNCERTAIN:
            return self._finished(claimed, DeliveryStatus.UNCERTAIN, reason)
        if edits:
            return self._retry_later(claimed, None, reason, False)
        if claimed.maybe_duplicate or sent_again:
            return self._finished(claimed, DeliveryStatus.UNCERTAIN, reason)  # sent again once
        return self._retry_later(claimed, None, reason, True)

    async def _send(
        self, job: Job, message: OutgoingMessage, rendered: Rendered, shown: str | None
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
        if message.attachment is not None and message.attachment.kind == "album":
            pictures = message.attachment.pictures
            for start in range(0, len(pictures), ALBUM_LIMIT):
                album = pictures[start : start + ALBUM_LIMIT]
                caption = rendered.caption if start == 0 else None
                requests.append(partial(self._send_album, chat_id, album, caption))
        elif message.attachment is not None:
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

    async def _send_album(
        self, chat_id: int, pictures: tuple[bytes, ...], caption: str | None
    ) -> Message:
        """Pictures sent as one album (a single one as a photo), the caption under the first;
        Telegram counts each picture as a message, so each beyond the first takes a slot of
        the chat's windows too."""
        files = [BufferedInputFile(picture, "standings.png") for picture in pictures]
        if len(files) == 1:
            return await self._bot.send_photo(
                chat_id, files[0], caption=caption, parse_mode=ParseMode.HTML
            )
        slots = [await self._next_slot(chat_id) for _ in files[1:]]
        try:
            sent = await self._bot.send_media_group(
                chat_id,
                [
                    InputMediaPhoto(
                        media=file,
                        caption=caption if index == 0 else None,
                        parse_mode=ParseMode.HTML,
                    )
                    for index, file in enumerate(files)
                ],
            )
        finally:
            for slot in slots:
                await self._limiter.finish(slot)
        return sent[0]

    async def _pin(self, chat_id: int, message_id: int) -> None:
        slot = await self._next_slot(chat_id)
        try:
            await self._bot.pin_chat_message(chat_id, message_id, disable_notification=True)
        except (TelegramAPIError, ClientDecodeError) as error:
            # The message went out; a missing pin right is the organizer's to fix.
            log.warning("could not pin message %s in chat %s: %s", message_id, chat_id, error)
        finally:
            await self._limiter.finish(slot)

    async def _first_request(self, job: Job, request: Callable[[], Awaitable[T]]) -> T:
        """The request before which nothing of the message went out (its slot is the job's):
        a failure puts the message back in the queue or settles it by the promise."""
        chat_id = job.claimed.message.chat_id
        try:
            return await request()
        except TelegramRetryAfter as error:
            await self._limiter.pause(chat_id, error.retry_after)
            raise _NotSent(error.retry_after, f"429: retry after {error.retry_after}") from error
        except TelegramServerError as error:
            # Telegram's own answer that it failed: nothing went out, so backed off and tried
            # again (as a 429 is, within MAX_ATTEMPTS), never "uncertain".
            raise _NotSent(None, _reason(error)) from error
        except TelegramNetworkError as error:
            if _never_left(error):
                raise _NotSent(None, _reason(error)) from error
            raise _AnswerLost(_reason(error)) from error
        except ClientDecodeError as error:  # a proxy's page: Telegram's answer never came
            raise _AnswerLost(_reason(error)) from error
        finally:
            await self._limiter.finish(job.slot)

    async def _later_request(self, job: Job, request: Callable[[], Awaitable[T]]) -> T:
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
                # Telegram's 5xx and a connection that never opened sent nothing.
                nothing_went = isinstance(error, TelegramServerError) or (
                    isinstance(error, TelegramNetworkError) and _never_left(error)
                )
                if not nothing_went:
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
