"""The direct-reply session middleware: which faults it waits out, and where it stays out."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramEntityTooLarge,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramServerError,
)
from aiogram.methods import AnswerCallbackQuery, EditMessageText, SendMessage

from bot.telegram.replies import ATTEMPTS, ReliableReplies, UpdateReplies, replying_to

SEND = SendMessage(chat_id=1, text="hi")


class Telegram:
    """Answers each call with the next scripted fault, then with success."""

    def __init__(self, *faults: Exception) -> None:
        self.faults = list(faults)
        self.calls = 0
        self.methods: list[Any] = []

    async def __call__(self, bot: Any, method: Any) -> Any:
        self.calls += 1
        self.methods.append(method)
        if self.faults:
            raise self.faults.pop(0)
        return "sent"


def _middleware(slept: list[float]) -> ReliableReplies:
    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    return ReliableReplies(sleep=sleep)


async def test_a_reply_waits_out_429s_for_their_retry_after_and_retries_faults() -> None:
    slept: list[float] = []
    telegram = Telegram(
        TelegramRetryAfter(SEND, "Too Many Requests: retry after 3", 3),
        TelegramServerError(SEND, "Bad Gateway"),
        TelegramNetworkError(SEND, "ClientConnectorError"),
    )
    with replying_to(UpdateReplies()):
        assert await _middleware(slept)(telegram, None, SEND) == "sent"  # type: ignore[arg-type]
    assert telegram.calls == 4
    assert slept[0] == 3 and len(slept) == 3


async def test_a_lasting_fault_reaches_the_handler_after_the_attempts() -> None:
    telegram = Telegram(*[TelegramServerError(SEND, "Bad Gateway")] * (ATTEMPTS + 5))
    with replying_to(UpdateReplies()), pytest.raises(TelegramServerError):
        await _middleware([])(telegram, None, SEND)  # type: ignore[arg-type]
    assert telegram.calls == ATTEMPTS


@pytest.mark.parametrize(
    "fault",
    [TelegramBadRequest(SEND, "Bad Request: chat not found"), TelegramEntityTooLarge(SEND, "x")],
)
async def test_a_refusal_is_not_retried(fault: Exception) -> None:
    telegram = Telegram(fault)
    with replying_to(UpdateReplies()), pytest.raises(type(fault)):
        await _middleware([])(telegram, None, SEND)  # type: ignore[arg-type]
    assert telegram.calls == 1


async def test_outside_an_update_requests_pass_through_untouched() -> None:
    # The outbox worker and long polling keep their own rules for 429s and faults.
    telegram = Telegram(TelegramRetryAfter(SEND, "Too Many Requests: retry after 3", 3))
    with pytest.raises(TelegramRetryAfter):
        await _middleware([])(telegram, None, SEND)  # type: ignore[arg-type]


async def test_a_press_is_answered_once() -> None:
    telegram = Telegram()
    answer = AnswerCallbackQuery(callback_query_id="7")
    with replying_to(UpdateReplies()) as replies:
        await _middleware([])(telegram, None, answer)  # type: ignore[arg-type]
        await _middleware([])(telegram, None, answer)  # type: ignore[arg-type]
    assert telegram.calls == 1 and replies.answered == {"7"}


async def test_a_press_too_old_to_answer_does_not_fail_the_handler() -> None:
    # An update handled again after its first process was killed: Telegram stopped the
    # spinner long ago, and the handler's work must still finish.
    press = AnswerCallbackQuery(callback_query_id="7")
    telegram = Telegram(
        TelegramBadRequest(press, "Bad Request: query is too old and response timeout expired")
    )
    with replying_to(UpdateReplies()) as replies:
        assert await _middleware([])(telegram, None, press) is True  # type: ignore[arg-type]
    assert telegram.calls == 1 and "7" in replies.answered


class Bot:
    """What the middleware sends anew through the whole session (a press's words)."""

    def __init__(self) -> None:
        self.sent: list[Any] = []

    async def __call__(self, method: Any) -> Any:
        self.sent.append(method)
        return "sent"


@pytest.mark.parametrize(
    "fault",
    [
        TelegramRetryAfter(SEND, "Too Many Requests: retry after 30", 30),
        TelegramServerError(SEND, "Bad Gateway"),
    ],
)
async def test_a_press_is_answered_before_its_reply_waits_and_its_words_follow(
    fault: Exception,
) -> None:
    # The screen's edit must wait (a flood limit, a fault): the spinner stops at once anyway,
    # and the alert the handler gives afterwards comes as a message under the press.
    slept: list[float] = []
    edit = EditMessageText(chat_id=5, message_id=1, text="screen")
    telegram, bot = Telegram(fault), Bot()
    middleware = _middleware(slept)
    with replying_to(UpdateReplies(press_id="7", press_chat=5)) as replies:
        await middleware(telegram, bot, edit)  # type: ignore[arg-type]
        alert = AnswerCallbackQuery(callback_query_id="7", text="Сохранено", show_alert=True)
        assert await middleware(telegram, bot, alert) is True  # type: ignore[arg-type]
    assert telegram.methods == [edit, AnswerCallbackQuery(callback_query_id="7"), edit]
    assert len(slept) == 1 and replies.answered == {"7"}
    assert [(m.chat_id, m.text) for m in bot.sent] == [(5, "Сохранено")]


async def test_a_press_answered_before_its_reply_waited_is_not_answered_again() -> None:
    edit = EditMessageText(chat_id=5, message_id=1, text="screen")
    telegram, bot = Telegram(), Bot()
    middleware = _middleware([])
    with replying_to(UpdateReplies(press_id="7", press_chat=5)):
        await middleware(telegram, bot, AnswerCallbackQuery(callback_query_id="7"))  # type: ignore[arg-type]
        telegram.faults.append(TelegramServerError(edit, "Bad Gateway"))
        await middleware(telegram, bot, edit)  # type: ignore[arg-type]
    assert telegram.methods == [AnswerCallbackQuery(callback_query_id="7"), edit, edit]
    assert bot.sent == []


async def test_a_reply_behind_a_request_in_flight_to_the_same_chat_asks_again_soon() -> None:
    # This process's limiter cannot say when a request in flight is answered (`inf`): the
    # reply asks again shortly instead of sleeping for ever.
    from bot.delivery.limits import DeliveryLimits, LocalLimiter
    from bot.telegram.replies import LIMIT_POLL_SECONDS

    limiter = LocalLimiter(DeliveryLimits(30, 1, 20))
    in_flight = await limiter.try_start(1)
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        if len(slept) == 3:
            await limiter.give_back(in_flight)  # type: ignore[arg-type]

    middleware = ReliableReplies(sleep=sleep, limiter=limiter)
    with replying_to(UpdateReplies()):
        assert await middleware(Telegram(), None, SEND) == "sent"  # type: ignore[arg-type]
    assert slept == [LIMIT_POLL_SECONDS] * 3
