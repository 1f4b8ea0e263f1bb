"""Delivery of everything the bot pushes: the outbox worker, Telegram's limits, HTML texts."""

from bot.delivery.limits import DeliveryLimits, RateLimiter
from bot.delivery.text import escape, split_text
from bot.delivery.worker import DeliveryWorker, utc_now

__all__ = ["DeliveryLimits", "DeliveryWorker", "RateLimiter", "escape", "split_text", "utc_now"]
