"""A screen edited to what the chat shows already is left as it is, even when the press's copy
of the screen is older than the chat's."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageText
from aiogram.types import Chat, Message

from handlers.common import edit_screen

EDIT = EditMessageText(text="new")


def _stale_screen() -> Message:
    return Message(
        message_id=1,
        date=datetime(2026, 1, 1, tzinfo=UTC),
        chat=Chat(id=1, type="private"),
        text="old",
    )


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
    async def edit_text(self: Message, text: str, **kwargs: Any) -> None:
        raise TelegramBadRequest(EDIT, refusal)

    monkeypatch.setattr(Message, "edit_text", edit_text)
    if raised:
        with pytest.raises(TelegramBadRequest):
            await edit_screen(_stale_screen(), "new")
    else:
        await edit_screen(_stale_screen(), "new")
