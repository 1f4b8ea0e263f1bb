"""Delivery of everything the bot pushes: the outbox worker, Telegram's limits, HTML texts."""

from bot.delivery.jobs import utc_now
from bot.delivery.limits import DeliveryLimits, LocalLimiter, RateLimiter
from bot.delivery.text import escape, split_text
from bot.delivery.worker import DeliveryWorker, Pace
from bot.delivery.writer import Writer

__all__ = [
    "DeliveryLimits",
    "DeliveryWorker",
    "LocalLimiter",
    "Pace",
    "RateLimiter",
    "Writer",
    "escape",
    "split_text",
    "utc_now",
]
