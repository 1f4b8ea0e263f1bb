"""The start screens' views: the language names and choice, /help's sections and the commands
each person's menu lists."""

from __future__ import annotations

from collections.abc import Collection

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.i18n import LOCALES
from domain.outgoing import Lines, Phrase
from domain.services.users import PersonRole
from domain.users import User
from handlers.callbacks import LanguageChoice

LANGUAGE_NAMES = {"ru": "Русский", "en": "English"}
# Everyone's menu (Telegram's default scope), then what each role adds to a person's own menu.
EVERYONE_COMMANDS = ("start", "help", "lang", "standings", "me", "protest", "profile", "rating")
ROLE_COMMANDS: dict[PersonRole, tuple[str, ...]] = {
    PersonRole.PLAYER: (),
    PersonRole.TABLE_JUDGE: ("protocol",),
    PersonRole.CHIEF_JUDGE: ("protocol", "lot", "audit", "tournaments"),
    PersonRole.ORGANIZER: ("tournaments", "new", "rounds", "audit", "merge", "joinclubs"),
    PersonRole.ADMIN: ("organizer", "tournaments", "new", "series", "merge", "joinclubs"),
}


def menu_commands(roles: Collection[PersonRole]) -> tuple[str, ...]:
    """The commands of a person's menu: everyone's, then his roles' (each once)."""
    names = list(EVERYONE_COMMANDS)
    for role in PersonRole:
        if role in roles:
            names.extend(name for name in ROLE_COMMANDS[role] if name not in names)
    return tuple(names)


def help_text(user: User, roles: Collection[PersonRole]) -> Lines:
    """/help for this person: a section per role, or how to start when he has none."""
    sections = [Phrase.of("help-title")]
    sections += [Phrase.of(f"help-{role.value}") for role in PersonRole if role in roles]
    if not roles:
        sections.append(Phrase.of("help-newcomer", id=str(user.telegram_id)))
    # The season's commands: everyone's, then what organizers and admins add.
    sections.append(Phrase.of("help-season"))
    if PersonRole.ORGANIZER in roles or PersonRole.ADMIN in roles:
        sections.append(Phrase.of("help-season-organizer"))
    if PersonRole.ADMIN in roles:
        sections.append(Phrase.of("help-season-admin"))
    sections.append(Phrase.of("help-common"))
    return Lines(tuple(sections), "\n\n")


def language_keyboard() -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    for locale in LOCALES:
        keyboard.button(text=LANGUAGE_NAMES[locale], callback_data=LanguageChoice(locale=locale))
    return keyboard.as_markup()
