"""An update still being handled at a graceful stop is kept and answered after the restart.

Long polling confirmed it to Telegram already, so Telegram will not give it again: without the
kept copy its sender would never be answered.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot.app
from harness.fake_telegram import WAIT_LIMIT, FakeTelegram
from harness.fake_telegram.params import ApiError
from harness.sandbox import running_bot, sandbox_settings


async def test_an_update_cut_short_by_a_stop_is_handled_after_the_restart(
    fake_telegram: FakeTelegram, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = sandbox_settings(fake_telegram, f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
    anna = fake_telegram.user(330, "Анна")
    # Telegram answers Anna's reply only after the stop gave up on it.
    send_message = fake_telegram.api.methods["sendmessage"]
    reached, stopped = asyncio.Event(), asyncio.Event()

    async def slow_for_anna(params):  # type: ignore[no-untyped-def]
        if params.chat_ref() == 330 and not stopped.is_set():
            reached.set()
            await stopped.wait()
            raise ApiError(502, "Bad Gateway")  # the cancelled request never arrived
        return await send_message(params)

    monkeypatch.setitem(fake_telegram.api.methods, "sendmessage", slow_for_anna)
    monkeypatch.setattr(bot.app, "STOP_HANDLERS_SECONDS", 0.5)
    async with running_bot(settings):
        anna.send("/help")
        await asyncio.wait_for(reached.wait(), WAIT_LIMIT)
    stopped.set()
    assert _bot_s(fake_telegram) == []

    async with running_bot(settings):
        reply = await anna.wait_for(timeout=WAIT_LIMIT)
        assert "Что я умею" in (reply.text or "")
    assert len(_bot_s(fake_telegram)) == 1


def _bot_s(fake: FakeTelegram) -> list[str]:
    return [m.text or "" for m in fake.messages(330) if m.from_bot]
