"""The menu's commands from a person in no wizard's step are taken by a router tried before
the feature routers (`handlers.start.make_menu_router`); everything else finds the handler it
found before."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram import Bot, Dispatcher
from aiogram.fsm.storage.base import StorageKey
from aiogram.types import Chat, Message, TelegramObject, Update, User

from bot.telegram.inline_filters import run_filters_inline
from handlers.routers import all_routers

PERSON = 5
BOT_TOKEN = "42:TEST"


def _update(text: str, chat_type: str = "private") -> Update:
    return Update(
        update_id=1,
        message=Message(
            message_id=1,
            date=datetime(2026, 12, 4, tzinfo=UTC),
            chat=Chat(id=PERSON, type=chat_type),
            from_user=User(id=PERSON, is_bot=False, first_name="Anna"),
            text=text,
        ),
    )


async def _taken_by(text: str, state: str | None = None, chat_type: str = "private") -> str:
    """The router and the handler that take `text` (the handler itself is not run)."""
    dispatcher = Dispatcher()
    dispatcher.include_routers(*all_routers())
    run_filters_inline(dispatcher)
    taken: list[str] = []

    async def record(
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> None:
        taken.append(f"{data['event_router'].name}.{data['handler'].callback.__name__}")

    for router in dispatcher.chain_tail:
        router.message.middleware(record)
    bot = Bot(BOT_TOKEN)
    if state is not None:
        key = StorageKey(bot_id=bot.id, chat_id=PERSON, user_id=PERSON)
        await dispatcher.storage.set_state(key, state)
    await dispatcher.feed_update(bot, _update(text, chat_type))
    await bot.session.close()
    return taken[0] if taken else "nobody"


@pytest.mark.parametrize(
    ("text", "taken"),
    [
        ("/help", "menu.show_help"),
        ("/start", "menu.start"),
        ("/lang", "menu.ask_language"),
        ("/start r1abc", "registration.open_link"),
        ("/start zzz", "start.start_with_unknown_link"),
        ("/standings", "standings.show_standings"),
    ],
)
async def test_in_no_wizard_the_menu_s_commands_are_taken_first(text: str, taken: str) -> None:
    assert await _taken_by(text) == taken


async def test_in_a_wizard_s_step_the_step_takes_them_as_before() -> None:
    assert await _taken_by("/help", "RegistrationForm:nickname") == "registration.take_nickname"
    # A step that lets commands through leaves them to the start screens at the end.
    assert await _taken_by("/help", "TimetableForm:text") == "start.show_help"
    assert await _taken_by("/start", "TimetableForm:text") == "start.start"


async def test_outside_a_private_chat_nobody_takes_them() -> None:
    assert await _taken_by("/help", chat_type="group") == "nobody"
