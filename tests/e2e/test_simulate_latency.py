"""The fake Telegram measures how long the bot takes to answer each update it fetched."""

from __future__ import annotations

from pathlib import Path

from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings


async def test_each_message_and_press_is_timed_to_the_bots_first_answer(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url)):
        anna = fake_telegram.user(1001, "Анна")
        anna.send("/start")
        await anna.wait_for()
        anna.send("/lang")
        question = await anna.wait_for()
        await anna.press(question, button_text="English")
        await anna.wait_for()
        await fake_telegram.wait_idle()
    latencies = fake_telegram.stats.handling_latencies
    # Two messages and one press, each answered once: no update counted twice or missed.
    assert len(latencies) == 3
    assert all(0 <= seconds < 5 for seconds in latencies)
