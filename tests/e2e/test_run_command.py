"""`mafiatour run` as a real process: no token, a bad setting, and a graceful SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

from bot.fake_telegram import WAIT_LIMIT, FakeTelegram
from tests.operations import free_port

CLEAN_ENV = {
    key: value
    for key, value in os.environ.items()
    if key
    not in {"BOT_TOKEN", "DATABASE_URL", "TELEGRAM_API_BASE", "WEBHOOK_URL", "WEBHOOK_SECRET"}
}


async def _mafiatour(*args: str, env: dict[str, str], cwd: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def test_without_a_token_it_says_how_to_get_one(tmp_path) -> None:  # type: ignore[no-untyped-def]
    process = await _mafiatour("run", env=CLEAN_ENV, cwd=str(tmp_path))
    out, err = await asyncio.wait_for(process.communicate(), WAIT_LIMIT)
    text = (out + err).decode()
    assert process.returncode == 1
    assert "@BotFather" in text and "mafiatour simulate" in text
    assert "Traceback" not in text


async def test_a_bad_setting_is_one_clear_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {**CLEAN_ENV, "BOT_TOKEN": "123:abc", "TIMEZONE": "Nowhere/Land"}
    process = await _mafiatour("run", env=env, cwd=str(tmp_path))
    _, err = await asyncio.wait_for(process.communicate(), WAIT_LIMIT)
    assert process.returncode == 2
    assert err.decode().strip().splitlines() == [
        "mafiatour: Setting TIMEZONE is invalid: expected an IANA time zone such as Europe/Moscow"
    ]


async def test_it_answers_over_http_and_stops_gracefully_on_sigterm(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    env = {
        **CLEAN_ENV,
        "BOT_TOKEN": fake_telegram.token,
        "TELEGRAM_API_BASE": fake_telegram.base_url,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        "LOG_LEVEL": "INFO",
        "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(free_port()),  # not the default 8080 another run may hold
    }
    process = await _mafiatour("run", env=env, cwd=str(tmp_path))
    try:
        anna = fake_telegram.user(301, "Анна")
        anna.send("/start")
        reply = await anna.wait_for()
        assert "Привет, Анна" in reply.text
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), WAIT_LIMIT)
    assert process.returncode == 0, err.decode()
    assert fake_telegram.token not in (out + err).decode()
