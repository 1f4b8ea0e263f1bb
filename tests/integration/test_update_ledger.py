"""A webhook update is taken once, in Redis as in the database, and again only after its
handler gave it back."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
import redis.asyncio as redis
from aiogram import Bot, Dispatcher
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web

from bot.db.uow import SqlUnitOfWorkFactory
from bot.telegram import update_ledger
from bot.telegram.update_ledger import (
    OnceRequestHandler,
    RedisUpdateLedger,
    SqlUpdateLedger,
    Taken,
    UpdateLedger,
)

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


async def test_a_claim_is_renewed_while_its_handler_runs_and_runs_out_without(
    uow_factory: SqlUnitOfWorkFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed replica's update goes to another within HANDLING_SECONDS (no longer a
    minute), and a handler running longer keeps it by renewing its claim."""
    start = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    now = start
    monkeypatch.setattr(update_ledger, "_now", lambda: now)
    ledger = SqlUpdateLedger(uow_factory)
    assert update_ledger.HANDLING_SECONDS <= 15
    assert await ledger.take(1, 7) is Taken.FIRST  # its replica is killed: never renewed
    assert await ledger.take(1, 8) is Taken.FIRST
    now = start + timedelta(seconds=update_ledger.HANDLING_SECONDS * 0.8)
    await ledger.renew(1, 8)  # its handler still runs
    now = start + timedelta(seconds=update_ledger.HANDLING_SECONDS * 1.2)
    assert await ledger.take(1, 7) is Taken.FIRST  # Telegram's next delivery, to another
    assert await ledger.take(1, 8) is Taken.BUSY


class _Ledger:
    def __init__(self) -> None:
        self.renewed = 0
        self.twice = asyncio.Event()
        self.finished: list[int] = []

    async def take(self, bot_id: int, update_id: int) -> Taken:
        return Taken.FIRST

    async def renew(self, bot_id: int, update_id: int) -> None:
        self.renewed += 1
        if self.renewed == 2:
            self.twice.set()

    async def finish(self, bot_id: int, update_id: int) -> None:
        self.finished.append(update_id)

    async def give_back(self, bot_id: int, update_id: int) -> None:
        raise AssertionError("the handler did not fail")


class _Request:
    async def json(self, loads: object = None) -> dict[str, int]:
        return {"update_id": 5}


async def test_the_webhook_renews_the_claim_of_a_long_handler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(update_ledger, "RENEW_SECONDS", 0.01)
    ledger = _Ledger()

    async def long_handler(self: object, bot: Bot, request: object) -> web.Response:
        await asyncio.wait_for(ledger.twice.wait(), 60)  # a publication of many seats
        return web.json_response({})

    monkeypatch.setattr(SimpleRequestHandler, "_handle_request", long_handler)
    bot = Bot("123456:TEST-TOKEN")
    try:
        handler = OnceRequestHandler(Dispatcher(), bot, ledger=ledger)
        answer = await handler._handle_request(bot, _Request())  # type: ignore[arg-type]
    finally:
        await bot.session.close()
    assert answer.status == 200 and ledger.renewed >= 2 and ledger.finished == [5]
