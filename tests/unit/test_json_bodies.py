"""The Bot's calls without files go as one JSON body that the Bot API reads as it reads
aiogram's own form (the same values, the bot's defaults resolved, no None, no empty text);
an upload goes as aiogram's form."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

import pytest
from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.enums import ParseMode
from aiogram.methods import (
    AnswerCallbackQuery,
    BanChatMember,
    EditMessageText,
    GetUpdates,
    SendMediaGroup,
    SendMessage,
    SendPhoto,
    SetMyCommands,
    TelegramMethod,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    LinkPreviewOptions,
)

from bot.telegram.json_bodies import JSON, JsonBodySession

BOT = Bot("42:TEST", default=DefaultBotProperties(parse_mode=ParseMode.HTML))
# Every default the bot may be given, one of them an object (the link preview's).
DEFAULTS = Bot(
    "42:TEST",
    default=DefaultBotProperties(
        parse_mode="MarkdownV2",
        protect_content=True,
        link_preview_is_disabled=True,
        show_caption_above_media=True,
    ),
)
KEYBOARD = InlineKeyboardMarkup(
    inline_keyboard=[
        [InlineKeyboardButton(text="Игрок «1»", callback_data="pp:1:s:1")],
        [InlineKeyboardButton(text="Rules", url="https://example.org/rules")],
    ]
)

CALLS: dict[str, tuple[Bot, TelegramMethod[Any]]] = {
    "sendMessage with a keyboard and link preview options": (
        BOT,
        SendMessage(
            chat_id=5,
            text="a & b",
            reply_markup=KEYBOARD,
            link_preview_options=LinkPreviewOptions(url="https://example.org", is_disabled=False),
        ),
    ),
    "editMessageText": (
        BOT,
        EditMessageText(chat_id=-1005, message_id=7, text="<b>Стол 1</b>", reply_markup=KEYBOARD),
    ),
    "answerCallbackQuery": (
        BOT,
        AnswerCallbackQuery(callback_query_id="77", text="Сохранено", show_alert=False),
    ),
    "answerCallbackQuery without a text": (
        BOT,
        AnswerCallbackQuery(callback_query_id="77", text=""),
    ),
    "setMyCommands with a chat scope": (
        BOT,
        SetMyCommands(
            commands=[BotCommand(command="help", description="Помощь")],
            scope=BotCommandScopeChat(chat_id=5),
            language_code="ru",
        ),
    ),
    "sendMessage with every default of the bot": (DEFAULTS, SendMessage(chat_id=5, text="x")),
    "sendMessage with a parse mode of its own": (
        DEFAULTS,
        SendMessage(chat_id="@cup", text="x", parse_mode=ParseMode.HTML, protect_content=False),
    ),
    "an album of photos sent before, defaults inside": (
        BOT,
        SendMediaGroup(chat_id=5, media=[InputMediaPhoto(media="AgAD1", caption="<b>1</b>")]),
    ),
    "the same on a bot with its defaults": (
        DEFAULTS,
        SendMediaGroup(chat_id=5, media=[InputMediaPhoto(media="AgAD1", caption="*1*")]),
    ),
    "banChatMember until a date": (
        BOT,
        BanChatMember(chat_id=-1005, user_id=9, until_date=datetime(2027, 1, 2, 3, 4, tzinfo=UTC)),
    ),
}


def read_as_bot_api(value: Any) -> Any:
    """A value as the Bot API reads it: a text of JSON (what a form carries) is its value, a
    number or a flag is read from its text as from itself."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return value
        if isinstance(value, str):
            return value
    if isinstance(value, dict):
        return {key: read_as_bot_api(item) for key, item in value.items()}
    if isinstance(value, list):
        return [read_as_bot_api(item) for item in value]
    return value


def aiogram_form(bot: Bot, method: TelegramMethod[Any]) -> dict[str, str]:
    payload = AiohttpSession().build_form_data(bot, method)()
    assert payload.content_type == "application/x-www-form-urlencoded"
    return dict(parse_qsl(payload.decode(), keep_blank_values=True))


def json_body(bot: Bot, method: TelegramMethod[Any]) -> dict[str, Any]:
    payload = JsonBodySession().build_form_data(bot, method)()
    assert payload.content_type == JSON
    body = json.loads(payload.decode())
    assert isinstance(body, dict)
    return body


@pytest.mark.parametrize("call", CALLS)
def test_the_bot_api_reads_the_json_body_as_aiogram_s_form(call: str) -> None:
    bot, method = CALLS[call]
    assert read_as_bot_api(json_body(bot, method)) == read_as_bot_api(aiogram_form(bot, method))


def test_nested_objects_are_json_objects_and_the_bot_s_defaults_are_resolved() -> None:
    bot, method = CALLS["sendMessage with a keyboard and link preview options"]
    assert json_body(bot, method) == {
        "chat_id": 5,
        "text": "a & b",
        "parse_mode": "HTML",
        "link_preview_options": {"url": "https://example.org", "is_disabled": False},
        "reply_markup": KEYBOARD.model_dump(exclude_none=True),
    }
    assert json_body(*CALLS["sendMessage with every default of the bot"]) == {
        "chat_id": 5,
        "text": "x",
        "parse_mode": "MarkdownV2",
        "protect_content": True,
        "link_preview_options": {"is_disabled": True},
        "disable_web_page_preview": True,
    }


@pytest.mark.parametrize(
    "method",
    [
        SendPhoto(chat_id=5, photo=BufferedInputFile(b"png", "standings.png")),
        SendMediaGroup(
            chat_id=5, media=[InputMediaPhoto(media=BufferedInputFile(b"png", "round.png"))]
        ),
    ],
    ids=["a file of the call", "a file inside the album"],
)
async def test_an_upload_is_posted_as_aiogram_s_form(method: TelegramMethod[Any]) -> None:
    payload = JsonBodySession().build_form_data(BOT, method)()
    assert payload.content_type.startswith("multipart/form-data")
    assert b'filename="' in await payload.as_bytes()


def test_the_session_reads_telegram_s_answers_and_writes_text_with_orjson() -> None:
    session = JsonBodySession()
    answer = '{"ok":true,"result":[{"update_id":3,"callback_query":{"id":"9","from":{"id":5,'
    answer += '"is_bot":false,"first_name":"Анна"},"chat_instance":"-1","data":"pp:1:s:1"}}]}'
    (update,) = session.check_response(BOT, GetUpdates(), 200, answer).result or []
    assert (
        update.callback_query is not None and update.callback_query.from_user.first_name == "Анна"
    )
    # aiogram's forms and webhook answers take the dump as text.
    assert session.json_dumps({"text": "Анна"}) == '{"text":"Анна"}'
