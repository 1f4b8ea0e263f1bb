"""An outgoing message turned into what Telegram is sent, in the recipient's language."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.delivery.text import escape, split_text, telegram_length
from bot.i18n import Translator
from domain.intents import Intent
from domain.outgoing import CAPTION_LIMIT, Html, Lines, Localized, OutgoingMessage, Phrase

# Packs a button's intent into the callback data Telegram sends back when it is pressed
# (`handlers.intents.pack_intent`: the screens' own `CallbackData`).
IntentPacker = Callable[[Intent], str]


@dataclass(frozen=True, slots=True)
class Rendered:
    """The texts to send in order; `caption` goes with the attachment (if any) before them."""

    caption: str | None
    texts: tuple[str, ...]
    keyboard: InlineKeyboardMarkup | None


def render_phrase(translator: Translator, locale: str, phrase: Phrase, *, markup: bool) -> str:
    """The phrase's text; plain string arguments are escaped when the text is HTML, names and
    nested phrases are rendered in the same language."""
    args: dict[str, object] = {}
    for name, value in phrase.args:
        if isinstance(value, Html):
            args[name] = value.markup
        elif isinstance(value, Localized):
            text = value.text(locale)
            args[name] = escape(text) if markup else text
        elif isinstance(value, Phrase):
            args[name] = render_phrase(translator, locale, value, markup=markup)
        elif isinstance(value, Lines):
            rendered = [render_phrase(translator, locale, line, markup=markup) for line in value]
            args[name] = value.separator.join(rendered)
        elif isinstance(value, str) and markup:
            args[name] = escape(value)
        else:
            args[name] = value
    return translator.get(locale, phrase.key, **args)


def _keyboard(
    translator: Translator, locale: str, message: OutgoingMessage, pack: IntentPacker | None
) -> InlineKeyboardMarkup | None:
    if not message.buttons:
        return None
    rows = [
        [
            InlineKeyboardButton(
                text=(
                    render_phrase(translator, locale, button.text, markup=False)
                    if isinstance(button.text, Phrase)
                    else button.text
                ),
                callback_data=_packed(button.intent, pack),
                url=button.url,
            )
            for button in row
        ]
        for row in message.buttons
    ]
    return InlineKeyboardMarkup(inline_keyboard=rows)


def _packed(intent: Intent | None, pack: IntentPacker | None) -> str | None:
    if intent is None:
        return None
    if pack is None:
        raise ValueError(f"a button asks for {intent} but no packer was given")
    return pack(intent)


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
