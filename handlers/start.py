"""/start (with or without a deep-link payload), /help and /lang; each person's command menu.

/help shows what the person can do in each of his roles (player, table judge, chief judge,
organizer, admin), and his command menu (Telegram's per-chat scope) lists those commands: it is
looked at again at /start, /help, whenever he takes on a role and when one ends (the organizer
finishes a tournament he judged), and set only when it would change (`bot.telegram.menus`)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Collection

from aiogram import Bot, F, Router
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import (
    JOIN_TRANSITION,
    ChatMemberUpdatedFilter,
    Command,
    CommandStart,
    StateFilter,
)
from aiogram.types import (
    BotCommand,
    BotCommandScopeChat,
    CallbackQuery,
    ChatMemberUpdated,
    Message,
    TelegramObject,
    Update,
)

from bot.i18n import LOCALES
from bot.telegram.menus import CommandMenus
from domain.actor import Actor
from domain.outgoing import Phrase
from domain.services.catalog import Services
from domain.services.ports import Standing
from domain.services.users import UNREAD, PersonRole, Unread
from domain.users import User
from handlers.callbacks import LanguageChoice
from handlers.common import answer, edit_screen
from handlers.middlewares import Texts
from handlers.start_views import help_text, language_keyboard, menu_commands

log = logging.getLogger(__name__)


async def set_person_menu(
    bot: Bot, menus: CommandMenus, user: User, roles: Collection[PersonRole]
) -> None:
    """The person's own command menu in his language, unless Telegram shows it already; a
    failure only costs the menu."""
    commands = _menu(user.locale, menu_commands(roles))
    try:
        await menus.set(bot, commands, scope=BotCommandScopeChat(chat_id=user.telegram_id))
    except TelegramAPIError:
        log.warning("could not set the command menu of %s", user.telegram_id, exc_info=True)


@functools.cache
def _menu(locale: str, names: tuple[str, ...]) -> tuple[BotCommand, ...]:
    """A menu's commands in a language, built once per process (a handful of roles' menus in
    two languages): every /start and /help looks at its person's menu."""
    texts = Texts(locale)
    return tuple(BotCommand(command=name, description=texts(f"command-{name}")) for name in names)


async def refresh_person_menu(
    bot: Bot,
    menus: CommandMenus,
    user: User,
    services: Services,
    actor: Actor,
    standing: Standing | Unread = UNREAD,
) -> tuple[PersonRole, ...]:
    """The person's menu from his roles now (set if it changed); the roles, for the caller's
    text. `standing` is his, when read with the update's state (a /help's, a /start's)."""
    roles = await services.users.roles_of(actor, known=standing)
    await set_person_menu(bot, menus, user, roles)
    return roles


async def start_with_unknown_link(message: Message, texts: Texts) -> None:
    await message.answer(texts("start-link-invalid"))


async def start(
    message: Message,
    user: User,
    texts: Texts,
    services: Services,
    actor: Actor,
    bot: Bot,
    menus: CommandMenus,
    standing: Standing | Unread,
) -> None:
    await message.answer(texts.phrase(Phrase.of("start-welcome", name=user.first_name)))
    await refresh_person_menu(bot, menus, user, services, actor, standing)


async def show_help(
    message: Message,
    user: User,
    texts: Texts,
    services: Services,
    actor: Actor,
    bot: Bot,
    menus: CommandMenus,
    standing: Standing | Unread,
) -> None:
    roles = await refresh_person_menu(bot, menus, user, services, actor, standing)
    await answer(message, help_text(user, roles), texts)


async def ask_language(message: Message, texts: Texts) -> None:
    await message.answer(texts("lang-choose"), reply_markup=language_keyboard())


async def set_language(
    callback: CallbackQuery,
    callback_data: LanguageChoice,
    services: Services,
    actor: Actor,
    menus: CommandMenus,
) -> None:
    user = await services.users.choose_language(callback.from_user.id, callback_data.locale)
    chosen = Texts(user.locale)("lang-chosen")
    if isinstance(callback.bot, Bot):  # the menu follows the language
        await refresh_person_menu(callback.bot, menus, user, services, actor)
    if isinstance(callback.message, Message):
        await edit_screen(callback.message, chosen)
    await callback.answer(chosen)


async def unblocked(event: ChatMemberUpdated, services: Services) -> None:
    """Telegram says a person unblocked the bot (or started it): he is reachable again."""
    await services.users.reopened_bot(event.chat.id)


def shows_menu(event: TelegramObject) -> bool:
    """Whether the update is a /help or a /start without a payload in a private chat: the
    commands whose handlers look at the person's menu, so the update's first read fetches
    his standing and his menu's digest with his conversation state (`start`, `show_help`).
    Only the cost depends on it: any other handler that takes the update reads for itself."""
    message = event.message if isinstance(event, Update) else None
    if message is None or message.chat.type != "private" or not message.text:
        return False
    command, _, payload = message.text.partition(" ")
    name = command.partition("@")[0]
    return name == "/help" or (name == "/start" and not payload.strip())


def _register_menu_commands(router: Router) -> None:
    """/start without a payload, /help and /lang."""
    router.message.register(start, Command("start", magic=F.args.is_(None)))
    router.message.register(show_help, Command("help"))
    router.message.register(ask_language, Command("lang"))


def make_menu_router() -> Router:
    """The menu's commands from a person in no wizard's step; include it before the feature
    routers (after the protocol's presses, which have no message handler).

    No other router takes them then (every other handler of a plain command names its own
    command; a handler taking any text waits in a wizard's step), so the commands people send
    most need not be offered to the twenty routers and seventy filters before `start`'s. In
    a wizard's step they take the long way, as before: the step may take them as its answer."""
    router = Router(name="menu")
    router.message.filter(F.chat.type == "private", StateFilter(None))
    _register_menu_commands(router)
    return router


def make_router() -> Router:
    """The start/help/lang screens; include it last, as it answers unclaimed deep links."""
    router = Router(name="start")
    router.message.filter(F.chat.type == "private")
    router.my_chat_member.register(
        unblocked, F.chat.type == "private", ChatMemberUpdatedFilter(JOIN_TRANSITION)
    )
    router.message.register(start_with_unknown_link, CommandStart(deep_link=True))
    _register_menu_commands(router)
    router.callback_query.register(set_language, LanguageChoice.filter(F.locale.in_(LOCALES)))
    return router
