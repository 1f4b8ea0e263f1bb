"""Prometheus metrics of the bot, served at `/metrics` on the web port (bot/web/).

Counters live in prometheus-client's default registry, so any part of the bot counts with one
line (`metrics.telegram_429.inc()`). What the database knows (the outbox's queue, overdue
reminders) is read at scrape time by `DatabaseCollector`, one per running application.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiogram import BaseMiddleware
from aiogram.client.session.middlewares.base import BaseRequestMiddleware, NextRequestMiddlewareType
from aiogram.dispatcher.event.bases import UNHANDLED
from aiogram.exceptions import TelegramRetryAfter
from aiogram.methods import TelegramMethod
from aiogram.methods.base import Response, TelegramType
from aiogram.types import TelegramObject, Update
from prometheus_client import Counter, Histogram
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.models import OutboxRow, ScheduledPushRow
from domain.outgoing import DeliveryStatus

# From a quick callback answer to a protocol confirmation that recomputes the standings.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

updates = Counter(
    "mafiatour_updates",
    "Telegram updates handled, by kind (message, callback_query, ...) and outcome",
    ["kind", "outcome"],
)
update_seconds = Histogram(
    "mafiatour_update_handling_seconds",
    "Time from the Dispatcher taking an update to its handler returning, by kind",
    ["kind"],
    buckets=LATENCY_BUCKETS,
)
telegram_429 = Counter(
    "mafiatour_telegram_429", "Requests Telegram answered with 429 Too Many Requests", ["method"]
)
deliveries = Counter(
    "mafiatour_deliveries",
    "Outbox messages finished, by outcome (sent, failed, unreachable, uncertain)",
    ["outcome"],
)


# Each series's child, looked up once: `labels` takes a lock and builds its key at every call,
# and the kinds and outcomes of updates are a handful. Nothing removes a series of these two.
@functools.cache
def _handling_timer(kind: str) -> Histogram:
    return update_seconds.labels(kind)


@functools.cache
def _update_counter(kind: str, outcome: str) -> Counter:
    return updates.labels(kind, outcome)


class UpdateMetricsMiddleware(BaseMiddleware):
    """An outer update middleware: counts every update and times its handling."""

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        kind = event.event_type if isinstance(event, Update) else type(event).__name__
        started = time.perf_counter()
        outcome = "error"
        try:
            result = await handler(event, data)
            outcome = "unhandled" if result is UNHANDLED else "handled"
            return result
        finally:
            _handling_timer(kind).observe(time.perf_counter() - started)
            _update_counter(kind, outcome).inc()


class TelegramRequestMetrics(BaseRequestMiddleware):
    """A Bot session middleware: counts Telegram's 429 answers to any request."""

    async def __call__(
        self,
        make_request: NextRequestMiddlewareType[TelegramType],
        bot: Any,
        method: TelegramMethod[TelegramType],
    ) -> Response[TelegramType]:
        try:
            return await make_request(bot, method)
        except TelegramRetryAfter:
            telegram_429.labels(type(method).__name__).inc()
            raise


@dataclass(frozen=True)
class QueueFigures:
    """The outbox and the reminders as the database holds them at one moment."""

    pending: int
    oldest_pending_age: float  # seconds; 0 with nothing pending
    oldest_due_age: float  # seconds the longest-due message has waited; 0 with none due
    scheduler_lag: float  # seconds the most overdue reminder is late; 0 with none overdue


async def queue_figures(engine: AsyncEngine, now: datetime) -> QueueFigures:
    """Read the outbox's depth and ages and the reminders' lag in one connection."""
    pending = OutboxRow.status == DeliveryStatus.PENDING.value
    due = pending & ((OutboxRow.not_before.is_(None)) | (OutboxRow.not_before <= now))
    # A message put back after a 429 has waited since it became due again, not since created.
    due_since = func.coalesce(OutboxRow.not_before, OutboxRow.created_at)
    async with engine.connect() as connection:
        count, oldest = (
            await connection.execute(
                select(func.count(), func.min(OutboxRow.created_at)).where(pending)
            )
        ).one()
        oldest_due = await connection.scalar(select(func.min(due_since)).where(due))
        overdue = await connection.scalar(select(func.min(ScheduledPushRow.due_at)))
    return QueueFigures(
        pending=int(count),
        oldest_pending_age=_age(oldest, now),
        oldest_due_age=_age(oldest_due, now),
        scheduler_lag=_age(overdue, now),
    )


def _age(moment: datetime | None, now: datetime) -> float:
    if moment is None:
        return 0.0
    if moment.tzinfo is None:  # SQLite forgets the zone; every stored moment is UTC
        moment = moment.replace(tzinfo=UTC)
    return max(0.0, (now - moment).total_seconds())


def newest_backup_at(folder: Path) -> float:
    """The Unix time the newest backup in `folder` was written; 0 with none (or no folder)."""
    try:
        return max((path.stat().st_mtime for path in folder.glob("*.backup")), default=0.0)
    except OSError:
        return 0.0


class DatabaseCollector(Collector):
    """Gauges read when Prometheus scrapes, from figures the web application fetched just
    before (a collector cannot await): the readiness, the outbox and reminders, the backup."""

    def __init__(self) -> None:
        self.figures: QueueFigures | None = None
        self.ready: bool | None = None
        self.backup_at: float | None = None

    def collect(self) -> Iterable[GaugeMetricFamily]:
        if self.ready is not None:
            yield GaugeMetricFamily(
                "mafiatour_ready", "1 when /readyz answers 200, otherwise 0", int(self.ready)
            )
        if self.backup_at is not None:
            yield GaugeMetricFamily(
                "mafiatour_backup_last_timestamp_seconds",
                "Unix time of the newest backup in BACKUP_DIR (0: none)",
                self.backup_at,
            )
        figures = self.figures
        if figures is None:
            return
        yield GaugeMetricFamily(
            "mafiatour_outbox_pending", "Outbox messages waiting to be sent", figures.pending
        )
        yield GaugeMetricFamily(
            "mafiatour_outbox_oldest_pending_age_seconds",
            "Age of the oldest outbox message waiting to be sent",
            figures.oldest_pending_age,
        )
        yield GaugeMetricFamily(
            "mafiatour_outbox_oldest_due_age_seconds",
            "How long the longest-waiting message that may go now has waited (0: none)",
            figures.oldest_due_age,
        )
        yield GaugeMetricFamily(
            "mafiatour_scheduler_lag_seconds",
            "How late the most overdue reminder is (0: every reminder moved on time)",
            figures.scheduler_lag,
        )
