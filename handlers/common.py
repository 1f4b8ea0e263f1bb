"""What the screens share: answers to a press, screens edited, long work, deep links, pages."""

from __future__ import annotations

import asyncio
import functools
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from html import unescape
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import EditMessageText
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.delivery.sending import NOT_MODIFIED
from bot.rendering.text import split_text
from bot.telegram.replies import already_answered
from domain.layout import phrase
from domain.outgoing import Lines, Phrase
from handlers.middlewares import Texts

PAGE_SIZE = 10
# The callback data of the "working…" button shown while a press's long work runs.
WORKING = "wip"
_TAGS = re.compile(r"<[^>]*>")
Item = TypeVar("Item")
# What a screen says: phrase data a view built (`domain.layout`), written here by the one
# renderer the pushes go through (`Texts.phrase`), or a text already written (a Fluent message
# of the reader's `texts`, with no value of a user's in it).
Said = str | Phrase | Lines


def written(text: Said, texts: Texts | None) -> str:
    """The HTML Telegram is sent for `text`: phrase data rendered in the reader's language,
    every plain string in it escaped."""
    if isinstance(text, str):
        return text
    if texts is None:
        raise TypeError("phrase data is written in the reader's language: pass his texts")
    return texts.phrase(text)


async def answer(
    message: Message, text: Said, texts: Texts | None = None, **kwargs: Any
) -> Message:
    """Answer `message` with `text`, cut at Telegram's limit by the same splitter the pushes
    use (`split_text`) when it is longer; the keyboard (`reply_markup`) goes under the last,
    the message returned."""
    html = written(text, texts)
    parts = split_text(html) or [html]
    for part in parts[:-1]:
        await message.answer(part)
    return await message.answer(parts[-1], **kwargs)


async def tell(event: Message | CallbackQuery, text: Said, texts: Texts | None = None) -> None:
    """Say `text` in answer: a message to a message; an alert to a press, or a message under
    it if the press was answered already (long work answers at once, and only once)."""
    if isinstance(event, Message):
        await answer(event, text, texts)
    elif not already_answered(event.id):
        # An alert shows its text as it is: phrase data is written without markup there.
        alert = text if isinstance(text, str) or texts is None else texts.plain(phrase(text))
        await event.answer(written(alert, texts), show_alert=True)
    elif isinstance(event.message, Message):
        await answer(event.message, text, texts)


def _plain(html_text: str) -> str:
    """The text Telegram shows for our HTML: tags gone, entities decoded, ends trimmed."""
    return unescape(_TAGS.sub("", html_text)).strip()


def _buttons(markup: Any) -> Any:
    """The keyboard as data (a received one is bound to the bot, so models differ); no
    keyboard and an empty one look the same in a chat."""
    if isinstance(markup, InlineKeyboardMarkup) and markup.inline_keyboard:
        return markup.model_dump(exclude_none=True)
    return None


@dataclass(frozen=True)
class _Shown:
    """What a screen message showed after the bot's last edit of it: its edit date, as
    Telegram answered, and the text and keyboard the edit sent (the keyboard as sent: made
    into data only when a later edit's text is the same)."""

    edit_date: int
    text: str
    markup: InlineKeyboardMarkup | None

    @functools.cached_property
    def buttons(self) -> Any:
        return _buttons(self.markup)


# Screens this process edited lately (the Telegram server, chat, message) -> what they show;
# a bound, as the oldest screens are rarely pressed again, and a forgotten one falls back on
# the press's own copy. The server is part of the key: message ids are a server's own (the
# tests and the simulation run several fake Telegrams in one process, numbering alike).
_SHOWN: OrderedDict[tuple[str, int, int], _Shown] = OrderedDict()
_SHOWN_KEPT = 10_000
# The screens being edited now: a lock each and how many edits hold or wait for it.
_EDITING: dict[tuple[str, int, int], tuple[asyncio.Lock, list[int]]] = {}


def _screen_key(message: Message) -> tuple[str, int, int]:
    server = message.bot.session.api.base if message.bot is not None else ""
    return server, message.chat.id, message.message_id


def _shows(message: Message, text: str, markup: InlineKeyboardMarkup | None) -> bool:
    """Whether `message` shows `text` and `markup` already: as the press's copy has it, or
    this process's own later edit of it (a double tap's second press carries the screen from
    before the first's edit)."""
    shown = _SHOWN.get(_screen_key(message))
    if shown is not None and shown.edit_date >= (message.edit_date or 0):
        return shown.text == text and shown.buttons == _buttons(markup)
    if (message.text or "").strip() != text:
        return False
    return _buttons(message.reply_markup) == _buttons(markup)


def _remember(
    key: tuple[str, int, int], edit_date: int, text: str, markup: InlineKeyboardMarkup | None
) -> None:
    _SHOWN[key] = _Shown(edit_date, text, markup)
    _SHOWN.move_to_end(key)
    while len(_SHOWN) > _SHOWN_KEPT:
        _SHOWN.popitem(last=False)


class _ScreenEdit(EditMessageText):
    """editMessageText answered with Telegram's JSON as it is: a screen's edit needs only the
    edited message's `edit_date` (the edit shows what was sent), and aiogram's model of the
    edited message, every button of its keyboard validated, cost a sixth of a protocol
    press's CPU (thirty judges press at a round's start)."""

    __returning__ = dict[str, Any] | bool


@asynccontextmanager
async def _one_edit_at_a_time(key: tuple[str, int, int]) -> AsyncIterator[None]:
    lock, users = _EDITING.setdefault(key, (asyncio.Lock(), [0]))
    users[0] += 1
    try:
        async with lock:
            yield
    finally:
        users[0] -= 1
        if users[0] == 0:
            del _EDITING[key]


async def edit_screen(
    message: Message,
    text: Said,
    reply_markup: InlineKeyboardMarkup | None = None,
    texts: Texts | None = None,
    **kwargs: Any,
) -> None:
    """Edit a screen to `text` and `reply_markup`, unless it shows exactly that already:
    Telegram refuses such an edit ("message is not modified"), e.g. on a double tap. The
    press's copy of the screen may be older than the chat's: an update handled again after its
    first process was killed finds the screen already edited by that process, and the second
    press of a double tap finds it edited by the first (this process remembers its edits;
    edits of one screen go one at a time, two people pressing on it alike)."""
    key, html = _screen_key(message), written(text, texts)
    plain = _plain(html)
    async with _one_edit_at_a_time(key):
        if _shows(message, plain, reply_markup):
            return
        edit = _ScreenEdit(
            chat_id=message.chat.id,
            message_id=message.message_id,
            business_connection_id=message.business_connection_id,
            text=html,
            reply_markup=reply_markup,
            **kwargs,
        )
        try:
            # Typed as aiogram's method, answered as `_ScreenEdit` says.
            edited: Any = await edit.as_(message.bot)
        except TelegramBadRequest as error:
            if NOT_MODIFIED not in error.message:
                raise
            return
        if isinstance(edited, dict):  # True for an inline message: nothing to remember
            _remember(key, edited.get("edit_date") or 0, plain, reply_markup)


@asynccontextmanager
async def long_work(
    callback: CallbackQuery, texts: Texts, *, replaced: bool
) -> AsyncIterator[None]:
    """Answer a press that starts long work at once and, while the block runs, show it on the
    pressed message: its keyboard becomes a single "working" button, so the press cannot be
    repeated meanwhile. The keyboard comes back afterwards unless the work `replaced` the
    screen with its result (it always comes back if the work failed)."""
    message = callback.message if isinstance(callback.message, Message) else None
    if message is None:
        await callback.answer(texts("work-in-progress"))
        yield
        return
    keyboard = message.reply_markup
    working = InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=texts("work-in-progress"), callback_data=WORKING)]
        ]
    )
    # The screen shows the work before the press is answered: whoever sees the answer sees
    # the "working" keyboard too.
    await message.edit_reply_markup(reply_markup=working)
    await callback.answer(texts("work-in-progress"))
    try:
        yield
    except BaseException:
        await message.edit_reply_markup(reply_markup=keyboard)
        raise
    if not replaced:
        await message.edit_reply_markup(reply_markup=keyboard)


async def deep_link(bot: Bot, payload: str) -> str:
    """The t.me link that opens the bot with a `/start` payload."""
    me = await bot.me()
    return f"https://t.me/{me.username}?start={payload}"


def page(items: Sequence[Item], number: int) -> tuple[Sequence[Item], int]:
    """One page of a list (pages count from 0) and how many pages there are."""
    pages = max((len(items) + PAGE_SIZE - 1) // PAGE_SIZE, 1)
    number = min(max(number, 0), pages - 1)
    return items[number * PAGE_SIZE : (number + 1) * PAGE_SIZE], pages


async def show(
    event: Message | CallbackQuery, text: Said, texts: Texts | None = None, **kwargs: Any
) -> None:
    """Answer a command with a new message, a button press by editing its message."""
    if isinstance(event, CallbackQuery):
        if isinstance(event.message, Message):
            await edit_screen(event.message, text, texts=texts, **kwargs)
        await event.answer()
    else:
        await answer(event, text, texts, **kwargs)
