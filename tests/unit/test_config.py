"""Settings: sane defaults, and one clear line naming a setting with a bad value."""

from __future__ import annotations

import logging

import pytest

from bot.app.logs import RedactingFormatter
from bot.config import DEFAULT_DATABASE_URL, SettingsError, load_settings

TOKEN = "123456789:AAE-secret-token"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)  # no .env of the developer's leaks in
    for name in (
        "BOT_TOKEN",
        "DATABASE_URL",
        "TELEGRAM_API_BASE",
        "ADMIN_IDS",
        "DEFAULT_LOCALE",
        "TIMEZONE",
        "REDIS_URL",
        "WEBHOOK_URL",
        "WEBHOOK_SECRET",
        "LOG_LEVEL",
    ):
        monkeypatch.delenv(name, raising=False)


def test_defaults_run_on_an_sqlite_file_under_data() -> None:
    settings = load_settings()
    assert settings.database_url == DEFAULT_DATABASE_URL
    assert settings.bot_token is None and settings.webhook_url is None
    assert settings.default_locale == "ru"


def test_values_come_from_the_environment_and_dotenv(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / ".env").write_text(f"BOT_TOKEN={TOKEN}\nADMIN_IDS=11, 22\n")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = load_settings()
    assert settings.bot_token is not None and settings.bot_token.get_secret_value() == TOKEN
    assert settings.admin_ids == frozenset({11, 22})
    assert settings.log_level == "DEBUG"
    assert TOKEN not in repr(settings)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("BOT_TOKEN", "not-a-token"),
        ("ADMIN_IDS", "12,abc"),
        ("ADMIN_IDS", "12,٣"),
        ("BOT_TOKEN", "١٢٣:ABC"),
        ("DEFAULT_LOCALE", "de"),
        ("TIMEZONE", "Mars/Olympus"),
        ("DATABASE_URL", "mysql://localhost/db"),
        ("TELEGRAM_API_BASE", "localhost:8081"),
        ("LOG_LEVEL", "LOUD"),
        ("WEBHOOK_SECRET", "has spaces"),
    ],
)
def test_a_bad_value_is_one_line_naming_the_setting(monkeypatch, name: str, value: str) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError) as caught:
        load_settings()
    message = str(caught.value)
    assert name in message and "\n" not in message


def test_a_webhook_needs_its_secret(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("WEBHOOK_URL", "https://bot.example.org/webhook")
    with pytest.raises(SettingsError, match="WEBHOOK_SECRET"):
        load_settings()


def test_the_token_never_reaches_a_log_line() -> None:
    formatter = RedactingFormatter([TOKEN])
    try:
        raise RuntimeError(f"POST https://api.telegram.org/bot{TOKEN}/getMe failed")
    except RuntimeError:
        import sys

        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "calling bot%s", (TOKEN,), sys.exc_info()
        )
    text = formatter.format(record)
    assert TOKEN not in text and "***" in text
