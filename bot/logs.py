"""Logging set-up: one format, and the bot token never written to a log."""

from __future__ import annotations

import logging

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """Masks every secret in the formatted record, tracebacks included."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__(LOG_FORMAT)
        self._secrets = [secret for secret in secrets if secret]

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


def setup_logging(level: str, *secrets: str) -> None:
    """Log to stderr at `level`, with secrets masked in every record."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter(list(secrets)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
