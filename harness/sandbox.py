"""The real application polling a fake Telegram in the same process.

End-to-end tests and `mafiatour simulate` both use it, so what they exercise is exactly what
`mafiatour run` builds: the same settings, migrations, Dispatcher and long polling over HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from bot.app import Application, build_application, run_polling
from bot.config import Settings
from bot.delivery.limits import Limiter
from domain.services.ports import Clock, SeedSource
from harness.fake_telegram import FakeTelegram


def sandbox_settings(fake: FakeTelegram, database_url: str, **overrides: Any) -> Settings:
    """Settings pointing the bot at `fake`; a developer's `.env` is not read."""
    values: dict[str, Any] = {
        "bot_token": fake.token,
        "telegram_api_base": fake.base_url,
        "database_url": database_url,
        "redis_url": None,
        "webhook_url": None,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)


@contextlib.asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    seeds: SeedSource | None = None,
    limiter: Limiter | None = None,
) -> AsyncIterator[Application]:
    """Build the application (on `clock`, the system's by default, drawing seatings' seeds
    from `seeds`, a random draw by default, keeping Telegram's limits by `limiter`, the
    settings' by default), poll until the block ends, then stop and release it all."""
    app = await build_application(settings, clock=clock, seeds=seeds, limiter=limiter)
    started = asyncio.Event()

    async def mark_started() -> None:
        started.set()

    app.dispatcher.startup.register(mark_started)
    polling = asyncio.create_task(run_polling(app, handle_signals=False))
    try:
        waiting = asyncio.create_task(started.wait())
        done, _ = await asyncio.wait({waiting, polling}, return_when=asyncio.FIRST_COMPLETED)
        if polling in done:
            waiting.cancel()
            polling.result()  # polling ended before starting: raise why
        yield app
    finally:
        if not polling.done():
            with contextlib.suppress(RuntimeError):
                await app.dispatcher.stop_polling()
            await polling
        await app.close()
