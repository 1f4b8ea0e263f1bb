"""A push planned by one bot process wakes the reminder scheduler of another at once.

Of several replicas only one sweeps the reminders (`bot.delivery.scheduler`); a round published
through another replica plans its players' reminders there. On PostgreSQL the transaction that
plans a push also sends `NOTIFY` on `CHANNEL` (delivered when it commits, never when it rolls
back), naming the process that planned it; the sweeping process listens on a connection of its
own and wakes as soon as one arrives from another process (its own commits wake it directly).
On SQLite there is one process, and nothing to tell.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession

log = logging.getLogger(__name__)

CHANNEL = "mafiatour_pushes_planned"


async def tell_planned(session: AsyncSession, sender: str) -> None:
    """Say, when `session`'s transaction commits, that `sender` planned a push."""
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(select(func.pg_notify(CHANNEL, sender)))


class PlannedListener:
    """Calls `heard` for each push another process than `own` planned (PostgreSQL only)."""

    def __init__(self, engine: AsyncEngine, own: str, heard: Callable[[], None]) -> None:
        self._engine = engine
        self._own = own
        self._heard = heard
        self._connection: AsyncConnection | None = None
        self._driver: Any = None  # the asyncpg connection under it

    @property
    def listening(self) -> bool:
        return self._driver is not None and not self._driver.is_closed()

    async def listen(self) -> None:
        """Listen from now on (again, when the connection was lost); nothing on SQLite."""
        if self._engine.dialect.name != "postgresql" or self.listening:
            return
        await self.close()
        connection = await self._engine.connect()
        try:
            raw = await connection.get_raw_connection()
            driver = raw.driver_connection
            assert driver is not None
            await driver.add_listener(CHANNEL, self._notified)
        except BaseException:
            await connection.close()
            raise
        self._connection, self._driver = connection, driver

    async def close(self) -> None:
        connection, self._connection, driver, self._driver = (
            self._connection,
            None,
            self._driver,
            None,
        )
        if connection is None:
            return
        try:
            if not driver.is_closed():
                await driver.remove_listener(CHANNEL, self._notified)
            await connection.close()
        except Exception as error:  # a connection already broken: nothing to give back
            log.info("the planned-push listener closed with %r", error)
            await connection.invalidate()

    def _notified(self, _driver: Any, _pid: int, _channel: str, sender: str) -> None:
        if sender != self._own:
            self._heard()
