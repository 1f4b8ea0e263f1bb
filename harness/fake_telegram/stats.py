"""What the bot asked of the fake server, for tests and the delivery benchmark."""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class RequestRecord:
    """One Bot API call: `at` is the fake's clock, `status` the HTTP status it answered."""

    method: str
    chat_id: int | str | None
    at: float
    status: int
    message_id: int | None = None
    text: str | None = None
    description: str | None = None  # an error's, as Telegram words it
    via: str | None = None  # the caller's prefix, when it called under one (`FakeTelegram`)
    query_id: str | None = None  # the button press it answers (answerCallbackQuery)


@dataclass
class FakeStats:
    calls: Counter[str] = field(default_factory=Counter)
    too_many_requests: int = 0  # 429 answers, injected or from enforced limits
    forbidden: int = 0  # 403 answers
    requests: list[RequestRecord] = field(default_factory=list)
    # Seconds from getUpdates handing an update out to the bot's first successful call about
    # it: answerCallbackQuery for a button press, any call acting on the chat for a message.
    handling_latencies: list[float] = field(default_factory=list)
    handled_at: list[float] = field(default_factory=list)  # when each of those was answered
    handled_updates: list[dict[str, Any]] = field(default_factory=list)  # and which update
    _chats_waiting: dict[int, deque[tuple[float, dict[str, Any]]]] = field(default_factory=dict)
    _queries_waiting: dict[str, tuple[float, dict[str, Any]]] = field(default_factory=dict)

    def fetched(self, updates: list[dict[str, Any]], at: float) -> None:
        """The bot fetched `updates` at `at`: their handling starts now."""
        for update in updates:
            if "callback_query" in update:
                self._queries_waiting[update["callback_query"]["id"]] = (at, update)
            elif "message" in update:
                chat_id = update["message"]["chat"]["id"]
                self._chats_waiting.setdefault(chat_id, deque()).append((at, update))

    def answered_query(self, query_id: str, at: float) -> None:
        """The bot answered a button press."""
        waiting = self._queries_waiting.pop(query_id, None)
        if waiting is not None:
            self._handled(waiting, at)

    def acted_in_chat(self, chat_id: int, at: float) -> None:
        """The bot sent, edited or deleted something in a chat: the oldest message it had not
        answered there is answered (a chat's updates are handled one after another)."""
        waiting = self._chats_waiting.get(chat_id)
        if waiting:
            self._handled(waiting.popleft(), at)

    def _handled(self, waiting: tuple[float, dict[str, Any]], at: float) -> None:
        fetched, update = waiting
        self.handling_latencies.append(at - fetched)
        self.handled_at.append(at)
        self.handled_updates.append(update)

    def record(self, record: RequestRecord) -> None:
        self.calls[record.method] += 1
        self.requests.append(record)
        if record.status == 429:
            self.too_many_requests += 1
        elif record.status == 403:
            self.forbidden += 1
