"""Command menus set on Telegram only when they would change.

Telegram limits setMyCommands much more tightly than messages, and a person's menu (his chat's
scope) follows his roles and language, which change seldom, while /start and /help come
often. So the digest of the commands last set for each scope is kept in the database (table
`command_menus`, as `message_anchors.shown_digest` keeps an edited message's): every replica
and a restart know what Telegram shows, and a menu is set only when it would differ."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Sequence

from aiogram import Bot
from aiogram.types import BotCommand, BotCommandScopeUnion
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bot.db.engine import one_read
from bot.db.models import CommandMenuRow
from bot.db.models.menus import scope_key
from domain.services.users import UNREAD, Unread

# The digest of a scope's menu as this update read it already (`bot.db.fsm_storage`), once:
# None when none is stored, UNREAD when it was not read.
ShownRead = Callable[[str], str | Unread | None]


def menu_digest(commands: Sequence[BotCommand]) -> str:
    return _digest(tuple((command.command, command.description) for command in commands))


@functools.lru_cache(maxsize=256)
def _digest(listed: tuple[tuple[str, str], ...]) -> str:
    # The same few menus come again and again: each digested once.
    return hashlib.sha256(json.dumps(listed, ensure_ascii=False).encode()).hexdigest()


class CommandMenus:
    """Sets a menu unless the stored digest says Telegram shows it already (read with the
    update's conversation state when `shown_read` has it, else read here)."""

    def __init__(
        self,
        session_factory: async_sessionmaker[AsyncSession],
        shown_read: ShownRead | None = None,
    ) -> None:
        self._session_factory = session_factory
        self._shown_read = shown_read

    async def set(
        self,
        bot: Bot,
        commands: Sequence[BotCommand],
        scope: BotCommandScopeUnion | None = None,
        language_code: str | None = None,
    ) -> bool:
        """Whether the menu was set (False: it was shown already); Telegram's error passes
        through, and the menu is then tried again next time."""
        key, digest = scope_key(scope, language_code), menu_digest(commands)
        shown = self._shown_read(key) if self._shown_read is not None else UNREAD
        if isinstance(shown, Unread):
            async with one_read(self._session_factory) as connection:
                shown = await connection.scalar(
                    select(CommandMenuRow.digest).where(CommandMenuRow.scope == key)
                )
        if shown == digest:
            return False
        await bot.set_my_commands(list(commands), scope=scope, language_code=language_code)
        async with self._session_factory() as session, session.begin():
            await _remember(session, key, digest)
        return True


async def _remember(session: AsyncSession, key: str, digest: str) -> None:
    changed = await session.execute(
        update(CommandMenuRow).where(CommandMenuRow.scope == key).values(digest=digest)
    )
    if changed.rowcount == 1:  # type: ignore[attr-defined]
        return
    try:
        async with session.begin_nested():
            session.add(CommandMenuRow(scope=key, digest=digest))
    except IntegrityError:
        # Another replica stored its digest first; this menu was set after it.
        await session.execute(
            update(CommandMenuRow).where(CommandMenuRow.scope == key).values(digest=digest)
        )
