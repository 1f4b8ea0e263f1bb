"""What an outbox message says when it goes: the language of its chat, its text and
attachment drawn at send time, and the whole rendered for Telegram."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TypeVar

from aiogram.types import InlineKeyboardMarkup

from bot.db.uow import SqlUnitOfWork
from bot.delivery.jobs import Clock
from bot.delivery.limits import is_private_chat
from bot.delivery.render import IntentPacker, Rendered, render
from bot.i18n import Translator, translator
from domain.outgoing import Drawing, OutgoingMessage


@dataclass(frozen=True, slots=True)
class DrawnScreen:
    """A text drawn with its own keyboard (a screen kept current in place, such as the
    organizer's card, whose buttons are the screen's callback data)."""

    text: str
    keyboard: InlineKeyboardMarkup | None


# Draws an attachment's content (bytes) or a message's text (HTML, or a screen with its
# keyboard) at send time from its drawing's arguments, in a language.
Drawer = Callable[
    [Mapping[str, str | int], str, datetime],
    Awaitable[bytes | str | tuple[bytes, ...] | DrawnScreen],
]
T = TypeVar("T")


@dataclass(frozen=True)
class Writer:
    """The worker's wording: its translations, the drawers of what is drawn at send time, the
    packing of buttons' intents, and the language of a chat nobody chose one for."""

    texts: Translator = field(default_factory=translator)
    drawers: Mapping[str, Drawer] = field(default_factory=dict)
    pack: IntentPacker | None = None
    default_locale: str = "ru"

    async def locale(self, uow: SqlUnitOfWork, chat_id: int, tournament_id: int | None) -> str:
        """A person's language; a tournament's channel speaks the tournament's language."""
        if is_private_chat(chat_id):
            person = await uow.users.get(chat_id)
            return person.locale if person else self.default_locale
        tournament = await uow.tournaments.get(tournament_id) if tournament_id else None
        return tournament.locale if tournament else self.default_locale

    async def write(
        self, message: OutgoingMessage, locale: str, clock: Clock
    ) -> tuple[OutgoingMessage, Rendered]:
        """The message drawn, and rendered in `locale`; a ValueError (or KeyError) when it
        cannot be."""
        keyboard: InlineKeyboardMarkup | None = None
        if message.text_drawing is not None:
            drawn: str | DrawnScreen = await self._draw(
                message.text_drawing, locale, clock, (str, DrawnScreen)
            )
            if isinstance(drawn, DrawnScreen):
                keyboard = drawn.keyboard
            text = drawn.text if isinstance(drawn, DrawnScreen) else drawn
            message = replace(message, text=text, text_drawing=None)
        message = await self._drawn(message, locale, clock)
        rendered = render(self.texts, locale, message, self.pack)
        if keyboard is not None:
            rendered = replace(rendered, keyboard=keyboard)
        return message, rendered

    async def _drawn(self, message: OutgoingMessage, locale: str, clock: Clock) -> OutgoingMessage:
        """The message with its attachment drawn, when it is drawn at send time."""
        attachment = message.attachment
        if attachment is None or attachment.drawing is None:
            return message
        if attachment.kind == "album":
            pictures = await self._draw(attachment.drawing, locale, clock, tuple)
            drawn = replace(attachment, pictures=pictures, drawing=None)
        else:
            content = await self._draw(attachment.drawing, locale, clock, bytes)
            drawn = replace(attachment, content=content, drawing=None)
        return replace(message, attachment=drawn)

    async def _draw(
        self, drawing: Drawing, locale: str, clock: Clock, kind: type[T] | tuple[type, ...]
    ) -> T:
        drawer = self.drawers.get(drawing.drawer)
        if drawer is None:
            raise ValueError(f"no drawer {drawing.drawer!r}")
        try:
            drawn = await drawer(drawing.arguments, locale, clock())
        except Exception as error:  # a drawing that cannot be made fails its message only
            raise ValueError(f"drawing {drawing.drawer!r} failed: {error}") from error
        if not isinstance(drawn, kind):
            raise ValueError(f"drawing {drawing.drawer!r} made no {kind}")
        return drawn  # type: ignore[return-value]
