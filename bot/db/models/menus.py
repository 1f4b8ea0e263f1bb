"""What the bot last set as a command menu on Telegram, by scope."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from bot.db.models.base import Base

if TYPE_CHECKING:
    # Not at run time: the models are the schema of `mafiatour migrate`, `backup`, `restore`
    # and `copy-data` too, which never talk to Telegram; importing aiogram costs 2.5 s of CPU.
    from aiogram.types import BotCommandScopeUnion


class CommandMenuRow(Base):
    """The digest of the commands set for one scope (`scope_key`), so a menu that would not
    change is not set again (Telegram limits setMyCommands tightly)."""

    __tablename__ = "command_menus"

    scope: Mapped[str] = mapped_column(String(96), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64))


def scope_key(scope: BotCommandScopeUnion | None, language_code: str | None) -> str:
    """A row's `scope`: the menu's place on Telegram, its scope (a chat's, or the default) and
    its language. The stored form stays as it was first written ("default::ru",
    "BotCommandScopeType.CHAT:123:", the enum's str on Python 3.11), so a restart knows the
    menus set before it."""
    kind = scope.type if scope is not None else "default"
    chat = getattr(scope, "chat_id", "")
    return f"{kind}:{chat}:{language_code or ''}"


def chat_scope_key(chat_id: int) -> str:
    """The `scope` of a person's own menu (his private chat's, in no particular language)."""
    from aiogram.types import BotCommandScopeChat  # only a running bot asks (see the top)

    return scope_key(BotCommandScopeChat(chat_id=chat_id), None)
