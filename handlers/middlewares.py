"""Middlewares shared by every router: who is writing, and in which language to answer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject
from aiogram.types import User as TelegramUser

from bot.i18n import LOCALES, translator
from domain.services.ports import UnitOfWorkFactory
from domain.services.users import UNREAD, Unread, remember_user
from domain.users import User

# The sender as already read for this update (see `bot.db.fsm_storage`), or UNREAD.
SenderRead = Callable[[int], User | Unread | None]


class Texts:
    """The translator bound to one person's language, handed to handlers as `texts`."""

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def __call__(self, key: str, **args: object) -> str:
        return translator().get(self.locale, key, **args)


def _first_contact_locale(sender: TelegramUser, default_locale: str) -> str:
    """The Telegram client's language when the bot speaks it, else the default."""
    code = (sender.language_code or "").split("-")[0].lower()
    return code if code in LOCALES else default_locale


class KnownUserMiddleware(BaseMiddleware):
    """Stores the sender on first contact and puts `user` and `texts` into the handler data.

    The data dict is updated in place so the error handler, which sees the same dict, can
    apologise in the person's language.
    """

    def __init__(
        self,
        uow_factory: UnitOfWorkFactory,
        default_locale: str,
        sender_read: SenderRead | None = None,
    ) -> None:
        self._uow_factory = uow_factory
        self._default_locale = default_locale
        self._sender_read = sender_read

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        sender: TelegramUser | None = data.get("event_from_user")
        if sender is not None and not sender.is_bot:
            user = await remember_user(
                self._uow_factory,
                telegram_id=sender.id,
                first_name=sender.first_name,
                last_name=sender.last_name,
                username=sender.username,
                default_locale=_first_contact_locale(sender, self._default_locale),
                known=self._sender_read(sender.id) if self._sender_read else UNREAD,
            )
            data["user"] = user
            data["texts"] = Texts(user.locale)
        else:
            data["texts"] = Texts(self._default_locale)
        return await handler(event, data)
