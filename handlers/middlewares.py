"""The middleware shared by every router: who is writing, in which language to answer, and
who acts (with which rights, at what moment) in the use cases the update calls."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject
from aiogram.types import User as TelegramUser

from bot.config import Settings
from bot.i18n import LOCALES, translator
from bot.rendering.phrases import render_phrase
from domain.actor import Actor
from domain.outgoing import Lines, Phrase
from domain.services.catalog import Services
from domain.services.ports import Clock, Standing
from domain.services.users import UNREAD, Unread
from domain.users import User

# The sender as already read for this update (see `bot.db.fsm_storage`), or UNREAD.
SenderRead = Callable[[int], User | Unread | None]
# His standing as already read for this update (a /help's, a /start's), or UNREAD.
StandingRead = Callable[[int], Standing | Unread]


class Texts:
    """The translator bound to one person's language, handed to handlers as `texts`."""

    def __init__(self, locale: str) -> None:
        self.locale = locale

    def __call__(self, key: str, **args: object) -> str:
        return translator().get(self.locale, key, **args)

    def phrase(self, phrase: Phrase | Lines) -> str:
        """A phrase (or phrases one a line) as the pushes write it: HTML in this language,
        its values escaped."""
        if isinstance(phrase, Lines):
            return phrase.separator.join(_rendered_line(self.locale, line) for line in phrase)
        return render_phrase(translator(), self.locale, phrase, markup=True)

    def plain(self, phrase: Phrase) -> str:
        """A phrase as plain text (a button's label, an alert): nothing escaped."""
        return render_phrase(translator(), self.locale, phrase, markup=False)


# A screen's lines, kept rendered: most lines of a screen redrawn at every press (the judges'
# protocol, thirty times a round's second) are the same from press to press. Rendering is a
# function of the phrase and the language alone (phrases are frozen values).
_KEPT_LINES = 4096


@functools.lru_cache(maxsize=_KEPT_LINES)
def _rendered_line(locale: str, line: Phrase) -> str:
    return render_phrase(translator(), locale, line, markup=True)


def _first_contact_locale(sender: TelegramUser, default_locale: str) -> str:
    """The Telegram client's language when the bot speaks it, else the default."""
    code = (sender.language_code or "").split("-")[0].lower()
    return code if code in LOCALES else default_locale


class KnownUserMiddleware(BaseMiddleware):
    """Who the person is: stores the sender on first contact and puts into the handler data
    `user`, `texts`, `standing` (his standing when read with the update's state, else
    UNREAD) and `actor` (the sender, whether he is an admin, and the moment of the update on
    the Dispatcher's clock, read once for every use case the update calls). An update without
    a person (a channel's post) has `texts` alone. One middleware for all of it: each one an
    update passes through costs the event loop, thirty judges pressing at once.

    The data dict is updated in place so the error handler, which sees the same dict, can
    apologise in the person's language.
    """

    def __init__(
        self,
        services: Services,
        default_locale: str,
        sender_read: SenderRead | None = None,
        standing_read: StandingRead | None = None,
    ) -> None:
        self._services = services
        self._default_locale = default_locale
        self._sender_read = sender_read
        self._standing_read = standing_read

    async def __call__(
        self,
        handler: Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]],
        event: TelegramObject,
        data: dict[str, Any],
    ) -> Any:
        sender: TelegramUser | None = data.get("event_from_user")
        if sender is not None and not sender.is_bot:
            user = await self._services.users.remember_user(
                telegram_id=sender.id,
                first_name=sender.first_name,
                last_name=sender.last_name,
                username=sender.username,
                default_locale=_first_contact_locale(sender, self._default_locale),
                known=self._sender_read(sender.id) if self._sender_read else UNREAD,
            )
            data["user"] = user
            data["texts"] = Texts(user.locale)
            data["standing"] = self._standing_read(sender.id) if self._standing_read else UNREAD
            settings: Settings = data["settings"]
            clock: Clock = data["clock"]
            data["actor"] = Actor.of(user.telegram_id, clock.now(), settings.admin_ids)
        else:
            data["texts"] = Texts(self._default_locale)
        return await handler(event, data)
