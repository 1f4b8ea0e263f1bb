"""/start (with or without a deep-link payload), /help and /lang."""

from __future__ import annotations

from html import escape

from aiogram import F, Router
from aiogram.filters import JOIN_TRANSITION, ChatMemberUpdatedFilter, Command, CommandStart
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, ChatMemberUpdated, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.i18n import LOCALES
from domain.services.ports import UnitOfWorkFactory
from domain.services.users import choose_language, reopened_bot
from domain.users import User
from handlers.common import edit_screen
from handlers.middlewares import Texts

LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}


class LanguageChoice(CallbackData, prefix="lang"):
    locale: str


async def start_with_unknown_link(message: Message, texts: Texts) -> None:
    await message.answer(texts("start-link-invalid"))


async def start(message: Message, user: User, texts: Texts) -> None:
    await message.answer(texts("start-welcome", name=escape(user.first_name)))


async def show_help(message: Message, texts: Texts) -> None:
    await message.answer(texts("help-text"))


async def ask_language(message: Message, texts: Texts) -> None:
    keyboard = InlineKeyboardBuilder()
    for locale in LOCALES:
        keyboard.button(text=LANGUAGE_NAMES[locale], callback_data=LanguageChoice(locale=locale))
    await message.answer(texts("lang-choose"), reply_markup=keyboard.as_markup())


async def set_language(
    callback: CallbackQuery, callback_data: LanguageChoice, uow_factory: UnitOfWorkFactory
) -> None:
    user = await choose_language(uow_factory, callback.from_user.id, callback_data.locale)
    chosen = Texts(user.locale)("lang-chosen")
    if isinstance(callback.message, Message):
        await edit_screen(callback.message, chosen)
    await callback.answer(chosen)


async def unblocked(event: ChatMemberUpdated, uow_factory: UnitOfWorkFactory) -> None:
    """Telegram says a person unblocked the bot (or started it): he is reachable again."""
    await reopened_bot(uow_factory, event.chat.id)


def make_router() -> Router:
    """The start/help/lang screens; include it last, as it answers unclaimed deep links."""
    router = Router(name="start")
    router.message.filter(F.chat.type == "private")
    router.my_chat_member.register(
        unblocked, F.chat.type == "private", ChatMemberUpdatedFilter(JOIN_TRANSITION)
    )
    router.message.register(start_with_unknown_link, CommandStart(deep_link=True))
    router.message.register(start, CommandStart())
    router.message.register(show_help, Command("help"))
    router.message.register(ask_language, Command("lang"))
    router.callback_query.register(set_language, LanguageChoice.filter(F.locale.in_(LOCALES)))
    return router
