"""A screen edited to what the chat shows already is left as it is, even when the press's copy
of the screen is older than the chat's."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageText, TelegramMethod
from aiogram.types import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message

from handlers.common import edit_screen

EDIT = EditMessageText(text="new")


def _stale_screen(chat_id: int = 1) -> Message:
    return Message(
        message_id=1,
        date=datetime(2026, 1, 1, tzinfo=UTC),
        chat=Chat(id=chat_id, type="private"),
        text="old",
    ).as_(Bot("42:TEST"))


@pytest.mark.parametrize(
    ("refusal", "raised"),
    [
        ("Bad Request: message is not modified: specified new message content", False),
        ("Bad Request: message to edit not found", True),
    ],
)
async def test_an_edit_the_chat_shows_already_is_not_an_error(
    monkeypatch: pytest.MonkeyPatch, refusal: str, raised: bool
) -> None:
    # An update handled again after its first process was killed: that process edited the
    # screen already, but the press still carries the screen as it was before.
    async def call(self: Bot, method: TelegramMethod[Any], request_timeout: Any = None) -> Any:
        raise TelegramBadRequest(EDIT, refusal)

    monkeypatch.setattr(Bot, "__call__", call)
    if raised:
        with pytest.raises(TelegramBadRequest):
            await edit_screen(_stale_screen(), "new")
    else:
        await edit_screen(_stale_screen(), "new")


async def test_a_screen_edited_by_this_process_is_not_edited_again_to_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A double tap: the second press carries the screen as it was before the first's edit.
    sent: list[TelegramMethod[Any]] = []

    async def call(self: Bot, method: TelegramMethod[Any], request_timeout: Any = None) -> Any:
        sent.append(method)
        return {"message_id": 1, "edit_date": 1767225660, "text": "new"}  # Telegram's JSON

    monkeypatch.setattr(Bot, "__call__", call)
    await edit_screen(_stale_screen(chat_id=2), "new")
    await edit_screen(_stale_screen(chat_id=2), "new")
    await edit_screen(_stale_screen(chat_id=2), "newer")
    assert [getattr(method, "text", None) for method in sent] == ["new", "newer"]


def _keyboard(data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Роли", callback_data=data)]]
    )


async def test_the_same_text_with_another_keyboard_is_edited_and_with_an_equal_one_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A mode switch may keep the text and change the buttons; a double tap keeps both.
    sent: list[TelegramMethod[Any]] = []

    async def call(self: Bot, method: TelegramMethod[Any], request_timeout: Any = None) -> Any:
        sent.append(method)
        return {"message_id": 1, "edit_date": 1767225660 + len(sent), "text": "new"}

    monkeypatch.setattr(Bot, "__call__", call)
    for data in ("pp:1:m:0:0", "pp:1:m:0:0", "pp:1:m:0:1", "pp:1:m:0:1"):
        await edit_screen(_stale_screen(chat_id=3), "new", _keyboard(data))
    await edit_screen(_stale_screen(chat_id=3), "new")
    assert [method.reply_markup for method in sent] == [  # type: ignore[attr-defined]
        _keyboard("pp:1:m:0:0"),
        _keyboard("pp:1:m:0:1"),
        None,
    ]
