"""What the lifecycle screens share: refusals turned into text, deep links, pages."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from functools import wraps
from html import escape
from typing import Any, TypeVar

from aiogram import Bot
from aiogram.types import CallbackQuery, Message

from domain.permissions import Forbidden
from domain.services.access import NotFound
from domain.validation import Invalid
from handlers.middlewares import Texts

PAGE_SIZE = 10
Item = TypeVar("Item")


def refusal_text(texts: Texts, error: Exception) -> str:
    """Why a request was refused, in the person's language; typed values are escaped."""
    if isinstance(error, Invalid):
        args = {k: escape(v) if isinstance(v, str) else v for k, v in error.args_.items()}
        return texts(error.code, **args)
    if isinstance(error, Forbidden):
        return texts("refused-forbidden")
    return texts("refused-not-found")


Handler = Callable[..., Awaitable[Any]]


def refusals_answered(handler: Handler) -> Handler:
    """Answer a refused request (bad input, a forbidden or stale button) with its reason.

    Nothing was changed: use cases raise before they commit.
    """

    @wraps(handler)
    async def wrapper(event: Message | CallbackQuery, *args: Any, **kwargs: Any) -> Any:
        try:
            return await handler(event, *args, **kwargs)
        except (Invalid, Forbidden, NotFound) as error:
            text = refusal_text(kwargs["texts"], error)
            if isinstance(event, CallbackQuery):
                await event.answer(text, show_alert=True)
            else:
                await event.answer(text)
            return None

    return wrapper


async def deep_link(bot: Bot, payload: str) -> str:
    """The t.me link that opens the bot with a `/start` payload."""
    me = await bot.me()
    return f"https://t.me/{me.username}?start={payload}"


def page(items: Sequence[Item], number: int) -> tuple[Sequence[Item], int]:
    """One page of a list (pages count from 0) and how many pages there are."""
    pages = max((len(items) + PAGE_SIZE - 1) // PAGE_SIZE, 1)
    number = min(max(number, 0), pages - 1)
    return items[number * PAGE_SIZE : (number + 1) * PAGE_SIZE], pages


async def show(event: Message | CallbackQuery, text: str, **kwargs: Any) -> None:
    """Answer a command with a new message, a button press by editing its message."""
    if isinstance(event, CallbackQuery):
        if isinstance(event.message, Message):
            await event.message.edit_text(text, **kwargs)
        await event.answer()
    else:
        await event.answer(text, **kwargs)
