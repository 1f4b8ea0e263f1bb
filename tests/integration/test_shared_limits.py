"""Telegram's limits kept by several replicas together through Redis."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as redis
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.delivery.limits import DeliveryLimits, Slot
from bot.delivery.shared_limits import RedisLimiter
from bot.telegram.replies import ReliableReplies, UpdateReplies, replying_to
from harness.fake_telegram import FakeTelegram, RateLimits

REDIS_URL = "redis://127.0.0.1:6379/15"
PERSON, OTHER, CHANNEL = 7, 8, -100_5


@pytest.fixture
async def replicas() -> AsyncIterator[tuple[RedisLimiter, RedisLimiter]]:
    client = redis.Redis.from_url(REDIS_URL)
    bot_id = random.randrange(10**9)  # a bot of its own: other runs share this Redis
    limits = DeliveryLimits(messages_per_second=3, private_chat_per_second=1, group_per_minute=2)
    yield RedisLimiter(client, bot_id, limits), RedisLimiter(client, bot_id, limits)
    await client.aclose()


async def test_a_person_gets_one_message_a_second_whichever_replica_sends(
    replicas: tuple[RedisLimiter, RedisLimiter],
) -> None:
    first, second = replicas
    slot = await first.try_start(PERSON)
    assert isinstance(slot, Slot)
    wait = await second.try_start(PERSON)  # unanswered yet: counts however long it travels
    assert isinstance(wait, float) and wait > 1
    await first.finish(slot)
    wait = await second.try_start(PERSON)
    assert isinstance(wait, float) and 0 < wait <= 1
    async with asyncio.timeout(30):
        while not isinstance(await second.try_start(PERSON), Slot):
            await asyncio.sleep(0.1)


async def test_the_bots_overall_limit_and_a_channels_minute_are_shared(
    replicas: tuple[RedisLimiter, RedisLimiter],
) -> None:
    first, second = replicas
    taken = [await first.try_start(CHANNEL), await second.try_start(CHANNEL)]
    assert all(isinstance(slot, Slot) for slot in taken)
    for slot in taken:
        assert isinstance(slot, Slot)
        await second.finish(slot)
    assert await first.try_start(CHANNEL) == pytest.approx(60, abs=2)  # the minute's 2 posts
    assert isinstance(await first.try_start(PERSON), Slot)
    assert isinstance(await second.try_start(PERSON), float)  # 3 per second overall
    assert isinstance(await second.try_start(OTHER), float)


async def test_a_slot_given_back_frees_its_place_for_every_replica(
    replicas: tuple[RedisLimiter, RedisLimiter],
) -> None:
    first, second = replicas
    sent, unused = await first.try_start(CHANNEL), await first.try_start(CHANNEL)
    assert isinstance(sent, Slot) and isinstance(unused, Slot)
    await first.finish(sent)
    assert isinstance(await second.try_start(CHANNEL), float)  # the minute's 2 posts
    await first.give_back(unused)  # an edit that turned out to change nothing
    assert isinstance(await second.try_start(CHANNEL), Slot)


async def test_a_pause_telegram_asked_for_holds_for_every_replica(
    replicas: tuple[RedisLimiter, RedisLimiter],
) -> None:
    first, second = replicas
    await first.pause(PERSON, 5)
    wait = await second.try_start(PERSON)
    assert wait == pytest.approx(5, abs=1)
    assert isinstance(await second.try_start(OTHER), Slot)


async def test_direct_replies_of_several_replicas_keep_the_limits_together() -> None:
    """Two replicas reply at once, as fast as their handlers can, to one person and to the
    whole bot's overall limit: Telegram (the fake, enforcing 1 a second to a person and 3 a
    second overall) never answers 429, and every reply arrives."""
    fake = FakeTelegram(enforce_limits=RateLimits(3, 1, 2))
    await fake.start()
    client = redis.Redis.from_url(REDIS_URL)
    limits = DeliveryLimits(messages_per_second=3, private_chat_per_second=1, group_per_minute=2)
    bot_id = random.randrange(10**9)
    people = [fake.user(person, f"Игрок{person}") for person in (PERSON, *range(100, 104))]
    for person in people:
        person.send("/start")
    bots = []
    for _replica in range(2):
        session = AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url))
        session.middleware(ReliableReplies(limiter=RedisLimiter(client, bot_id, limits)))
        bots.append(Bot(token=fake.token, session=session))

    async def reply(bot: Bot, chat_id: int, text: str) -> None:
        with replying_to(UpdateReplies()):
            await bot.send_message(chat_id, text)

    try:
        await asyncio.gather(
            *(reply(bots[n % 2], PERSON, f"ответ {n}") for n in range(4)),
            *(reply(bots[n % 2], 100 + n, f"другому {n}") for n in range(4)),
        )
    finally:
        for bot in bots:
            await bot.session.close()
        await client.aclose()
        await fake.stop()
    assert fake.stats.too_many_requests == 0
    assert sorted(m.text or "" for m in fake.messages(PERSON) if m.from_bot) == [
        f"ответ {n}" for n in range(4)
    ]
    assert all(len([m for m in fake.messages(100 + n) if m.from_bot]) == 1 for n in range(4))
