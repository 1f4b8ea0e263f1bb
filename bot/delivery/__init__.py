"""Delivery of everything the bot pushes: the outbox worker, Telegram's limits, the reminder
scheduler (the texts it sends are written by bot/rendering)."""

from bot.delivery.limits import DeliveryLimits, RateLimiter
from bot.delivery.worker import DeliveryWorker, utc_now

__all__ = ["DeliveryLimits", "DeliveryWorker", "RateLimiter", "utc_now"]
