"""/start (with or without a deep-link payload), /help and /lang; each person's command menu.

/help shows what the person can do in each of his roles (player, table judge, chief judge,
organizer, admin), and his command menu (Telegram's per-chat scope) lists those commands: it is
set again at /start, /help, whenever he takes on a role and when one ends (the organizer
finishes a tournament he judged)."""

from __future__ import annotations

import logging
from collections.abc import Collection
from html import escape

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import JOIN_TRANSITION, ChatMemberUpdatedFilter, Command, CommandStart
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    CallbackQuery,
    ChatMemberUpdated,
    Message,
)
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.i18n import LOCALES
from domain.actor import Actor
from domain.services.ports import UnitOfWorkFactory
from domain.services.users import PersonRole, choose_language, reopened_bot, roles_of
from domain.users import User
from handlers.callbacks import LanguageChoice
from handlers.common import edit_screen
from handlers.middlewares import Texts

log = logging.getLogger(__name__)
LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}
# Everyone's menu (Telegram's default scope), then what each role adds to a person's own menu.
EVERYONE_COMMANDS = ("start", "help", "lang", "standings", "me", "protest")
ROLE_COMMANDS: dict[PersonRole, tuple[str, ...]] = {
    PersonRole.PLAYER: (),
    PersonRole.TABLE_JUDGE: ("protocol",),
    PersonRole.CHIEF_JUDGE: ("protocol", "lot", "audit", "tournaments"),
    PersonRole.ORGANIZER: ("tournaments", "new", "rounds", "audit"),
    PersonRole.ADMIN: ("organizer", "tournaments", "new"),
}


def menu_commands(roles: Collection[PersonRole]) -> tuple[str, ...]:
    """The commands of a person's menu: everyone's, then his roles' (each once)."""
    names = list(EVERYONE_COMMANDS)
    for role in PersonRole:
        if role in roles:
            names.extend(name for name in ROLE_COMMANDS[role] if name not in names)
    return tuple(names)


async def set_person_menu(bot: Bot, user: User, roles: Collection[PersonRole]) -> None:
    """The person's own command menu in his language; a failure only costs the menu."""
    texts = Texts(user.locale)
    commands = [
        BotCommand(command=name, description=texts(f"command-{name}"))
        for name in menu_commands(roles)
    ]
    try:
        await bot.set_my_commands(commands, scope=BotCommandScopeChat(chat_id=user.telegram_id))
    except TelegramAPIError:
        log.warning("could not set the command menu of %s", user.telegram_id, exc_info=True)


async def refresh_person_menu(
    bot: Bot, user: User, uow_factory: UnitOfWorkFactory, actor: Actor
) -> tuple[PersonRole, ...]:
    """Set the person's menu from his roles now; the roles, for the caller's text."""
    roles = await roles_of(uow_factory, actor)
    await set_person_menu(bot, user, roles)
    return roles


def help_text(user: User, roles: Collection[PersonRole], texts: Texts) -> str:
    """/help for this person: a section per role, or how to start when he has none."""
    sections = [texts("help-title")]
    sections += [texts(f"help-{role.value}") for role in PersonRole if role in roles]
    if not roles:
        sections.append(texts("help-newcomer", id=str(user.telegram_id)))
    sections.append(texts("help-common"))
    return "\n\n".join(sections)


async def start_with_unknown_link(message: Message, texts: Texts) -> None:
    await message.answer(texts("start-link-invalid"))


async def start(
    message: Message,
    user: User,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    bot: Bot,
) -> None:
    await message.answer(texts("start-welcome", name=escape(user.first_name)))
    await refresh_person_menu(bot, user, uow_factory, actor)


async def show_help(
    message: Message,
    user: User,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    bot: Bot,
) -> None:
    roles = await refresh_person_menu(bot, user, uow_factory, actor)
    await message.answer(help_text(user, roles, texts))


async def ask_language(message: Message, texts: Texts) -> None:
    keyboard = InlineKeyboardBuilder()
    for locale in LOCALES:
        keyboard.button(text=LANGUAGE_NAMES[locale], callback_data=LanguageChoice(locale=locale))
    await message.answer(texts("lang-choose"), reply_markup=keyboard.as_markup())


async def set_language(
    callback: CallbackQuery,
    callback_data: LanguageChoice,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    user = await choose_language(uow_factory, callback.from_user.id, callback_data.locale)
    chosen = Texts(user.locale)("lang-chosen")
    if isinstance(callback.bot, Bot):  # the menu follows the language
        await refresh_person_menu(callback.bot, user, uow_factory, actor)
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
