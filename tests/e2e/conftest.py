"""Fixtures for end-to-end tests: the real bot talks to a local fake Telegram over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.fake_telegram import FakeTelegram


@pytest.fixture
async def fake_telegram() -> AsyncIterator[FakeTelegram]:
    fake = FakeTelegram()
    await fake.start()
    yield fake
    await fake.stop()
