"""Long polling asks Telegram for a few updates at a time (`bot.telegram.polling`)."""

from __future__ import annotations

from typing import Any

from aiogram import Dispatcher
from aiogram.methods import GetUpdates

from bot.telegram.polling import UPDATES_PER_POLL, ConflictGuard


async def test_a_poll_asks_for_a_few_updates_so_that_reading_them_is_a_short_step() -> None:
    asked: list[int | None] = []

    async def make_request(bot: Any, method: GetUpdates) -> list[object]:
        asked.append(method.limit)
        return []

    guard = ConflictGuard(Dispatcher())
    polled = GetUpdates(timeout=30)  # aiogram's polling asks again with the same method
    for _ in range(2):
        await guard(make_request, None, polled)  # type: ignore[arg-type]
    assert asked == [UPDATES_PER_POLL, UPDATES_PER_POLL]
    assert UPDATES_PER_POLL < 100  # Telegram's default
