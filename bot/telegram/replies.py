"""Direct replies that survive Telegram's flood limits and faults, and every press answered.

Two pieces work together:
- `ReliableReplies`, an aiogram session middleware (`bot.session.middleware(...)`): a request
  made while an update is being handled waits out a 429 for its `retry_after` and retries a 5xx,
  an undecodable answer (a proxy's error page) or a network error with a backoff. A reply that
  sends a message takes its place in Telegram's limits first, from the same limiter as the
  outbox (`bot.delivery.limits.Limiter`: this process's, or shared by every replica through
  Redis), so replies and pushes of all replicas together stay within the limits; a 429 pauses
  the chat for all of them. Requests made elsewhere (the outbox worker, long polling) pass
  through untouched: they keep their own rules.
- `ReplyScope`, a Dispatcher update middleware that opens that scope for each update and, once
  the handler returned, answers a button press nobody answered, so no spinner keeps turning.

Updates of one person are handled one after another (the Dispatcher's event isolation), and a
reply waiting out a 429 holds that turn, so a person's replies keep their order.
"""

from __future__ import annotations

import asyncio
import logging
import math
import weakref
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiogram import BaseMiddleware
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import (
    ClientDecodeError,
    TelegramAPIError,
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, SendChatAction, SendMessage, TelegramMethod
from aiogram.methods.base import TelegramType
from aiogram.types import TelegramObject, Update
from aiogram.utils.backoff import Backoff, BackoffConfig

from bot.delivery.limits import Limiter, Slot

if TYPE_CHECKING:
    from aiogram import Bot
    from aiogram.methods import Response

log = logging.getLogger(__name__)

# Telegram's words for a press answered too late (or answered already elsewhere).
QUERY_TOO_OLD = "query is too old"
# A faulty Telegram is tried this many times before the handler gets the error.
ATTEMPTS = 6
# The longest a person's reply waits in all for flood limits before giving up.
RETRY_AFTER_BUDGET = 120.0
FAULT_BACKOFF = BackoffConfig(min_delay=0.5, max_delay=8.0, factor=2.0, jitter=0.1)
# A reply kept out by a request still in flight to the same chat asks again after this long:
# this process's limiter cannot say when that request is answered (it says `inf`).
LIMIT_POLL_SECONDS = 0.1


@dataclass
class UpdateReplies:
    """What one update's handling has sent so far: the button presses already answered; the
    update's own press (its id and the chat of its message), if it is one."""

    answered: set[str] = field(default_factory=set)
    press_id: str | None = None
    press_chat: int | None = None
    # The press was answered early, before a reply waited (see `ReliableReplies`).
    answered_early: bool = False


_current: ContextVar[UpdateReplies | None] = ContextVar("mafiatour_update_replies", default=None)


@contextmanager
def replying_to(replies: UpdateReplies) -> Iterator[UpdateReplies]:
    """Within the block, the requests of the calling task (and of the tasks it starts) are
    direct replies of `replies`' update."""
    token = _current.set(replies)
    try:
        yield replies
    finally:
        _current.reset(token)


def _retryable(error: Exception) -> bool:
    if isinstance(error, TelegramEntityTooLarge):
        return False  # a file too big stays too big
    return isinstance(error, TelegramServerError | TelegramNetworkError | ClientDecodeError)


# The requests Telegram's flood limits count: those that put a new message into a chat
# (sendMessage, sendPhoto, sendDocument, copyMessage, forwardMessage, ...).
_SENDING = ("send", "copy", "forward")


def counted_chat(method: TelegramMethod[Any]) -> int | None:
    """The chat whose limits a request counts against, or None when it sends no message."""
    chat_id = getattr(method, "chat_id", None)
    if not isinstance(chat_id, int) or isinstance(method, SendChatAction):
        return None
    return chat_id if method.__api_method__.startswith(_SENDING) else None


def already_answered(query_id: str) -> bool:
    """Whether the update being handled has answered the button press `query_id`."""
    replies = _current.get()
    return replies is not None and query_id in replies.answered


class ReliableReplies(BaseRequestMiddleware):
    """Retries an update's direct replies through 429s and faults (see the module's doc)."""

    def __init__(
        self,
        attempts: int = ATTEMPTS,
        retry_after_budget: float = RETRY_AFTER_BUDGET,
        backoff: BackoffConfig = FAULT_BACKOFF,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        limiter: Limiter | None = None,
    ) -> None:
        """Without a `limiter` replies keep no limits of their own (tests of the retries)."""
        self.limiter = limiter
        self._attempts = attempts
        self._budget = retry_after_budget
        self._backoff = backoff
        self._sleep = sleep

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        replies = _current.get()
        if replies is None:
            return await make_request(bot, method)
        if isinstance(method, AnswerCallbackQuery) and method.callback_query_id in replies.answered:
            # A press is answered once (Telegram refuses a second answer): a handler's closing
            # `answer()` after long work already answered it at once is dropped; its words,
            # if the press was answered early, come as a message instead.
            if replies.answered_early and method.text and replies.press_chat is not None:
                await bot(
                    SendMessage(chat_id=replies.press_chat, text=method.text, parse_mode=None)
                )
            return True  # type: ignore[return-value]
        faults = Backoff(self._backoff)
        chat_id = counted_chat(method)
        waited = 0.0
        while True:
            try:
                result = await self._request(make_request, bot, method, chat_id)
            except TelegramRetryAfter as error:
                if waited + error.retry_after > self._budget:
                    raise
                log.info(
                    "%s: flood limit, retrying in %s s", method.__api_method__, error.retry_after
                )
                waited += error.retry_after
                await self._stop_spinner(make_request, bot, method, replies)
                await self._sleep(error.retry_after)
                continue
            except TelegramBadRequest as error:
                if (
                    not isinstance(method, AnswerCallbackQuery)
                    or QUERY_TOO_OLD not in error.message
                ):
                    raise
                # Too late to stop the spinner (Telegram stopped it), e.g. an update handled
                # again after its first process was killed: the handler's work still counts.
                log.warning("button press %s was answered too late", method.callback_query_id)
                replies.answered.add(method.callback_query_id)
                return True  # type: ignore[return-value]
            except Exception as error:
                if not _retryable(error) or faults.counter + 1 >= self._attempts:
                    raise
                delay = next(faults)
                log.info("%s failed (%s), retrying in %.1f s", method.__api_method__, error, delay)
                await self._stop_spinner(make_request, bot, method, replies)
                await self._sleep(delay)
                continue
            if isinstance(method, AnswerCallbackQuery):
                replies.answered.add(method.callback_query_id)
            return result

    async def _stop_spinner(
        self,
        make_request: NextRequestMiddlewareType[Any],
        bot: Bot,
        method: TelegramMethod[Any],
        replies: UpdateReplies,
    ) -> None:
        """Before a reply waits (a flood limit, a fault), answer the update's press if nobody
        did yet: its spinner stops at once, whatever Telegram does to the reply."""
        press = replies.press_id
        if press is None or press in replies.answered or isinstance(method, AnswerCallbackQuery):
            return
        try:
            await make_request(bot, AnswerCallbackQuery(callback_query_id=press))
        except TelegramAPIError as error:
            log.info("button press %s could not be answered early (%s)", press, error)
            return
        replies.answered.add(press)
        replies.answered_early = True

    async def _request(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
        chat_id: int | None,
    ) -> Response[TelegramType]:
        """One attempt; a message to `chat_id` waits for its place in the limits first, holds
        it until its answer, and a 429 pauses the chat for every sender."""
        if self.limiter is None or chat_id is None:
            return await make_request(bot, method)
        while True:
            slot = await self.limiter.try_start(chat_id)
            if isinstance(slot, Slot):
                break
            await self._sleep(slot if math.isfinite(slot) else LIMIT_POLL_SECONDS)
        try:
            return await make_request(bot, method)
        except TelegramRetryAfter as error:
            await self.limiter.pause(chat_id, error.retry_after)
            raise
        finally:
            await self.limiter.finish(slot)


# Every scope of this process, for `updates_in_flight`.
_scopes: weakref.WeakSet[ReplyScope] = weakref.WeakSet()


def updates_in_flight() -> int:
    """How many updates this process is handling now (every Dispatcher's together)."""
    return sum(len(scope.handling) for scope in _scopes)


class ReplyScope(BaseMiddleware):
    """Opens the direct-reply scope for each update and answers a press left unanswered; knows
    the updates being handled, so a stop lets them finish before the bot's session closes.

    `replies` in the handler data is the scope, so the error handler can reply through it too.
    """

    def __init__(self) -> None:
        # The tasks handling an update now, and their updates (for a stop to keep).
        self.handling: dict[asyncio.Task[Any], Update] = {}
        _scopes.add(self)

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        replies = UpdateReplies()
        query = event.callback_query if isinstance(event, Update) else None
        if query is not None:
            replies.press_id = query.id
            if query.message is not None:
                replies.press_chat = query.message.chat.id
        data["replies"] = replies
        task = asyncio.current_task()
        if task is not None and isinstance(event, Update):
            self.handling[task] = event
        try:
            with replying_to(replies):
                result = await handler(event, data)
                if query is not None and query.id not in replies.answered:
                    # A handler that forgot, or returned early: stop the spinner all the same.
                    try:
                        await query.answer()
                    except TelegramBadRequest:
                        log.warning("button press %s was answered too late", query.id)
                return result
        finally:
            if task is not None:
                self.handling.pop(task, None)

    async def quiet(self, timeout: float) -> None:
        """Return once the updates being handled now have finished, or after `timeout`
        seconds (at once when none is)."""
        if self.handling:
            await asyncio.wait(set(self.handling), timeout=timeout)

    async def finish(self, timeout: float) -> list[Update]:
        """Let the updates being handled finish, for up to `timeout` seconds; those still
        running then are cancelled, so none calls Telegram after the stop, and returned (for
        the stop to keep them: `bot.telegram.kept_updates`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.handling and loop.time() < deadline:
            await asyncio.wait(set(self.handling), timeout=deadline - loop.time())
        unfinished = list(self.handling.values())
        if self.handling:
            for task in list(self.handling):
                task.cancel()
            await asyncio.wait(set(self.handling), timeout=timeout)
        return unfinished
