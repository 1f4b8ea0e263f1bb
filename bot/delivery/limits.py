"""Telegram's flood limits kept on the bot's side, so the bot never provokes a 429.

Each request holds a slot of a sliding window from the moment it leaves until its answer
arrives, and for the window's length after that. Telegram counts a message somewhere between
those two moments, so however long the request travels, no window on Telegram's side can
hold more messages than ours. Time is passed in (seconds of a monotonic clock).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class DeliveryLimits:
    """How many messages the bot sends: overall, per private chat, per group or channel."""

    messages_per_second: int = 30
    private_chat_per_second: int = 1
    group_per_minute: int = 20


@dataclass(eq=False)
class Slot:
    """One request's place in the windows it counts against; `ended` is set by its answer."""

    ended: float | None = None


@dataclass
class SlidingWindow:
    """At most `capacity` requests in any `seconds`, a request counting until its answer."""

    capacity: int
    seconds: float
    slots: list[Slot] = field(default_factory=list)

    def wait(self, now: float) -> float:
        """Seconds until one more request may start: 0 now, `inf` until an answer arrives."""
        self.slots = [s for s in self.slots if s.ended is None or s.ended + self.seconds > now]
        if len(self.slots) < self.capacity:
            return 0.0
        ends = [s.ended + self.seconds - now for s in self.slots if s.ended is not None]
        return min(ends) if ends else math.inf

    def take(self, slot: Slot) -> None:
        self.slots.append(slot)

    def give_back(self, slot: Slot) -> None:
        self.slots = [s for s in self.slots if s is not slot]

    @property
    def idle(self) -> bool:
        return not self.slots


def is_private_chat(chat_id: int) -> bool:
    """People have positive chat ids; groups and channels negative ones."""
    return chat_id > 0


class RateLimiter:
    """The overall window, one window per chat, and pauses Telegram asked for (retry_after)."""

    def __init__(self, limits: DeliveryLimits) -> None:
        self._limits = limits
        self._overall = SlidingWindow(limits.messages_per_second, 1.0)
        self._chats: dict[int, SlidingWindow] = {}
        self._paused_until: dict[int, float] = {}

    def wait(self, chat_id: int, now: float) -> float:
        """Seconds until a request to `chat_id` may start (0: now)."""
        paused = self._paused_until.get(chat_id, now) - now
        return max(paused, self._overall.wait(now), self._chat(chat_id).wait(now), 0.0)

    def start(self, chat_id: int, now: float) -> Slot:
        """Take a slot for a request starting now; call `finish` when its answer arrives."""
        if self.wait(chat_id, now) > 0:
            raise RuntimeError(f"no slot free for chat {chat_id}")
        slot = Slot()
        self._overall.take(slot)
        self._chat(chat_id).take(slot)
        return slot

    def seed(self, chat_id: int, sent_at: float) -> None:
        """Count a message sent before a restart, answered at `sent_at`."""
        slot = Slot(ended=sent_at)
        self._overall.take(slot)
        self._chat(chat_id).take(slot)

    @staticmethod
    def finish(slot: Slot, now: float) -> None:
        slot.ended = now

    def give_back(self, slot: Slot) -> None:
        """No request was made in `slot`: it counts against no window."""
        for window in (self._overall, *self._chats.values()):
            window.give_back(slot)

    def pause(self, chat_id: int, seconds: float, now: float) -> None:
        """Telegram said "retry after `seconds`" for this chat."""
        self._paused_until[chat_id] = max(self._paused_until.get(chat_id, now), now + seconds)

    def forget_idle(self, now: float) -> None:
        """Drop the windows of chats with nothing in them, so memory stays bounded."""
        for chat_id in [c for c, w in self._chats.items() if w.wait(now) == 0 and w.idle]:
            del self._chats[chat_id]
        for chat_id in [c for c, until in self._paused_until.items() if until <= now]:
            del self._paused_until[chat_id]

    def _chat(self, chat_id: int) -> SlidingWindow:
        window = self._chats.get(chat_id)
        if window is None:
            if is_private_chat(chat_id):
                window = SlidingWindow(self._limits.private_chat_per_second, 1.0)
            else:
                window = SlidingWindow(self._limits.group_per_minute, 60.0)
            self._chats[chat_id] = window
        return window


class Limiter(Protocol):
    """Telegram's limits as the worker asks them: one process's (`LocalLimiter`) or shared by
    every replica through Redis (`bot.delivery.shared_limits.RedisLimiter`)."""

    async def try_start(self, chat_id: int) -> Slot | float:
        """A slot for a request to `chat_id` starting now, or the seconds to wait for one."""
        ...

    async def finish(self, slot: Slot) -> None:
        """The request's answer arrived (or it failed)."""
        ...

    async def pause(self, chat_id: int, seconds: float) -> None:
        """Telegram said "retry after `seconds`" for this chat."""
        ...

    async def give_back(self, slot: Slot) -> None:
        """No request was made in `slot` (an edit that would change nothing): it no longer
        counts."""
        ...


class LocalLimiter:
    """The limits kept by this process alone, on its monotonic clock."""

    def __init__(
        self, limits: DeliveryLimits, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self.limiter = RateLimiter(limits)
        self._monotonic = monotonic

    async def try_start(self, chat_id: int) -> Slot | float:
        now = self._monotonic()
        self.limiter.forget_idle(now)
        wait = self.limiter.wait(chat_id, now)
        return wait if wait > 0 else self.limiter.start(chat_id, now)

    async def finish(self, slot: Slot) -> None:
        if slot.ended is None:
            self.limiter.finish(slot, self._monotonic())

    async def pause(self, chat_id: int, seconds: float) -> None:
        self.limiter.pause(chat_id, seconds, self._monotonic())

    async def give_back(self, slot: Slot) -> None:
        self.limiter.give_back(slot)

    def seed(self, chat_id: int, seconds_ago: float) -> None:
        """Count a message answered `seconds_ago`, sent before this process started."""
        self.limiter.seed(chat_id, self._monotonic() - seconds_ago)
