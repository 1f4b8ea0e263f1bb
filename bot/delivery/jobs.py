"""A claimed outbox message on its way, and what became of it: what the worker's loop hands
its sender and records afterwards (`bot/delivery/worker.py` states the delivery promise)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.db.repositories.outbox import Anchor, Claimed
from bot.delivery.limits import Slot
from domain.outgoing import DeliveryStatus

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """The real clock; tests pass their own."""
    return datetime.now(UTC)


@dataclass
class Job:
    """A claimed message on its way: what the cycle that claimed it read for it."""

    claimed: Claimed
    locale: str
    anchor: Anchor | None
    slot: Slot
    maybe_duplicate: bool = False  # a request of it was sent again after a lost answer


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a claimed message, recorded by the next cycle."""

    claimed: Claimed
    status: DeliveryStatus  # PENDING: back in the queue
    at: datetime
    telegram_id: int | None = None
    error: str | None = None
    not_before: datetime | None = None
    maybe_duplicate: bool = False
    shown: str | None = None  # a digest of what a message kept up to date in place now shows
