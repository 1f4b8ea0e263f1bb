"""The outbox worker against the fake Telegram with its flood limits enforced.

`python bench/bench_delivery.py [--players 1000] [--channels 3] [--posts 10]` records 1,000
private messages plus channel posts in the outbox, lets the worker send them, and prints the
throughput against the configured overall limit, and how many were lost, sent twice, or
answered 429 (targets: >= 90% of the limit, 0, 0, 0), and the worker's database transactions
per message (target <= 1: each cycle records the answers and claims the next messages at once).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path

from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from sqlalchemy import event

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery import DeliveryLimits, DeliveryWorker
from bot.delivery.worker import wait_until_delivered
from domain.outgoing import OutgoingMessage
from harness.fake_telegram import FakeTelegram, RateLimits

FIRST_PLAYER = 10_000
FIRST_CHANNEL = -1_000_000_000_000


async def _record(
    uow_factory: SqlUnitOfWorkFactory, players: list[int], channels: list[int], posts: int
) -> set[tuple[int, str]]:
    expected: set[tuple[int, str]] = set()
    async with uow_factory() as uow:
        for player in players:
            text = f"Игра 1: стол {player % 10 + 1}, место {player % 10 + 1} ({player})"
            await uow.outbox.add(OutgoingMessage(chat_id=player, text=text))
            expected.add((player, text))
        for post in range(posts):
            for channel in channels:
                text = f"<b>Таблица</b> после игры {post + 1}"
                await uow.outbox.add(OutgoingMessage(chat_id=channel, text=text))
                expected.add((channel, "Таблица" + text.removeprefix("<b>Таблица</b>")))
        await uow.commit()
    return expected


async def run(players_count: int, channels_count: int, posts: int, folder: Path) -> None:
    limits = DeliveryLimits()
    fake = FakeTelegram(
        enforce_limits=RateLimits(
            limits.messages_per_second, limits.private_chat_per_second, limits.group_per_minute
        )
    )
    await fake.start()
    engine = create_engine(f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}")
    await upgrade(engine)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base_url)))
    players = [FIRST_PLAYER + n for n in range(players_count)]
    channels = [FIRST_CHANNEL - n for n in range(channels_count)]
    for player in players:
        fake.user(player, f"Игрок{player}").send("/start")
    for channel in channels:
        fake.channel(channel, f"Канал {channel}")
    expected = await _record(uow_factory, players, channels, posts)
    # Waiting for the end reads through an engine of its own, so only the worker is counted.
    watcher = create_engine(f"sqlite+aiosqlite:///{folder / 'bench.sqlite3'}")
    transactions = 0

    def count(*_: object) -> None:
        nonlocal transactions
        transactions += 1

    event.listen(engine.sync_engine, "begin", count)

    worker = DeliveryWorker(bot, uow_factory, limits=limits)
    started = time.monotonic()
    await worker.start()
    await wait_until_delivered(SqlUnitOfWorkFactory(create_session_factory(watcher)), 3600)
    await worker.stop()
    elapsed = time.monotonic() - started
    await watcher.dispose()

    delivered = [
        (record.chat_id, record.text)
        for record in fake.stats.requests
        if record.method == "sendMessage" and record.status == 200
    ]
    times = [r.at for r in fake.stats.requests if r.method == "sendMessage" and r.status == 200]
    span = max(times) - min(times) if len(times) > 1 else 0.0
    copies = Counter(delivered)
    lost = len(expected - set(copies))
    duplicated = sum(count - 1 for count in copies.values() if count > 1)
    throughput = (len(delivered) - 1) / span if span else 0.0
    limit = limits.messages_per_second
    print(
        f"messages recorded       {len(expected)} ({players_count} private, "
        f"{channels_count * posts} channel posts)"
    )
    print(f"wall time               {elapsed:.1f} s (first to last send {span:.1f} s)")
    print(
        f"throughput              {throughput:.1f} msg/s = {throughput / limit:.0%} of the "
        f"configured {limit} msg/s (target >= 90%)"
    )
    print(f"lost                    {lost} (target 0)")
    print(f"duplicated              {duplicated} (target 0)")
    print(f"429 answers provoked    {fake.stats.too_many_requests} (target 0)")
    print(
        f"transactions            {transactions} = {transactions / len(expected):.2f} per message"
        " (target <= 1)"
    )
    await bot.session.close()
    await engine.dispose()
    await fake.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--channels", type=int, default=3)
    parser.add_argument("--posts", type=int, default=10, help="posts per channel (20/min max)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.players, args.channels, args.posts, Path(folder)))


if __name__ == "__main__":
    main()
