"""Telegram's flood limits for bots, as sliding windows over the messages already sent."""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RateLimits:
    """How many messages Telegram lets a bot send (the FAQ's figures by default)."""

    total_per_second: int = 30
    private_chat_per_second: int = 1
    group_per_minute: int = 20


@dataclass
class _Window:
    capacity: int
    seconds: float
    sent: deque[float] = field(default_factory=deque)

    def wait(self, now: float) -> float:
        """Seconds until one more message fits (0 when it fits now)."""
        while self.sent and self.sent[0] <= now - self.seconds:
            self.sent.popleft()
        if len(self.sent) < self.capacity:
            return 0.0
        return self.sent[0] + self.seconds - now


class FloodControl:
    """Decides whether a message to a chat would exceed `RateLimits` at a given moment."""

    def __init__(self, limits: RateLimits) -> None:
        self._limits = limits
        self._total = _Window(limits.total_per_second, 1.0)
        self._chats: dict[int, _Window] = {}

    def retry_after(self, chat_id: int, is_private: bool, now: float) -> int | None:
        """Whole seconds to wait (Telegram's `retry_after`), or None when the send is allowed."""
        wait = max(self._total.wait(now), self._chat_window(chat_id, is_private).wait(now))
        if wait <= 0:
            return None
        return max(1, math.ceil(wait))

    def record(self, chat_id: int, is_private: bool, now: float) -> None:
        self._total.sent.append(now)
        self._chat_window(chat_id, is_private).sent.append(now)

    def _chat_window(self, chat_id: int, is_private: bool) -> _Window:
        window = self._chats.get(chat_id)
        if window is None:
            if is_private:
                window = _Window(self._limits.private_chat_per_second, 1.0)
            else:
                window = _Window(self._limits.group_per_minute, 60.0)
            self._chats[chat_id] = window
        return window
