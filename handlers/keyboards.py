"""An inline keyboard laid out in rows, for screens redrawn on every press.

aiogram's `InlineKeyboardBuilder` deep-copies its whole markup on every button added, so a
screen of 25 buttons costs hundreds of pydantic deep copies (the protocol screen, redrawn on
each of a judge's taps, spent more time there than anywhere else). This keyboard keeps the
builder's `button`, `adjust` and `as_markup` with the same layout, and copies nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import chain, repeat

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from domain.tournament import Tournament

# The builder's widest row, its layout when `adjust` is not called.
MAX_WIDTH = 8
# Callback buttons kept made, by label and data: a pydantic model costs some 10 µs to make,
# and the protocol screen's thirty are mostly the same from press to press. Nothing changes
# a button once made (a screen that changes makes new ones), so one may sit in many keyboards.
_KEPT_BUTTONS = 4096


@functools.lru_cache(maxsize=_KEPT_BUTTONS)
def callback_button(text: str, data: str) -> InlineKeyboardButton:
    """The button of this label and callback data (kept: never change it)."""
    return InlineKeyboardButton(text=text, callback_data=data)


class RowsKeyboard:
    """Callback buttons in the order added, cut into rows by `adjust`."""

    def __init__(self) -> None:
        self._buttons: list[InlineKeyboardButton] = []
        self._sizes: tuple[int, ...] = (MAX_WIDTH,)

    def button(self, *, text: str, callback_data: str | CallbackData) -> None:
        data = callback_data.pack() if isinstance(callback_data, CallbackData) else callback_data
        self._buttons.append(callback_button(text, data))

    def add(self, button: InlineKeyboardButton) -> None:
        """A button made already (a kept one: `callback_button`)."""
        self._buttons.append(button)

    def web_app(self, *, text: str, url: str) -> None:
        """A button that opens a Mini App at `url` (Telegram opens only HTTPS addresses)."""
        self._buttons.append(InlineKeyboardButton(text=text, web_app=WebAppInfo(url=url)))

    def adjust(self, *sizes: int) -> None:
        """Rows of these sizes in turn; the last size repeats for the buttons left over."""
        if any(size < 1 or size > MAX_WIDTH for size in sizes):
            raise ValueError(f"row sizes are 1 to {MAX_WIDTH}: {sizes}")
        self._sizes = sizes or (MAX_WIDTH,)

    def as_markup(self) -> InlineKeyboardMarkup:
        sizes = chain(self._sizes, repeat(self._sizes[-1]))
        rows, start = [], 0
        while start < len(self._buttons):
            size = next(sizes)
            rows.append(self._buttons[start : start + size])
            start += size
        return InlineKeyboardMarkup(inline_keyboard=rows)


def tournament_choice(
    tournaments: Sequence[Tournament],
    pressed: Callable[[Tournament], CallbackData],
    label: Callable[[Tournament], str] = lambda tournament: tournament.title,
) -> InlineKeyboardMarkup:
    """A button per tournament, one to a row: the pickers of every command that names a
    tournament; a press carries `pressed(tournament)`."""
    keyboard = RowsKeyboard()
    for tournament in tournaments:
        keyboard.button(text=label(tournament), callback_data=pressed(tournament))
    keyboard.adjust(1)
    return keyboard.as_markup()
