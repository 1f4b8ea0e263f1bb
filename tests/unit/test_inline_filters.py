"""The bot's synchronous filters run on the event loop's thread and still filter."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from aiogram import Dispatcher, F, Router
from aiogram.types import Chat, Message, User

from bot.telegram.inline_filters import run_filters_inline
from handlers.routers import all_routers


def _message(chat_type: str) -> Message:
    return Message(
        message_id=1,
        date=datetime(2026, 12, 2, tzinfo=UTC),
        chat=Chat(id=5, type=chat_type),
        from_user=User(id=5, is_bot=False, first_name="Anna"),
        text="/help",
    )


async def test_a_synchronous_filter_is_called_on_the_loop_and_still_decides() -> None:
    threads: list[int] = []

    def private(message: Message) -> bool:
        threads.append(threading.get_ident())
        return message.chat.type == "private"

    router = Router()
    router.message.filter(F.text.startswith("/"))

    async def handler(message: Message) -> None: ...

    router.message.register(handler, private)
    outer = Router()
    outer.include_router(router)
    assert run_filters_inline(outer) == 2
    [registered] = router.message.handlers
    assert registered.filters is not None
    [check] = registered.filters
    assert await check.call(_message("private")) is True
    assert await check.call(_message("group")) is False
    assert threads == [threading.get_ident()] * 2
    [wide] = router.message._handler.filters or []
    assert not await wide.call(_message("private").model_copy(update={"text": "hello"}))


def test_no_filter_of_the_bot_is_left_to_a_thread() -> None:
    dispatcher = Dispatcher()
    dispatcher.include_routers(*all_routers())
    assert run_filters_inline(dispatcher) > 0
    assert run_filters_inline(dispatcher) == 0  # every one runs on the loop now
