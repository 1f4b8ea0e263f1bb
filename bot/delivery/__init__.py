"""Delivery of everything the bot pushes: the outbox worker, Telegram's limits, the reminder
scheduler (the texts it sends are written by bot/rendering)."""

from bot.delivery.jobs import utc_now
from bot.delivery.limits import DeliveryLimits, LocalLimiter, RateLimiter
from bot.delivery.worker import DeliveryWorker, Pace
from bot.delivery.writer import Writer

__all__ = [
    "DeliveryLimits",
    "DeliveryWorker",
    "LocalLimiter",
    "Pace",
    "RateLimiter",
    "Writer",
    "utc_now",
]
