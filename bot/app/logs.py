"""Logging set-up: one format (text, or one JSON object per line), and the bot token never
written to a log."""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """Masks every secret in the formatted record, tracebacks included."""

    def __init__(self, secrets: list[str]) -> None:
        super().__init__(LOG_FORMAT)
        self._secrets = [secret for secret in secrets if secret]

    def format(self, record: logging.LogRecord) -> str:
        return self._redacted(super().format(record))

    def _redacted(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


class JsonFormatter(RedactingFormatter):
    """One JSON object per line, for the journal or a log collector: time (UTC, ISO 8601),
    level, logger, message, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["traceback"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["traceback"] = record.exc_text
        # Secrets are masked in the values, before JSON escaping could split them.
        return json.dumps(
            {key: self._redacted(value) for key, value in entry.items()}, ensure_ascii=False
        )


def setup_logging(level: str, *secrets: str, log_format: str = "text") -> None:
    """Log to stderr at `level` as text or JSON lines, with secrets masked in every record."""
    handler = logging.StreamHandler()
    formatter = JsonFormatter if log_format == "json" else RedactingFormatter
    handler.setFormatter(formatter(list(secrets)))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # APScheduler says "Running job ..." at every reminder wake-up (every few seconds): only
    # its warnings and errors are worth a line.
    logging.getLogger("apscheduler").setLevel(max(root.level, logging.WARNING))
