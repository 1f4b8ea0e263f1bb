"""The outbox workers' leases: each bot process claims the messages it sends under its own
identity and keeps a lease (`leases`) while alive; only the messages of a process whose lease
ran out are taken over, so a restart or a late answer never touches another's work."""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable
from datetime import datetime

from bot.db.repositories.outbox import Claimed
from bot.db.uow import SqlUnitOfWork

# A worker's lease: taken over LEASE_SECONDS after its last renewal (a killed process's
# messages are settled within a minute), renewed RENEWALS_PER_LEASE times within it
# (the LEASE_SECONDS setting changes it; the scheduler's and polling's leases keep the same).
WORKER_LEASE_PREFIX = "worker:"
# The one process polling Telegram on a database (bot.app.polling_lease).
POLLING_LEASE = "polling"
LEASE_SECONDS = 30.0
RENEWALS_PER_LEASE = 3


def process_identity() -> str:
    """This process among the bot's replicas: host, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Lease:
    """This process's lease, renewed on a heartbeat of the `monotonic` clock."""

    def __init__(
        self, identity: str, monotonic: Callable[[], float], seconds: float = LEASE_SECONDS
    ) -> None:
        self.identity = identity
        self._name = WORKER_LEASE_PREFIX + identity
        self._monotonic = monotonic
        self._seconds = seconds
        self._next_heartbeat = 0.0

    async def take(self, uow: SqlUnitOfWork, now: datetime) -> None:
        await uow.leases.take(self._name, self.identity, now, self._seconds)

    async def release(self, uow: SqlUnitOfWork) -> None:
        await uow.leases.release(self._name, self.identity)

    def beat_now(self) -> None:
        """The next cycle renews the lease (and settles what dead processes left)."""
        self._next_heartbeat = self._monotonic()

    def beat_due(self) -> bool:
        return self._monotonic() >= self._next_heartbeat

    def beaten(self) -> None:
        """The lease was renewed: the next renewal is a heartbeat away."""
        self._next_heartbeat = self._monotonic() + self._seconds / RENEWALS_PER_LEASE

    async def keep_alive(self, uow: SqlUnitOfWork, now: datetime) -> list[Claimed]:
        """Renew the lease; the messages of the processes whose lease ran out, now this
        process's to settle as if their answers were lost."""
        await self.take(uow, now)
        alive = await uow.leases.alive(WORKER_LEASE_PREFIX, now)
        return await uow.outbox.take_over(self.identity, alive, now)
