"""The Bot's calls without files go as JSON bodies, with the values aiogram's form would carry;
an upload goes as aiogram's form."""

from __future__ import annotations

import json

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.methods import SendMessage, SendPhoto
from aiogram.types import BufferedInputFile, InlineKeyboardButton, InlineKeyboardMarkup

from bot.telegram.json_bodies import JSON, JsonBodySession

BOT = Bot("42:TEST", default=DefaultBotProperties(parse_mode="HTML"))


def test_a_call_without_files_is_a_json_body_of_the_form_s_values() -> None:
    keyboard = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Игрок «1»", callback_data="pp:1:s:1")]]
    )
    method = SendMessage(chat_id=5, text="a & b", reply_markup=keyboard)
    payload = JsonBodySession().build_form_data(BOT, method)()
    assert payload.content_type == JSON
    body = json.loads(payload._value)
    assert body == {
        "chat_id": "5",
        "text": "a & b",
        "parse_mode": "HTML",
        "reply_markup": json.dumps(
            {"inline_keyboard": [[{"text": "Игрок «1»", "callback_data": "pp:1:s:1"}]]}
        ),
    }


def test_an_upload_is_posted_as_a_form() -> None:
    method = SendPhoto(chat_id=5, photo=BufferedInputFile(b"png", "standings.png"))
    payload = JsonBodySession().build_form_data(BOT, method)()
    assert payload.content_type.startswith("multipart/form-data")
