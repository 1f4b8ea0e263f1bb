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

# A worker's lease: renewed every HEARTBEAT_SECONDS, taken over LEASE_SECONDS after its last
# renewal (a killed process's messages are settled within a minute).
WORKER_LEASE_PREFIX = "worker:"
LEASE_SECONDS = 30.0
HEARTBEAT_SECONDS = 10.0


def process_identity() -> str:
    """This process among the bot's replicas: host, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Lease:
    """This process's lease, renewed on a heartbeat of the `monotonic` clock."""

    def __init__(self, identity: str, monotonic: Callable[[], float]) -> None:
        self.identity = identity
        self._name = WORKER_LEASE_PREFIX + identity
        self._monotonic = monotonic
        self._next_heartbeat = 0.0

    async def take(self, uow: SqlUnitOfWork, now: datetime) -> None:
        await uow.leases.take(self._name, self.identity, now, LEASE_SECONDS)

    async def release(self, uow: SqlUnitOfWork) -> None:
        await uow.leases.release(self._name, self.identity)

    def beat_now(self) -> None:
        """The next cycle renews the lease (and settles what dead processes left)."""
        self._next_heartbeat = self._monotonic()

    def beat_due(self) -> bool:
        return self._monotonic() >= self._next_heartbeat

    def beaten(self) -> None:
        """The lease was renewed: the next renewal is a heartbeat away."""
        self._next_heartbeat = self._monotonic() + HEARTBEAT_SECONDS

    async def keep_alive(self, uow: SqlUnitOfWork, now: datetime) -> list[Claimed]:
        """Renew the lease; the messages of the processes whose lease ran out, now this
        process's to settle as if their answers were lost."""
        await self.take(uow, now)
        alive = await uow.leases.alive(WORKER_LEASE_PREFIX, now)
        return await uow.outbox.take_over(self.identity, alive, now)
