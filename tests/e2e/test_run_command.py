"""`mafiatour run` as a real process: no token, a bad setting, and a graceful SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import pytest

from harness.fake_telegram import WAIT_LIMIT, FakeTelegram
from tests.operations import free_port

CLEAN_ENV = {
    key: value
    for key, value in os.environ.items()
    if key
    not in {
        "BOT_TOKEN",
        "DATABASE_URL",
        "TELEGRAM_API_BASE",
        "WEBHOOK_URL",
        "WEBHOOK_SECRET",
        "REDIS_URL",
        "STARTUP_TIMEOUT",
    }
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
    assert "ADMIN_IDS" in text and "administrator of it" in text
    assert "Traceback" not in text


async def test_a_bad_setting_is_one_clear_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    env = {**CLEAN_ENV, "BOT_TOKEN": "123:abc", "TIMEZONE": "Nowhere/Land"}
    process = await _mafiatour("run", env=env, cwd=str(tmp_path))
    _, err = await asyncio.wait_for(process.communicate(), WAIT_LIMIT)
    assert process.returncode == 2
    assert err.decode().strip().splitlines() == [
        "mafiatour: Setting TIMEZONE is invalid: expected an IANA time zone such as Europe/Moscow"
    ]


def _bot_env(fake: FakeTelegram, folder, log_level: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {
        **CLEAN_ENV,
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.base_url,
        "DATABASE_URL": f"sqlite+aiosqlite:///{folder / 'bot.sqlite3'}",
        "LOG_LEVEL": log_level,
        "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(free_port()),  # not the default 8080 another run may hold
    }


async def test_it_answers_over_http_and_stops_gracefully_on_sigterm(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    env = _bot_env(fake_telegram, tmp_path, "INFO")
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


async def _start_fails(env: dict[str, str], cwd: str) -> tuple[int | None, list[str]]:
    process = await _mafiatour("run", env={**CLEAN_ENV, "STARTUP_TIMEOUT": "2", **env}, cwd=cwd)
    _, err = await asyncio.wait_for(process.communicate(), WAIT_LIMIT)
    text = err.decode()
    assert "Traceback" not in text
    return process.returncode, text.strip().splitlines()


async def test_a_wrong_or_revoked_token_is_one_line_saying_what_to_do(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    # Telegram answers a revoked token exactly as a wrong one: 401 Unauthorized.
    env = {
        "BOT_TOKEN": "123456:REVOKED-TOKEN",
        "TELEGRAM_API_BASE": fake_telegram.base_url,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
    }
    # The default start-up timeout: a refused token is asked once, not retried until the
    # timeout, and exit status 2 (a bad setting) keeps the unit from restarting it.
    env["STARTUP_TIMEOUT"] = "60"
    asked = fake_telegram.stats.calls["getMe"]
    status, lines = await _start_fails(env, str(tmp_path))
    assert fake_telegram.stats.calls["getMe"] - asked == 1
    assert status == 2
    assert lines == [
        "mafiatour: Telegram refused BOT_TOKEN (401 Unauthorized): the token is wrong or was "
        "revoked; take the current one from @BotFather (/mybots, API Token) and put it into "
        "BOT_TOKEN"
    ]
    assert "REVOKED-TOKEN" not in "\n".join(lines)


async def test_a_token_revoked_while_polling_stops_the_bot_as_a_bad_setting(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    env = _bot_env(fake_telegram, tmp_path, "WARNING")
    process = await _mafiatour("run", env=env, cwd=str(tmp_path))
    try:
        anna = fake_telegram.user(304, "Анна")
        anna.send("/start")
        await anna.wait_for(timeout=WAIT_LIMIT)
        # /start's last call (Anna's own menu) made, so no handler meets the revoked token.
        async with asyncio.timeout(WAIT_LIMIT):
            while not fake_telegram.commands(scope={"type": "chat", "chat_id": 304}):
                await asyncio.sleep(0.05)
        fake_telegram.revoke_token("123456:ANOTHER-TOKEN")
        _, err = await asyncio.wait_for(process.communicate(), WAIT_LIMIT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 2
    assert (
        err.decode()
        .strip()
        .splitlines()[-1]
        .startswith("mafiatour: Telegram refused BOT_TOKEN (401 Unauthorized)")
    )
    assert "Traceback" not in err.decode()


@pytest.mark.parametrize(
    ("setting", "value", "cause"),
    [
        ("TELEGRAM_API_BASE", "http://127.0.0.1:1", "mafiatour: cannot reach Telegram ("),
        ("DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:1/test", "cannot reach the da"),
        ("REDIS_URL", "redis://127.0.0.1:1/0", "mafiatour: cannot reach Redis ("),
    ],
)
async def test_an_unreachable_service_is_retried_then_one_line(
    tmp_path, setting: str, value: str, cause: str
) -> None:  # type: ignore[no-untyped-def]
    env = {
        "BOT_TOKEN": "123456:TEST-TOKEN",
        "TELEGRAM_API_BASE": "http://127.0.0.1:1",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        setting: value,
    }
    status, lines = await _start_fails(env, str(tmp_path))
    assert status == 1
    assert cause in lines[-1] and "check" in lines[-1]
    assert any("retrying in" in line for line in lines[:-1]), "no retry with backoff"


async def test_a_malformed_redis_url_is_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    status, lines = await _start_fails(
        {"BOT_TOKEN": "123456:TEST-TOKEN", "REDIS_URL": "localhost:6379"}, str(tmp_path)
    )
    assert status == 2
    assert lines == [
        "mafiatour: Setting REDIS_URL is invalid: expected redis://HOST:PORT/DB "
        "(or rediss://, unix://PATH)"
    ]


async def test_a_second_polling_process_refuses_to_start_with_one_line(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    env = _bot_env(fake_telegram, tmp_path, "WARNING")
    first = await _mafiatour("run", env=env, cwd=str(tmp_path))
    try:
        anna = fake_telegram.user(302, "Анна")
        anna.send("/start")
        await anna.wait_for(timeout=WAIT_LIMIT)
        second = await _mafiatour(
            "run", env={**env, "WEB_PORT": str(free_port())}, cwd=str(tmp_path)
        )
        _, err = await asyncio.wait_for(second.communicate(), WAIT_LIMIT)
        assert second.returncode == 1
        (line,) = err.decode().strip().splitlines()
        assert line.startswith("mafiatour: another bot process (") and "WEBHOOK_URL" in line
        anna.send("/help")  # the first one still answers, undisturbed
        await anna.wait_for(
            lambda message: "Что я умею" in (message.text or ""), timeout=WAIT_LIMIT
        )
    finally:
        first.send_signal(signal.SIGTERM)
        _, first_err = await asyncio.wait_for(first.communicate(), WAIT_LIMIT)
    assert first.returncode == 0, first_err.decode()
    assert "Conflict" not in first_err.decode()


async def test_a_second_polling_process_on_another_database_stops_with_one_line(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    """Another machine, say: nothing shared but the token. Telegram (the fake) ends the older
    getUpdates with 409 Conflict when the newer one comes; the newcomer stops, the first goes
    on answering."""
    env = _bot_env(fake_telegram, tmp_path, "WARNING")
    first = await _mafiatour("run", env=env, cwd=str(tmp_path))
    try:
        anna = fake_telegram.user(303, "Анна")
        anna.send("/start")
        await anna.wait_for(timeout=WAIT_LIMIT)
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        second_env = {
            **env,
            "WEB_PORT": str(free_port()),
            "DATABASE_URL": f"sqlite+aiosqlite:///{elsewhere / 'bot.sqlite3'}",
        }
        second = await _mafiatour("run", env=second_env, cwd=str(elsewhere))
        try:
            _, err = await asyncio.wait_for(second.communicate(), WAIT_LIMIT)
        finally:
            if second.returncode is None:
                second.kill()
                await second.wait()
        assert second.returncode == 1
        (line,) = err.decode().strip().splitlines()
        assert line.startswith("mafiatour: another bot instance is polling Telegram")
        assert "terminated by other getUpdates request" in line and "WEBHOOK_URL" in line
        anna.send("/help")  # the first one still answers
        await anna.wait_for(
            lambda message: "Что я умею" in (message.text or ""), timeout=WAIT_LIMIT
        )
    finally:
        first.send_signal(signal.SIGTERM)
        _, first_err = await asyncio.wait_for(first.communicate(), WAIT_LIMIT)
    assert first.returncode == 0, first_err.decode()
    assert "Traceback" not in first_err.decode()


async def test_a_restart_after_kill_9_takes_the_dead_process_s_lease_over_at_once(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    env = _bot_env(fake_telegram, tmp_path, "WARNING")
    crashed = await _mafiatour("run", env=env, cwd=str(tmp_path))
    anna = fake_telegram.user(305, "Анна")
    anna.send("/start")
    await anna.wait_for(timeout=WAIT_LIMIT)
    crashed.kill()  # SIGKILL: its polling lease stays in the database, 30 s from running out
    await crashed.wait()
    restarted = await _mafiatour(
        "run", env={**env, "WEB_PORT": str(free_port())}, cwd=str(tmp_path)
    )
    try:
        anna.send("/help")
        await anna.wait_for(
            lambda message: "Что я умею" in (message.text or ""), timeout=WAIT_LIMIT
        )
        assert restarted.returncode is None, "the restart refused to poll"
    finally:
        restarted.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(restarted.communicate(), WAIT_LIMIT)
    assert restarted.returncode == 0, err.decode()
    assert "another bot process" not in err.decode()
