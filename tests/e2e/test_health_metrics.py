"""The web port: /healthz, /readyz and /metrics of the real bot talking to the fake Telegram,
in-process and as `mafiatour run` (polling mode, JSON logs)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update

from bot.app import build_application, run_webhook
from bot.db.models import OutboxRow
from bot.web import serving
from domain.outgoing import OutgoingMessage
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.operations import free_port

# Generous bounds for a loaded 2-core machine; each wait ends as soon as its event happens.
WAIT_S = 60.0


async def _get(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(WAIT_S)) as got,
    ):
        return got.status, await got.text()


async def _figures(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    status, body = await _get(port, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body)
        for sample in family.samples
    }


async def _eventually(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while not await condition():
        assert asyncio.get_running_loop().time() < deadline, f"never: {what}"
        await asyncio.sleep(0.05)


def _settings(fake: FakeTelegram, tmp_path: Path, port: int, **overrides: object):  # type: ignore[no-untyped-def]
    return sandbox_settings(
        fake,
        f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        web_host="127.0.0.1",
        web_port=port,
        **overrides,
    )


async def test_health_readiness_and_figures_that_move_with_updates(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    port = free_port()
    async with running_bot(_settings(fake_telegram, tmp_path, port)) as app, serving(app):
        assert await _get(port, "/healthz") == (200, '{"status": "ok"}')
        status, body = await _get(port, "/readyz")
        assert status == 200, body
        assert json.loads(body) == {
            "status": "ok",
            "database": "ok",
            "telegram": "ok",
            "outbox": "ok",
        }
        before = await _figures(port)
        handled = ("mafiatour_updates_total", (("kind", "message"), ("outcome", "handled")))
        timed = ("mafiatour_update_handling_seconds_count", (("kind", "message"),))

        anna = fake_telegram.user(401, "Анна")
        anna.send("/start")
        assert "Анна" in (await anna.wait_for(timeout=WAIT_S)).text

        async def counted() -> bool:
            figures = await _figures(port)
            return figures.get(handled, 0) >= before.get(handled, 0) + 1

        await _eventually(counted, "the /start update counted")
        after = await _figures(port)
        assert after[timed] >= before.get(timed, 0) + 1
        assert after[("mafiatour_outbox_pending", ())] >= 0
        assert ("mafiatour_scheduler_lag_seconds", ()) in after

        # A pushed message, and a reply Telegram refuses once with 429.
        sent = ("mafiatour_deliveries_total", (("outcome", "sent"),))
        async with app.uow_factory() as uow:
            await uow.outbox.add(OutgoingMessage(chat_id=401, text="напоминание"))
            await uow.commit()
        await anna.wait_for(lambda message: message.text == "напоминание", timeout=WAIT_S)

        async def delivered() -> bool:
            return (await _figures(port)).get(sent, 0) >= before.get(sent, 0) + 1

        await _eventually(delivered, "the pushed message counted as sent")
        too_many = ("mafiatour_telegram_429_total", (("method", "SendMessage"),))
        fake_telegram.inject(401, 429, retry_after=1)
        anna.send("/help")

        async def throttled() -> bool:
            return (await _figures(port)).get(too_many, 0) >= before.get(too_many, 0) + 1

        await _eventually(throttled, "the 429 counted")


async def test_not_ready_names_what_fails_telegram_unreachable_and_a_stuck_outbox(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    port = free_port()
    nowhere = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    app = await build_application(
        _settings(fake_telegram, tmp_path, port, telegram_api_base=nowhere)
    )
    try:
        # The delivery worker is not started here, so the message stays where it is.
        async with app.uow_factory() as uow:
            await uow.outbox.add(OutgoingMessage(chat_id=5, text="stuck"))
            await uow.commit()
        async with app.engine.begin() as connection:
            ten_minutes_ago = datetime.now(UTC) - timedelta(minutes=10)
            await connection.execute(update(OutboxRow).values(created_at=ten_minutes_ago))
        async with serving(app):
            assert (await _get(port, "/healthz"))[0] == 200
            status, body = await _get(port, "/readyz")
            verdict = json.loads(body)
            assert status == 503
            assert verdict["status"] == "not ready"
            assert verdict["database"] == "ok"
            assert verdict["telegram"] != "ok"
            assert verdict["outbox"].startswith("stuck: a message has waited 6")
            figures = await _figures(port)
            assert figures[("mafiatour_outbox_pending", ())] == 1
            assert figures[("mafiatour_outbox_oldest_pending_age_seconds", ())] >= 600
    finally:
        await app.close()


async def test_mafiatour_run_serves_the_web_port_in_polling_mode_and_logs_json(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    port = free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"WEBHOOK_URL", "WEBHOOK_SECRET", "REDIS_URL"}
    }
    env.update(
        BOT_TOKEN=fake_telegram.token,
        TELEGRAM_API_BASE=fake_telegram.base_url,
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        WEB_HOST="127.0.0.1",
        WEB_PORT=str(port),
        LOG_FORMAT="json",
        LOG_LEVEL="INFO",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        env=env,
        cwd=str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        anna = fake_telegram.user(402, "Анна")
        anna.send("/start")
        await anna.wait_for(timeout=WAIT_S)

        async def ready() -> bool:
            try:
                return (await _get(port, "/readyz"))[0] == 200
            except aiohttp.ClientConnectionError:
                return False

        await _eventually(ready, "mafiatour run ready on its web port")
        figures = await _figures(port)
        handled = ("mafiatour_updates_total", (("kind", "message"), ("outcome", "handled")))
        assert figures[handled] >= 1
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = await asyncio.wait_for(process.communicate(), WAIT_S)
    assert process.returncode == 0, err.decode()
    lines = [line for line in err.decode().splitlines() if line.strip()]
    assert lines
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert {"time", "level", "logger", "message"} <= set(entries[0])
    assert any("web server on http://127.0.0.1:" in entry["message"] for entry in entries)
    assert fake_telegram.token not in (out + err).decode()


async def test_in_webhook_mode_one_port_serves_the_webhook_health_and_metrics(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    port = free_port()
    hook = f"http://127.0.0.1:{port}/tg/hook"
    secret = "metrics-test-secret"
    settings = _settings(fake_telegram, tmp_path, port, webhook_url=hook, webhook_secret=secret)
    app = await build_application(settings)
    stop = asyncio.Event()
    server = asyncio.create_task(run_webhook(app, stop))
    try:

        async def registered() -> bool:
            return fake_telegram.api.webhook_url == hook

        await _eventually(registered, "the webhook registered")
        assert (await _get(port, "/healthz"))[0] == 200
        status, body = await _get(port, "/readyz")
        assert status == 200, body
        handled = ("mafiatour_updates_total", (("kind", "message"), ("outcome", "handled")))
        before = (await _figures(port)).get(handled, 0)

        anna = fake_telegram.user(403, "Анна")
        anna.send("/help")
        update = fake_telegram.world.updates.pop(0)  # delivered by us instead of Telegram
        async with (
            aiohttp.ClientSession() as http,
            http.post(hook, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": secret}),
        ):
            pass
        await anna.wait_for(timeout=WAIT_S)

        async def counted() -> bool:
            return (await _figures(port)).get(handled, 0) >= before + 1

        await _eventually(counted, "the webhook's update counted")
    finally:
        stop.set()
        await server
        await app.close()
