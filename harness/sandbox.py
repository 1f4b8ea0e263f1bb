"""The real application polling a fake Telegram in the same process.

End-to-end tests and `mafiatour simulate` both use it, so what they exercise is exactly what
`mafiatour run` builds: the same settings, migrations, Dispatcher and long polling over HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

from bot.app import Application, build_application, run_polling
from bot.config import Settings
from bot.delivery.limits import Limiter
from bot.rendering.pictures import PictureWorker, StandingsPainter
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


# The picture worker the bots started here share, while `shared_pictures` holds one.
_shared_pictures: list[PictureWorker] = []


@contextlib.contextmanager
def shared_pictures() -> Iterator[PictureWorker]:
    """Inside the block, the bots `running_bot` starts draw their pictures in one worker
    process, started with the first picture and stopped when the block ends, instead of
    each in a new one of its own (a fresh interpreter importing matplotlib: 1.5 s of CPU and
    more). The tests hold it for their whole session."""
    worker = PictureWorker()
    _shared_pictures.append(worker)
    try:
        yield worker
    finally:
        _shared_pictures.remove(worker)
        asyncio.run(worker.close())


@contextlib.asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    seeds: SeedSource | None = None,
    pictures: StandingsPainter | None = None,
    limiter: Limiter | None = None,
) -> AsyncIterator[Application]:
    """Build the application (on `clock`, the system's by default, drawing seatings' seeds
    from `seeds`, a random draw by default, pictures with `pictures`, by default in the
    shared worker when there is one, keeping Telegram's limits by `limiter`, the settings'
    by default), poll until the block ends, then stop and release it all."""
    if pictures is None and _shared_pictures:
        pictures = StandingsPainter(_shared_pictures[-1])
    app = await build_application(
        settings, clock=clock, seeds=seeds, pictures=pictures, limiter=limiter
    )
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
