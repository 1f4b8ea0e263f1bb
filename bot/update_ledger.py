"""Each webhook update handled once, however often Telegram delivers it and to which replica.

Telegram delivers an update again when it did not see the webhook's answer (a timeout, a
replica killed mid-request), and behind a load balancer the second delivery may reach another
process. The ledger remembers each `update_id` (in Redis when `REDIS_URL` is set, otherwise in
the database): the first process takes it for `HANDLING_SECONDS`, marks it handled when done,
and every other delivery is dropped. When the handler fails, the update is given back, so a
later delivery is handled afresh; when its process dies, its claim runs out and a later delivery
is handled by another (the one case where an update may be handled twice is a process killed
after its handler committed but before the ledger heard of it).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from bot.db.uow import SqlUnitOfWorkFactory

log = logging.getLogger(__name__)

HANDLING_SECONDS = 60.0
# Telegram stops delivering an update after about a day.
KEEP_SECONDS = 24 * 3600.0
REDIS_PREFIX = "mafiatour:update:"


class UpdateLedger(Protocol):
    """Update ids are a bot's own: `bot_id` tells bots sharing one Redis apart."""

    async def take(self, bot_id: int, update_id: int) -> bool:
        """True for the first delivery (or after its handler gave up or died)."""
        ...

    async def finish(self, bot_id: int, update_id: int) -> None: ...

    async def give_back(self, bot_id: int, update_id: int) -> None: ...


class SqlUpdateLedger:
    """The ledger in the database (`handled_updates`, one bot's), pruned by the scheduler."""

    def __init__(self, uow_factory: SqlUnitOfWorkFactory) -> None:
        self._uow_factory = uow_factory

    async def take(self, bot_id: int, update_id: int) -> bool:
        async with self._uow_factory() as uow:
            taken = await uow.handled_updates.take(update_id, _now(), HANDLING_SECONDS)
            await uow.commit()
        return taken

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

    async def take(self, bot_id: int, update_id: int) -> bool:
        key = _key(bot_id, update_id)
        return bool(await self._redis.set(key, "handling", nx=True, ex=int(HANDLING_SECONDS)))

    async def finish(self, bot_id: int, update_id: int) -> None:
        await self._redis.set(_key(bot_id, update_id), "done", ex=int(KEEP_SECONDS))

    async def give_back(self, bot_id: int, update_id: int) -> None:
        await self._redis.delete(_key(bot_id, update_id))


def _key(bot_id: int, update_id: int) -> str:
    return f"{REDIS_PREFIX}{bot_id}:{update_id}"


class OnceMiddleware(BaseMiddleware):
    """The outermost update middleware in webhook mode: a second delivery is dropped."""

    def __init__(self, ledger: UpdateLedger) -> None:
        self._ledger = ledger

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        assert isinstance(event, Update)
        bot_id, update_id = data["bot"].id, event.update_id
        if not await self._ledger.take(bot_id, update_id):
            log.info("update %s was delivered again: handled once already", update_id)
            return None
        try:
            result = await handler(event, data)
        except BaseException:
            await self._ledger.give_back(bot_id, update_id)
            raise
        await self._ledger.finish(bot_id, update_id)
        return result


def _now() -> datetime:
    return datetime.now(UTC)
