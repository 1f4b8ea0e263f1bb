"""Each webhook update handled once, however often Telegram delivers it and to which replica.

Telegram delivers an update again when it did not see the webhook's answer (a timeout, a
replica killed mid-request), and behind a load balancer the second delivery may reach another
process. The ledger remembers each `update_id` (in Redis when `REDIS_URL` is set, otherwise in
the database): the first process takes it for `HANDLING_SECONDS`, renews its claim every
`RENEW_SECONDS` while its handler runs, and marks it handled when done; a delivery of an update
already handled is answered 200 and dropped, one of an update still being handled elsewhere is
answered 503, so Telegram tries it again later. When the handler fails, the update is given
back, so a later delivery is handled afresh; when its process dies, its claim runs out within
`HANDLING_SECONDS` and a later delivery is handled by another (the one case where an update may
be handled twice is a process killed after its handler committed but before the ledger heard
of it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from enum import Enum
from typing import Any, Protocol

from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from bot.db.uow import SqlUnitOfWorkFactory

log = logging.getLogger(__name__)

# A claim on an update being handled, renewed while its handler runs (a publication of 300
# seats may take a minute): a killed process's update goes to another within these seconds,
# and that person's later updates, which Telegram holds back behind it, with it.
HANDLING_SECONDS = 15.0
RENEW_SECONDS = 5.0
# Telegram stops delivering an update after about a day.
KEEP_SECONDS = 24 * 3600.0
REDIS_PREFIX = "mafiatour:update:"


class Taken(Enum):
    """What the ledger says of a delivery."""

    FIRST = "first"  # handle it
    HANDLED = "handled"  # handled already: drop it
    BUSY = "busy"  # being handled by a process still within its time: try again later


class UpdateLedger(Protocol):
    """Update ids are a bot's own: `bot_id` tells bots sharing one Redis apart."""

    async def take(self, bot_id: int, update_id: int) -> Taken:
        """FIRST for the first delivery (or after its handler gave up or died)."""
        ...

    async def renew(self, bot_id: int, update_id: int) -> None:
        """Keep holding an update taken, for `HANDLING_SECONDS` more (its handler runs)."""
        ...

    async def finish(self, bot_id: int, update_id: int) -> None: ...

    async def give_back(self, bot_id: int, update_id: int) -> None: ...


class SqlUpdateLedger:
    """The ledger in the database (`handled_updates`, one bot's), pruned by the scheduler."""

    def __init__(self, uow_factory: SqlUnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    async def take(self, bot_id: int, update_id: int) -> Taken:
        async with self._uow_factory() as uow:
            taken = await uow.handled_updates.take(update_id, _now(), HANDLING_SECONDS)
            handled = not taken and await uow.handled_updates.handled(update_id)
            await uow.commit()
        return Taken.FIRST if taken else Taken.HANDLED if handled else Taken.BUSY

    async def renew(self, bot_id: int, update_id: int) -> None:
        async with self._uow_factory() as uow:
            await uow.handled_updates.renew(update_id, _now(), HANDLING_SECONDS)
            await uow.commit()

    async def finish(self, bot_id: int, update_id: int) -> None:
        async with self._uow_factory() as uow:
            await uow.handled_updates.finish(update_id, _now(), KEEP_SECONDS)
            await uow.commit()

    async def give_back(self, bot_id: int, update_id: int) -> None:
        async with self._uow_factory() as uow:
            await uow.handled_updates.give_back(update_id)
            await uow.commit()


class RedisUpdateLedger:
    """The ledger in Redis: one key per update, expiring by itself."""

    def __init__(self, redis: Any) -> None:  # redis.asyncio.Redis
        self._redis = redis

    async def take(self, bot_id: int, update_id: int) -> Taken:
        key = _key(bot_id, update_id)
        if await self._redis.set(key, "handling", nx=True, ex=int(HANDLING_SECONDS)):
            return Taken.FIRST
        return Taken.HANDLED if await self._redis.get(key) == b"done" else Taken.BUSY

    async def renew(self, bot_id: int, update_id: int) -> None:
        key = _key(bot_id, update_id)
        if await self._redis.get(key) == b"handling":
            await self._redis.expire(key, int(HANDLING_SECONDS))

    async def finish(self, bot_id: int, update_id: int) -> None:
        await self._redis.set(_key(bot_id, update_id), "done", ex=int(KEEP_SECONDS))

    async def give_back(self, bot_id: int, update_id: int) -> None:
        await self._redis.delete(_key(bot_id, update_id))


def _key(bot_id: int, update_id: int) -> str:
    return f"{REDIS_PREFIX}{bot_id}:{update_id}"


class OnceRequestHandler(SimpleRequestHandler):
    """aiogram's webhook handler, answering each update once handled, each update once."""

    def __init__(
        self, dispatcher: Dispatcher, bot: Bot, *, ledger: UpdateLedger, **kwargs: Any
    ) -> None:
        super().__init__(dispatcher, bot, handle_in_background=False, **kwargs)
        self._ledger = ledger

    async def _handle_request(self, bot: Bot, request: web.Request) -> web.Response:
        update = await request.json(loads=bot.session.json_loads)
        update_id = int(update.get("update_id", 0))
        taken = await self._ledger.take(bot.id, update_id)
        if taken is Taken.HANDLED:
            log.info("update %s was delivered again: handled once already", update_id)
            return web.json_response({})
        if taken is Taken.BUSY:
            return web.Response(status=503, text="being handled: deliver it again later")
        renewing = asyncio.create_task(self._renew(bot.id, update_id))
        try:
            answer = await super()._handle_request(bot, request)
        except BaseException:
            await _stopped(renewing)
            await self._ledger.give_back(bot.id, update_id)
            raise
        await _stopped(renewing)
        await self._ledger.finish(bot.id, update_id)
        return answer

    async def _renew(self, bot_id: int, update_id: int) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._ledger.renew(bot_id, update_id)
            except Exception:  # the next renewal may get through; the handler goes on
                log.warning("could not renew the claim on update %s", update_id, exc_info=True)


async def _stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def _now() -> datetime:
    return datetime.now(UTC)
