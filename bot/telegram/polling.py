"""One polling process per bot, even across databases and machines.

Two processes polling with one token fight over getUpdates: Telegram ends the older request
with 409 Conflict ("terminated by other getUpdates request; make sure that only one bot instance
is running") each time the other asks, and aiogram logs it and tries again, for ever. Two
processes on one database never get there (the "polling" lease, `bot.app.polling_lease`); for
the others, `ConflictGuard` watches getUpdates:

- a process that meets the conflict before any of its getUpdates succeeded is the newcomer: it
  stops polling, and the bot stops with one line (`PollingConflict`);
- a process that was polling already asks again at once, which ends the newcomer's request,
  so the newcomer sees the conflict and stops; should the conflict last (the other is not this
  bot, or an older version), it stops as well after `CONFLICTS_TO_STOP` in a row.

A token revoked while the bot polls (401 Unauthorized) stops polling as well, with the start-up
check's line (`TokenRefused`), instead of aiogram asking again for ever.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from aiogram import Bot, Dispatcher
from aiogram.client.session.middlewares.base import (
    BaseRequestMiddleware,
    NextRequestMiddlewareType,
)
from aiogram.exceptions import TelegramConflictError, TelegramUnauthorizedError
from aiogram.methods import GetUpdates, TelegramMethod
from aiogram.methods.base import TelegramType

from bot.errors import TokenRefused

if TYPE_CHECKING:
    from aiogram.methods import Response

log = logging.getLogger(__name__)

CONFLICTS_TO_STOP = 5
# The updates one getUpdates asks for (Telegram's default and most: 100). A poll's answer is
# read into aiogram's models in one step of the event loop: in a 300-player registration
# burst, 100 updates held it 46 ms of CPU while every update in flight waited.
UPDATES_PER_POLL = 20
# The updates handled at once; the next wait in Telegram's queue (as a webhook's do: Telegram
# opens at most 40 connections to one by default). Unbounded, a 300-player registration
# burst had hundreds in flight, each holding its objects, and every collection of the young
# generations walked them all (up to 44 ms of the loop's CPU).
UPDATES_AT_ONCE = 40


class PollingConflict(Exception):
    """Telegram gives this bot's updates to another process (409 Conflict on getUpdates)."""

    def __init__(self, telegram_says: str) -> None:
        super().__init__(
            "another bot instance is polling Telegram with this token (Telegram: "
            f"{telegram_says}): stopped; run one polling process per bot, or set WEBHOOK_URL "
            "to run several replicas"
        )


class ConflictGuard(BaseRequestMiddleware):
    """A session middleware for getUpdates (see the module's doc), which also asks for
    `UPDATES_PER_POLL` at a time; `conflict` is set once polling was stopped for a conflict
    (or for the token refused)."""

    def __init__(self, dispatcher: Dispatcher) -> None:
        self._dispatcher = dispatcher
        self._polled = False  # a getUpdates of this process succeeded
        self._in_a_row = 0
        self._stopping: asyncio.Task[None] | None = None
        self.conflict: PollingConflict | TokenRefused | None = None

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Bot,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        if not isinstance(method, GetUpdates):
            return await make_request(bot, method)
        if method.limit is None:
            method.limit = UPDATES_PER_POLL
        while True:
            try:
                response = await make_request(bot, method)  # type: ignore[arg-type]
            except TelegramUnauthorizedError:
                await self._stop(TokenRefused())
                raise  # not reached: stopping cancels the polling task
            except TelegramConflictError as error:
                self._in_a_row += 1
                if self._polled and self._in_a_row < CONFLICTS_TO_STOP:
                    log.warning(
                        "another bot instance polls Telegram with this token; asking again so "
                        "that it stops (Telegram: %s)",
                        error.message,
                    )
                    continue
                await self._stop(PollingConflict(error.message))
                raise  # not reached: stopping cancels the polling task
            self._polled = True
            self._in_a_row = 0
            return response

    async def _stop(self, reason: PollingConflict | TokenRefused) -> None:
        """Stop polling (the Dispatcher shuts down gracefully) and wait to be cancelled."""
        if self.conflict is None:
            self.conflict = reason  # the caller says it in one line
            self._stopping = asyncio.create_task(self._dispatcher.stop_polling())
        await asyncio.Event().wait()
