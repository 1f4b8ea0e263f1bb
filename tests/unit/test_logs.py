"""LOG_FORMAT=json: one JSON object per line, secrets masked like in text logs."""

from __future__ import annotations

import json
import logging
import sys

from bot.app.logs import JsonFormatter

TOKEN = "123456789:AAE-secret_token"


def _record(message: str, *args: object, exc_info: object = None) -> logging.LogRecord:
    return logging.LogRecord("bot.delivery", logging.WARNING, __file__, 1, message, args, exc_info)  # type: ignore[arg-type]


def test_each_record_is_one_json_line_with_the_token_masked() -> None:
    line = JsonFormatter([TOKEN]).format(
        _record("calling https://api.telegram.org/bot%s/getMe for «%s»", TOKEN, "Анна")
    )
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING"
    assert entry["logger"] == "bot.delivery"
    assert entry["message"] == "calling https://api.telegram.org/bot***/getMe for «Анна»"
    assert entry["time"].endswith("+00:00")
    assert TOKEN not in line


def test_a_traceback_stays_inside_its_one_line() -> None:
    try:
        raise RuntimeError(f"failed with {TOKEN}")
    except RuntimeError:
        line = JsonFormatter([TOKEN]).format(_record("boom", exc_info=sys.exc_info()))
    assert "\n" not in line
    entry = json.loads(line)
    assert "RuntimeError: failed with ***" in entry["traceback"]
    assert TOKEN not in line
