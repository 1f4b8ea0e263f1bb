"""The yardstick of bench_update.py: a bare aiogram 3 bot, nothing but an echo command and a
one-button callback, polling the Bot API at TELEGRAM_API_BASE with BOT_TOKEN.

/help (or any command) is echoed back with one button; a press on it edits that message
(the press count in its text) and answers the callback, as a screen kept in place does.

Run: BOT_TOKEN=... TELEGRAM_API_BASE=http://127.0.0.1:PORT .venv/bin/python bench/bare_bot.py
"""

from __future__ import annotations

import asyncio
import os

from aiogram import Bot, Dispatcher, F
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

BUTTON = InlineKeyboardMarkup(
    inline_keyboard=[[InlineKeyboardButton(text="Press", callback_data="press")]]
)


async def echo(message: Message) -> None:
    await message.answer(message.text or "", reply_markup=BUTTON)


async def pressed(callback: CallbackQuery) -> None:
    if isinstance(callback.message, Message):
        text = callback.message.text or ""
        count = int(text.split()[-1]) + 1 if text.startswith("pressed ") else 1
        await callback.message.edit_text(f"pressed {count}", reply_markup=BUTTON)
    await callback.answer()


async def main() -> None:
    session = AiohttpSession(api=TelegramAPIServer.from_base(os.environ["TELEGRAM_API_BASE"]))
    bot = Bot(os.environ["BOT_TOKEN"], session=session)
    dispatcher = Dispatcher()
    dispatcher.message.register(echo, F.text.startswith("/"))
    dispatcher.callback_query.register(pressed, F.data == "press")
    await dispatcher.start_polling(bot)


if __name__ == "__main__":
    asyncio.run(main())
