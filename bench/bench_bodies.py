"""Benchmark: the CPU of the Bot API calls' bodies and of a getUpdates answer's parsing.

A judge's press on a protocol screen ends in an editMessageText carrying a keyboard of some
3 KB; polling parses a getUpdates answer of up to a hundred updates. Each figure is the least
of several repeats of `timeit` (the figure a busy machine changes least), in microseconds:
- the body of that edit, of an answerCallbackQuery and of a setMyCommands with a chat scope,
  as the bot's session builds it (bot.telegram.json_bodies), beside aiogram's own form's
  values (its session's preparing, before aiohttp encodes them);
- the parse of a getUpdates answer of 20 updates (messages and callback queries): its JSON
  alone, and the whole of the session's `check_response` (the JSON and aiogram's models).

Run: .venv/bin/python bench/bench_bodies.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import timeit
from collections.abc import Callable
from functools import partial
from typing import Any

from aiogram import Bot
from aiogram.client.default import DefaultBotProperties
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.methods import AnswerCallbackQuery, EditMessageText, GetUpdates, SetMyCommands
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
)

from bot.telegram.json_bodies import JsonBodySession

BOT = Bot("42:TEST", default=DefaultBotProperties(parse_mode="HTML"))


def protocol_edit() -> EditMessageText:
    """A protocol screen of a 10-seat table: seats, modes and actions, about 3 KB of keyboard."""
    seats = [
        InlineKeyboardButton(
            text=f"{seat} ✓ Участник {seat:02d} (Ф2)", callback_data=f"pr:1234:s:{seat}:1"
        )
        for seat in range(1, 11)
    ]
    modes = [
        InlineKeyboardButton(text=name, callback_data=f"pr:1234:m:{index}")
        for index, name in enumerate(["Фолы", "Голосование", "Ночь", "Лучший ход", "Баллы"])
    ]
    actions = [
        InlineKeyboardButton(text=f"Действие номер {index}", callback_data=f"pr:1234:a:{index}:0")
        for index in range(24)
    ]
    rows = [seats[i : i + 5] for i in range(0, 10, 5)] + [modes]
    rows += [actions[i : i + 3] for i in range(0, 24, 3)]
    text = "<b>Стол 3, игра 2</b>\n" + "\n".join(
        f"{seat}. Игрок {seat:02d} — 0" for seat in range(1, 11)
    )
    return EditMessageText(
        chat_id=100500,
        message_id=777,
        text=text,
        reply_markup=InlineKeyboardMarkup(inline_keyboard=rows),
    )


def updates_answer(count: int = 20) -> str:
    user = {"id": 5001, "is_bot": False, "first_name": "Анна", "language_code": "ru"}
    chat = {"id": 5001, "type": "private", "first_name": "Анна"}
    message = {"message_id": 10, "date": 1764800000, "chat": chat, "from": user, "text": "/help"}
    updates: list[dict[str, Any]] = []
    for update_id in range(1, count + 1):
        if update_id % 2:
            updates.append({"update_id": update_id, "message": message})
        else:
            query = {
                "id": str(update_id),
                "from": user,
                "chat_instance": "-42",
                "data": "pr:1234:s:3:1",
                "message": {**message, "from": {**user, "id": 42, "is_bot": True}},
            }
            updates.append({"update_id": update_id, "callback_query": query})
    return json.dumps({"ok": True, "result": updates}, ensure_ascii=False)


def least_us(call: Callable[[], object], repeat: int, number: int = 2000) -> float:
    return min(timeit.repeat(call, number=number, repeat=repeat)) / number * 1e6


def posted(session: JsonBodySession, method: Any) -> object:
    """The payload aiohttp posts (it calls the form it is given)."""
    return session.build_form_data(BOT, method)()


def aiogram_values(session: AiohttpSession, method: Any) -> dict[str, Any]:
    files: dict[str, Any] = {}
    return {
        key: session.prepare_value(value, bot=BOT, files=files)
        for key, value in method.model_dump(warnings=False).items()
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    ours, theirs = JsonBodySession(), AiohttpSession()
    edit = protocol_edit()
    assert edit.reply_markup is not None
    markup = edit.reply_markup.model_dump(exclude_none=True)
    keyboard = len(json.dumps(markup, ensure_ascii=False).encode())  # UTF-8, as orjson writes
    calls = {
        f"editMessageText, keyboard {keyboard / 1024:.1f} KB": edit,
        "answerCallbackQuery": AnswerCallbackQuery(callback_query_id="77", text="Сохранено"),
        "setMyCommands, chat scope": SetMyCommands(
            commands=[BotCommand(command=f"c{i}", description=f"Команда {i}") for i in range(8)],
            scope=BotCommandScopeChat(chat_id=5001),
        ),
    }
    print(f"{'call':<40}{'body, µs':>10}{'aiogram form values, µs':>26}")
    for name, method in calls.items():
        body = least_us(partial(posted, ours, method), args.repeat)
        form = least_us(partial(aiogram_values, theirs, method), args.repeat)
        print(f"{name:<40}{body:>10.1f}{form:>26.1f}")
    answer = updates_answer()
    method = GetUpdates()
    loads = least_us(lambda: ours.json_loads(answer), args.repeat, number=500)
    checked = least_us(
        lambda: ours.check_response(BOT, method, 200, answer), args.repeat, number=500
    )
    print(
        f"getUpdates of 20: JSON {loads:.1f} µs; check_response (JSON and models) {checked:.1f} µs"
    )


if __name__ == "__main__":
    main()
