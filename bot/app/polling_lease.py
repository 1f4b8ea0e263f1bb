"""The "polling" lease: one process on a database polls Telegram (two pollers only take the
updates from each other); several replicas take updates by webhook instead."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from bot.app import Application, database_problem
from bot.delivery.jobs import utc_now
from bot.delivery.leases import POLLING_LEASE, RENEWALS_PER_LEASE

log = logging.getLogger(__name__)


class PollingTaken(Exception):
    """Another process polls Telegram for this bot on the same database."""

    def __init__(self, holder: str | None) -> None:
        super().__init__(
            f"another bot process ({holder or 'unknown'}) is already polling Telegram with this "
            "database: run one polling process, or set WEBHOOK_URL to run several replicas"
        )


@contextlib.asynccontextmanager
async def polling_lease(app: Application) -> AsyncIterator[None]:
    """Hold the "polling" lease while the block runs; `PollingTaken` when another process
    holds it (two pollers only take Telegram's updates from each other)."""
    identity = app.delivery.identity
    seconds = app.settings.lease_seconds

    async def take() -> bool:
        async with app.uow_factory() as uow:
            taken = await uow.leases.take(POLLING_LEASE, identity, utc_now(), seconds)
            holder = None if taken else await uow.leases.holder(POLLING_LEASE, utc_now())
            await uow.commit()
        if not taken and not started:
            raise PollingTaken(holder)
        return taken

    async def keep() -> None:
        while True:
            await asyncio.sleep(seconds / RENEWALS_PER_LEASE)
            try:
                lost = not await take()
                app.health.lease_lost = lost  # the admins are told, once
                if lost:
                    log.error("another process took the polling lease over")
            except Exception:
                log.exception("could not renew the polling lease")

    started = False
    await take()
    started = True
    keeping = asyncio.create_task(keep(), name="polling-lease")
    try:
        yield
    finally:
        keeping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await keeping
        problem = await database_problem(app.settings, app.uow_factory)
        if problem is None:
            async with app.uow_factory() as uow:
                await uow.leases.release(POLLING_LEASE, identity)
                await uow.commit()
        else:
            log.warning("the polling lease is left to run out: %s", problem)
