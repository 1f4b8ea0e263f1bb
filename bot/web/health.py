"""`/healthz` (the process answers), `/readyz` (it can do its work) and `/metrics`.

Ready means: the database answers, Telegram answers, and the outbox is not stuck (no message
that may go now has waited longer than `OUTBOX_STUCK_SECONDS`). A check that fails or takes
longer than `CHECK_TIMEOUT_SECONDS` makes `/readyz` answer 503 naming it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from pathlib import Path

from aiogram import Bot
from aiohttp import web
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.metrics import DatabaseCollector, QueueFigures, newest_backup_at, queue_figures
from domain.services.ports import Clock

CHECK_TIMEOUT_SECONDS = 10.0
# The outbox sends within Telegram's limits; a due message waiting this long means it stopped.
OUTBOX_STUCK_SECONDS = 300.0
# getMe is asked at most this often, however often the probe comes.
TELEGRAM_CHECK_EVERY_SECONDS = 30.0


class Probe:
    """The checks of one running application: its database, its bot, and its clock for the
    outbox's age."""

    def __init__(self, engine: AsyncEngine, bot: Bot, clock: Clock, backup_dir: Path) -> None:
        self._engine = engine
        self._bot = bot
        self._clock = clock
        self._telegram_ok_at: float | None = None
        self.collector = DatabaseCollector()
        self.backup_dir = backup_dir
        self.registry = CollectorRegistry(auto_describe=True)
        self.registry.register(self.collector)

    async def figures(self) -> QueueFigures:
        return await queue_figures(self._engine, self._clock.now())

    async def database(self) -> None:
        async with self._engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def telegram(self) -> None:
        now = time.monotonic()
        recent = self._telegram_ok_at
        if recent is not None and now - recent < TELEGRAM_CHECK_EVERY_SECONDS:
            return
        await self._bot.get_me(request_timeout=int(CHECK_TIMEOUT_SECONDS))
        self._telegram_ok_at = time.monotonic()

    async def outbox(self) -> None:
        figures = await self.figures()
        if figures.oldest_due_age > OUTBOX_STUCK_SECONDS:
            raise RuntimeError(
                f"stuck: a message has waited {figures.oldest_due_age:.0f} s "
                f"({figures.pending} pending)"
            )


PROBE = web.AppKey("probe", Probe)


def install(
    web_app: web.Application, engine: AsyncEngine, bot: Bot, clock: Clock, backup_dir: Path
) -> None:
    """Add the three routes to the bot's web application (the newest backup in `backup_dir`
    is a metric)."""
    web_app[PROBE] = Probe(engine, bot, clock, backup_dir)
    web_app.router.add_get("/healthz", healthz)
    web_app.router.add_get("/readyz", readyz)
    web_app.router.add_get("/metrics", metrics)


async def healthz(_request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


async def _check(name: str, check: Awaitable[None]) -> tuple[str, str]:
    try:
        await asyncio.wait_for(check, CHECK_TIMEOUT_SECONDS)
    except TimeoutError:
        return name, f"no answer within {CHECK_TIMEOUT_SECONDS:.0f} s"
    except Exception as error:
        return name, str(error).splitlines()[0] if str(error) else type(error).__name__
    return name, "ok"


async def readiness(probe: Probe) -> tuple[bool, dict[str, str]]:
    """Whether the bot is ready, and each check's verdict ("ok" or what fails)."""
    results = dict(
        await asyncio.gather(
            _check("database", probe.database()),
            _check("telegram", probe.telegram()),
            _check("outbox", probe.outbox()),
        )
    )
    return all(verdict == "ok" for verdict in results.values()), results


async def readyz(request: web.Request) -> web.Response:
    ready, results = await readiness(request.app[PROBE])
    return web.json_response(
        {"status": "ok" if ready else "not ready", **results}, status=200 if ready else 503
    )


async def metrics(request: web.Request) -> web.Response:
    probe = request.app[PROBE]
    try:
        probe.collector.figures = await asyncio.wait_for(probe.figures(), CHECK_TIMEOUT_SECONDS)
    except Exception:
        probe.collector.figures = None  # the counters are still worth a scrape
    # What the alert rules (deploy/mafiatour-alerts.yml) watch beside the counters.
    probe.collector.ready, _ = await readiness(probe)
    probe.collector.backup_at = newest_backup_at(probe.backup_dir)
    body = generate_latest(REGISTRY) + generate_latest(probe.registry)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
