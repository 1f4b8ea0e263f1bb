"""An outgoing message turned into what Telegram is sent, in the recipient's language."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.i18n import Translator
from bot.rendering.phrases import render_phrase
from bot.rendering.text import split_text, telegram_length
from domain.intents import Intent
from domain.outgoing import (
    CAPTION_LIMIT,
    Button,
    OutgoingMessage,
    Phrase,
)

# What a press of an intent's button does: the callback data Telegram sends back (the
# screens' own `CallbackData`), the Mini App it opens, or None: nothing to offer here, and
# the button is left out.
Packed = str | WebAppInfo | None
# Packs a button's intent (`handlers.intents.intent_packer`).
IntentPacker = Callable[[Intent], Packed]


@dataclass(frozen=True, slots=True)
class Rendered:
    """The texts to send in order; `caption` goes with the attachment (if any) before them."""

    caption: str | None
    texts: tuple[str, ...]
    keyboard: InlineKeyboardMarkup | None

    def shown_digest(self) -> str | None:
        """A digest of what one message sent or edited to this shows (its text and keyboard),
        to know an edit would change nothing; None when it is not one text message."""
        if self.caption is not None or len(self.texts) != 1:
            return None
        keyboard = self.keyboard.model_dump_json(exclude_none=True) if self.keyboard else ""
        content = f"{self.texts[0]}\0{keyboard}".encode()
        return hashlib.sha256(content).hexdigest()


def _keyboard(
    translator: Translator, locale: str, message: OutgoingMessage, pack: IntentPacker | None
) -> InlineKeyboardMarkup | None:
    rows = [
        [
            shown
            for button in row
            if (shown := _button(translator, locale, button, pack)) is not None
        ]
        for row in message.buttons
    ]
    rows = [row for row in rows if row]
    return InlineKeyboardMarkup(inline_keyboard=rows) if rows else None


def _button(
    translator: Translator, locale: str, button: Button, pack: IntentPacker | None
) -> InlineKeyboardButton | None:
    text = (
        render_phrase(translator, locale, button.text, markup=False)
        if isinstance(button.text, Phrase)
        else button.text
    )
    if button.intent is None:
        return InlineKeyboardButton(text=text, url=button.url)
    if pack is None:
        raise ValueError(f"a button asks for {button.intent} but no packer was given")
    packed = pack(button.intent)
    if packed is None:
        return None
    if isinstance(packed, WebAppInfo):
        return InlineKeyboardButton(text=text, web_app=packed)
    return InlineKeyboardButton(text=text, callback_data=packed)


def render(
    translator: Translator,
    locale: str,
    message: OutgoingMessage,
    pack: IntentPacker | None = None,
) -> Rendered:
    """The message's text cut to Telegram's limits; it becomes the attachment's caption when
    it fits in one, otherwise it follows the attachment as messages of its own. Its buttons'
    intents are packed by `pack`."""
    if message.phrase is not None:
        text = render_phrase(translator, locale, message.phrase, markup=True)
    else:
        text = message.text or ""
    keyboard = _keyboard(translator, locale, message, pack)
    if message.attachment is not None and telegram_length(text) <= CAPTION_LIMIT:
        return Rendered(caption=text or None, texts=(), keyboard=keyboard)
    return Rendered(caption=None, texts=tuple(split_text(text)), keyboard=keyboard)
