"""Telegram's limits kept by every replica together, through Redis (when `REDIS_URL` is set).

The same sliding windows as `bot.delivery.limits`, as sorted sets in Redis scored by the moment
each request stops counting, on Redis's own clock (replicas' clocks never meet): a request
counts from its start until its answer plus the window's length. A request whose process dies
before its answer counts for `IN_FLIGHT_SECONDS` more at most. Each check-and-take is one Lua
script, so two replicas can never both take the last place of a window.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from bot.delivery.limits import DeliveryLimits, Slot, is_private_chat

PREFIX = "mafiatour:limits:"
# A request still unanswered after this long no longer blocks anyone (aiogram gives up sooner).
IN_FLIGHT_SECONDS = 90.0
# A sender kept out by a request still in flight asks again after the window's length and this
# much more: the answer usually comes within moments, and the request counts a window after it
# (told to wait out the in-flight bound, a reply would sit 91 s behind a 10 ms request).
IN_FLIGHT_RETRY_SECONDS = 0.05

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
"""

_TRY_START = (
    _NOW
    + """
local pause = redis.call('PTTL', KEYS[3])
if pause > 0 then return {0, tostring(pause / 1000)} end
local wait = 0
for i = 1, 2 do
  local capacity = tonumber(ARGV[i * 2 - 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= capacity then
    local first = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
    local window = tonumber(ARGV[i * 2]) + tonumber(ARGV[7])
    wait = math.max(wait, math.min(tonumber(first[2]) - now, window))
  end
end
if wait > 0 then return {0, tostring(wait)} end
local in_flight = tonumber(ARGV[6])
for i = 1, 2 do
  local window = tonumber(ARGV[i * 2])
  redis.call('ZADD', KEYS[i], now + in_flight + window, ARGV[5])
  redis.call('PEXPIRE', KEYS[i], math.ceil((in_flight + window) * 1000) + 1000)
end
return {1, tostring(now)}
"""
)

_FINISH = (
    _NOW
    + """
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], 'XX', now + tonumber(ARGV[i + 1]), ARGV[1])
end
return 1
"""
)

_PAUSE = """
local wanted = math.ceil(tonumber(ARGV[1]) * 1000)
if redis.call('PTTL', KEYS[1]) < wanted then
  redis.call('SET', KEYS[1], '1', 'PX', wanted)
end
return 1
"""


@dataclass(eq=False)
class SharedSlot(Slot):
    """A slot taken in Redis: its member in the windows of its chat and of the whole bot."""

    member: str = ""
    chat_id: int = 0


class RedisLimiter:
    """The `Limiter` the worker asks, with the windows in Redis shared by every replica."""

    def __init__(self, redis: Any, bot_id: int, limits: DeliveryLimits) -> None:
        self._redis = redis
        self._limits = limits
        self._prefix = f"{PREFIX}{bot_id}:"
        self._try_start = redis.register_script(_TRY_START)
        self._finish = redis.register_script(_FINISH)
        self._pause = redis.register_script(_PAUSE)

    def _windows(self, chat_id: int) -> tuple[list[str], list[float]]:
        if is_private_chat(chat_id):
            chat = (self._limits.private_chat_per_second, 1.0)
        else:
            chat = (self._limits.group_per_minute, 60.0)
        keys = [f"{self._prefix}all", f"{self._prefix}chat:{chat_id}"]
        return keys, [self._limits.messages_per_second, 1.0, chat[0], chat[1]]

    async def try_start(self, chat_id: int) -> Slot | float:
        keys, windows = self._windows(chat_id)
        member = uuid.uuid4().hex
        taken, value = await self._try_start(
            keys=[*keys, f"{self._prefix}pause:{chat_id}"],
            args=[*windows, member, IN_FLIGHT_SECONDS, IN_FLIGHT_RETRY_SECONDS],
        )
        if int(taken) != 1:
            return max(float(value), 0.001)
        return SharedSlot(member=member, chat_id=chat_id)

    async def finish(self, slot: Slot) -> None:
        if slot.ended is not None or not isinstance(slot, SharedSlot):
            return
        slot.ended = 0.0  # finished once: a second call changes nothing
        keys, windows = self._windows(slot.chat_id)
        await self._finish(keys=keys, args=[slot.member, windows[1], windows[3]])

    async def pause(self, chat_id: int, seconds: float) -> None:
        await self._pause(keys=[f"{self._prefix}pause:{chat_id}"], args=[seconds])

    async def give_back(self, slot: Slot) -> None:
        if not isinstance(slot, SharedSlot):
            return
        slot.ended = 0.0  # nothing more to finish
        for key in self._windows(slot.chat_id)[0]:
            await self._redis.zrem(key, slot.member)
