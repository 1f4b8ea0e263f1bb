"""Settings from the environment and `.env`; every one is documented in `.env.example`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.i18n import LOCALES

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///./data/mafiatour.sqlite3"
# Telegram accepts only this alphabet in the secret-token header.
WEBHOOK_SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,256}")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
REDIS_SCHEMES = ("redis", "rediss", "unix")


def _ascii_digits(text: str) -> bool:
    """Written in ASCII digits only ("²" or "٣" are digits to `str.isdigit` and `int`)."""
    return text.isascii() and text.isdigit()


class SettingsError(Exception):
    """A setting has a bad value; the message is one line naming it."""


class Settings(BaseSettings):
    """The bot's configuration. Unknown variables in `.env` are ignored."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    bot_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    telegram_api_base: str | None = None
    admin_ids: Annotated[frozenset[int], NoDecode] = Field(default_factory=frozenset)
    default_locale: str = "ru"
    timezone: str = "Europe/Moscow"
    redis_url: str | None = None
    webhook_url: str | None = None
    webhook_secret: SecretStr | None = None
    # The web application (health, metrics, the webhook); WEBHOOK_HOST/PORT are older names.
    web_host: str = Field(
        default="0.0.0.0", validation_alias=AliasChoices("web_host", "webhook_host")
    )
    web_port: int = Field(
        default=8080, ge=1, le=65535, validation_alias=AliasChoices("web_port", "webhook_port")
    )
    # The public address of the web application, for the links to the tournaments' pages
    # (tournament card, the channel's live table, the hall screen's QR code). Unset: no links.
    web_base_url: str | None = None
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"
    # Only for simulations on several processes: the bot's time runs CLOCK_RATE times as fast
    # as real time from the Unix moment CLOCK_ORIGIN, the same in every process.
    clock_rate: float = Field(default=1.0, gt=0)
    clock_origin: float | None = None
    # Telegram's flood limits as the outbox worker keeps them (bot/delivery/limits.py).
    delivery_messages_per_second: int = Field(default=30, ge=1)
    delivery_private_chat_per_second: int = Field(default=1, ge=1)
    delivery_group_per_minute: int = Field(default=20, ge=1)
    # How long a process's leases last unrenewed (the reminder scheduler's, its outbox claims',
    # polling's), renewed every third of it: another replica takes over a killed one's duties
    # within this time. The replica drills in tests/e2e run on a short one.
    lease_seconds: float = Field(default=30.0, ge=3)
    # How long start-up keeps retrying an unreachable Telegram, database or Redis.
    startup_timeout: float = Field(default=60.0, ge=0)
    # Where the nightly backups go (deploy/mafiatour-backup.service): /metrics gives the newest
    # one's time, and the admins are told when it is older than a day and a bit.
    backup_dir: Path = Path("data/backups")

    @field_validator(
        "bot_token",
        "webhook_secret",
        "telegram_api_base",
        "redis_url",
        "clock_origin",
        "web_base_url",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("webhook_url", mode="before")
    @classmethod
    def _blank_webhook_is_polling(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None:
            head, _, tail = value.get_secret_value().partition(":")
            if not _ascii_digits(head) or not tail:
                raise ValueError("expected the form 123456789:ABC... given by @BotFather")
        return value

    @field_validator("webhook_secret")
    @classmethod
    def _secret_token_alphabet(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not WEBHOOK_SECRET_PATTERN.fullmatch(value.get_secret_value()):
            raise ValueError("expected 1-256 characters among A-Z a-z 0-9 _ -")
        return value

    @field_validator("admin_ids", mode="before")
    @classmethod
    def _comma_separated_ids(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part.strip() for part in value.replace(";", ",").split(",")]
            if not all(_ascii_digits(part) for part in parts if part):
                raise ValueError("expected Telegram user ids separated by commas")
            return frozenset(int(part) for part in parts if part)
        return value

    @field_validator("default_locale")
    @classmethod
    def _known_locale(cls, value: str) -> str:
        if value not in LOCALES:
            raise ValueError(f"expected one of {', '.join(LOCALES)}")
        return value

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError("expected an IANA time zone such as Europe/Moscow") from None
        return value

    @field_validator("database_url")
    @classmethod
    def _supported_database(cls, value: str) -> str:
        if not value.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
            raise ValueError("expected sqlite+aiosqlite:///PATH or postgresql+asyncpg://...")
        return value

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, value: str | None) -> str | None:
        if value is None:
            return value
        expected = "expected redis://HOST:PORT/DB (or rediss://, unix://PATH)"
        try:
            parts = urlsplit(value)
            parts.port  # noqa: B018 - reading it checks the port is a number
        except ValueError:
            raise ValueError(expected) from None
        if parts.scheme not in REDIS_SCHEMES or not (parts.hostname or parts.path):
            raise ValueError(expected)
        return value

    @field_validator("telegram_api_base", "webhook_url", "web_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("expected an http:// or https:// URL")
        return value.rstrip("/") if value else value

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_format(cls, value: object) -> object:
        return value.lower() if isinstance(value, str) else value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.upper()
            if value not in LOG_LEVELS:
                raise ValueError(f"expected one of {', '.join(LOG_LEVELS)}")
        return value

    @model_validator(mode="after")
    def _webhook_needs_secret(self) -> Settings:
        if self.webhook_url and self.webhook_secret is None:
            raise ValueError("WEBHOOK_SECRET is required when WEBHOOK_URL is set")
        return self

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file, for creating its folder; None for PostgreSQL or in-memory."""
        prefix = "sqlite+aiosqlite:///"
        path = self.database_url.removeprefix(prefix)
        if not self.database_url.startswith(prefix) or path in ("", ":memory:"):
            return None
        return Path(path)


def load_settings(**overrides: object) -> Settings:
    """Read the settings, turning a validation failure into one line naming the setting."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        first = error.errors()[0]
        reason = first["msg"].removeprefix("Value error, ")
        if not first["loc"]:
            raise SettingsError(f"Settings are inconsistent: {reason}") from None
        name = str(first["loc"][0]).upper()
        raise SettingsError(f"Setting {name} is invalid: {reason}") from None
