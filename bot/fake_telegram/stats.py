"""What the bot asked of the fake server, for tests and the delivery benchmark."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RequestRecord:
    """One Bot API call: `at` is the fake's clock, `status` the HTTP status it answered."""

    method: str
    chat_id: int | str | None
    at: float
    status: int
    message_id: int | None = None
    text: str | None = None


@dataclass
class FakeStats:
    calls: Counter[str] = field(default_factory=Counter)
    too_many_requests: int = 0  # 429 answers, injected or from enforced limits
    forbidden: int = 0  # 403 answers
    requests: list[RequestRecord] = field(default_factory=list)

    def record(self, record: RequestRecord) -> None:
        self.calls[record.method] += 1
        self.requests.append(record)
        if record.status == 429:
            self.too_many_requests += 1
        elif record.status == 403:
            self.forbidden += 1
