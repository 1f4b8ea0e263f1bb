"""What a run cost and how the bot coped: the figures of the report and the benchmark."""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from harness.fake_telegram import FakeTelegram

_SENDS = {
    "sendMessage": "messages",
    "sendPhoto": "pictures",
    "sendMediaGroup": "albums",
    "sendDocument": "files",
}
_EDITS = frozenset({"editMessageText", "editMessageCaption", "editMessageReplyMarkup"})


class ErrorLog(logging.Handler):
    """Counts the records logged at ERROR or above while installed: a handler that raised is
    logged by the bot's error handler, a failed delivery by the outbox worker."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []
        self._level = logging.NOTSET

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name}: {record.getMessage()}")

    def __enter__(self) -> ErrorLog:
        root = logging.getLogger()
        self._level = root.level
        # A quieter root logger would drop the errors before they reach this handler.
        root.setLevel(min(root.level, logging.ERROR))
        root.addHandler(self)
        return self

    def __exit__(self, *_: object) -> None:
        root = logging.getLogger()
        root.removeHandler(self)
        root.setLevel(self._level)


@dataclass(frozen=True)
class Figures:
    """Updates handled, messages by kind, handling latency, 429s, errors and wall time."""

    updates: int
    messages: Mapping[str, int]
    button_answers: int
    latency_p50: float
    latency_p95: float
    too_many_requests: int
    errors: tuple[str, ...]
    wall_seconds: float

    def lines(self) -> list[str]:
        """The figures as the report prints them."""
        kinds = ", ".join(f"{kind} {count}" for kind, count in self.messages.items())
        return [
            f"updates handled: {self.updates}",
            f"messages sent: {sum(self.messages.values())} ({kinds})",
            f"button presses answered: {self.button_answers}",
            f"handling latency: p50 {self.latency_p50 * 1000:.0f} ms, "
            f"p95 {self.latency_p95 * 1000:.0f} ms",
            f"429 received: {self.too_many_requests}",
            f"errors: {len(self.errors)}",
            f"wall time: {self.wall_seconds:.1f} s",
        ]


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (`share` from 0 to 1); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def message_kinds(fake: FakeTelegram) -> dict[str, int]:
    """What the bot put into chats: private messages, channel posts, pictures, files and edits
    (successful calls only)."""
    kinds: Counter[str] = Counter()
    for request in fake.stats.requests:
        if request.status != 200:
            continue
        if request.method in _SENDS:
            channel = isinstance(request.chat_id, int) and request.chat_id < 0
            kind = _SENDS[request.method]
            kinds[f"channel {kind}" if channel else f"private {kind}"] += 1
        elif request.method in _EDITS:
            kinds["edits"] += 1
    return dict(sorted(kinds.items()))


def figures_of(fake: FakeTelegram, errors: ErrorLog, wall_seconds: float) -> Figures:
    latencies = fake.stats.handling_latencies
    return Figures(
        updates=fake.world.delivered_update_id,
        messages=message_kinds(fake),
        button_answers=fake.stats.calls["answerCallbackQuery"],
        latency_p50=percentile(latencies, 0.50),
        latency_p95=percentile(latencies, 0.95),
        too_many_requests=fake.stats.too_many_requests,
        errors=tuple(errors.lines),
        wall_seconds=wall_seconds,
    )
