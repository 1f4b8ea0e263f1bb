"""A webhook update is taken once, in Redis as in the database, and again only after its
handler gave it back."""

from __future__ import annotations

import random

import redis.asyncio as redis

from bot.db.uow import SqlUnitOfWorkFactory
from bot.telegram.update_ledger import RedisUpdateLedger, SqlUpdateLedger, Taken, UpdateLedger

REDIS_URL = "redis://127.0.0.1:6379/15"


async def _takes_once(ledger: UpdateLedger, bot_id: int) -> None:
    assert await ledger.take(bot_id, 1) is Taken.FIRST
    assert await ledger.take(bot_id, 1) is Taken.BUSY  # another replica, while it is handled
    await ledger.finish(bot_id, 1)
    assert await ledger.take(bot_id, 1) is Taken.HANDLED  # Telegram's second delivery
    assert await ledger.take(bot_id, 2) is Taken.FIRST
    await ledger.give_back(bot_id, 2)  # its handler failed
    assert await ledger.take(bot_id, 2) is Taken.FIRST


async def test_the_database_ledger_takes_an_update_once(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    await _takes_once(SqlUpdateLedger(uow_factory), 1)


async def test_the_redis_ledger_takes_an_update_once_per_bot() -> None:
    client = redis.Redis.from_url(REDIS_URL)
    try:
        ledger = RedisUpdateLedger(client)
        bot_id = random.randrange(10**9)  # a bot of its own: other runs share this Redis
        await _takes_once(ledger, bot_id)
        assert await ledger.take(bot_id + 1, 1) is Taken.FIRST  # another bot's update 1
    finally:
        await client.aclose()
