"""Webhook mode: Telegram's updates are taken only with the secret-token header."""

from __future__ import annotations

import asyncio
import socket

import aiohttp

from bot.app import build_application, run_webhook
from bot.config import Settings
from harness.fake_telegram import WAIT_LIMIT, FakeTelegram
from harness.sandbox import sandbox_settings

SECRET = "s3cret-token_for-tests"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _webhook_settings(fake: FakeTelegram, folder, port: int) -> Settings:  # type: ignore[no-untyped-def]
    return sandbox_settings(
        fake,
        f"sqlite+aiosqlite:///{folder / 'bot.sqlite3'}",
        webhook_url=f"http://127.0.0.1:{port}/tg/hook",
        webhook_secret=SECRET,
        webhook_host="127.0.0.1",
        webhook_port=port,
    )


async def test_updates_need_telegrams_secret_header(fake_telegram: FakeTelegram, tmp_path) -> None:  # type: ignore[no-untyped-def]
    port = _free_port()
    settings = _webhook_settings(fake_telegram, tmp_path, port)
    app = await build_application(settings)
    stop = asyncio.Event()
    server = asyncio.create_task(run_webhook(app, stop))
    try:
        async with asyncio.timeout(WAIT_LIMIT):  # until the bot has registered its webhook
            while not fake_telegram.api.webhook_url:
                await asyncio.sleep(0.01)
        assert fake_telegram.api.webhook_url == f"http://127.0.0.1:{port}/tg/hook"

        anna = fake_telegram.user(201, "Анна")
        anna.send("/help")
        update = fake_telegram.world.updates.pop(0)  # delivered by us instead of Telegram
        url = f"http://127.0.0.1:{port}/tg/hook"
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=update) as refused:
                assert refused.status == 401
            wrong = {"X-Telegram-Bot-Api-Secret-Token": "guess"}
            async with http.post(url, json=update, headers=wrong) as refused_again:
                assert refused_again.status == 401
            await asyncio.sleep(0.2)
            assert not [message for message in anna.messages if message.from_bot]
            right = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
            async with http.post(url, json=update, headers=right) as accepted:
                assert accepted.status == 200
        reply = await anna.wait_for()
        assert "Что я умею" in reply.text
    finally:
        stop.set()
        await server
        await app.close()


async def test_an_update_delivered_twice_is_handled_once(
    fake_telegram: FakeTelegram,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    port = _free_port()
    settings = _webhook_settings(fake_telegram, tmp_path, port)
    # Telegram did not see the answers: every update comes a second time.
    webhooks = fake_telegram.deliver_webhooks(duplicate_every=1)
    app = await build_application(settings)
    stop = asyncio.Event()
    server = asyncio.create_task(run_webhook(app, stop))
    try:
        anna = fake_telegram.user(202, "Анна")
        for _ in range(3):
            anna.send("/help")
        await fake_telegram.wait_idle(quiet=0.5, timeout=120)
        replies = [message for message in anna.messages if message.from_bot]
        assert webhooks.duplicates == 3
        assert len(replies) == 3 and all("Что я умею" in reply.text for reply in replies)
    finally:
        stop.set()
        await server
        await app.close()
