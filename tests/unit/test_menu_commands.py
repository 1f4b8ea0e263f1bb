"""Which updates read the person's standing and his menu's digest with their state: the
commands whose handlers look at his menu (/help, a bare /start), and no other."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from aiogram.types import CallbackQuery, Chat, Message, Update
from aiogram.types import User as TelegramUser

from handlers.start import shows_menu

PERSON = TelegramUser(id=7, is_bot=False, first_name="Анна")


def _message(text: str | None, chat_type: str = "private") -> Update:
    chat = Chat(id=7 if chat_type == "private" else -100, type=chat_type)
    message = Message(message_id=1, date=datetime.now(UTC), chat=chat, from_user=PERSON, text=text)
    return Update(update_id=1, message=message)


@pytest.mark.parametrize("text", ["/help", "/help@mafiatour_bot", "/start", "/start  "])
def test_help_and_a_bare_start_read_the_person_with_the_state(text: str) -> None:
    assert shows_menu(_message(text))


@pytest.mark.parametrize("text", ["/start r12ab", "/protocol", "/helpme", "help", None])
def test_other_messages_do_not(text: str | None) -> None:
    assert not shows_menu(_message(text))


def test_neither_a_group_s_help_nor_a_press_does() -> None:
    assert not shows_menu(_message("/help", chat_type="supergroup"))
    press = CallbackQuery(id="1", from_user=PERSON, chat_instance="c", data="x")
    assert not shows_menu(Update(update_id=2, callback_query=press))
