"""The protocol screen's keyboard lays buttons out exactly as aiogram's builder does."""

from __future__ import annotations

from aiogram.utils.keyboard import InlineKeyboardBuilder
from hypothesis import given
from hypothesis import strategies as st

from handlers.keyboards import RowsKeyboard


@given(
    buttons=st.integers(min_value=0, max_value=40),
    sizes=st.lists(st.integers(min_value=1, max_value=8), max_size=12),
)
def test_rows_are_the_builders_rows(buttons: int, sizes: list[int]) -> None:
    ours, theirs = RowsKeyboard(), InlineKeyboardBuilder()
    for number in range(buttons):
        ours.button(text=f"b{number}", callback_data=f"d{number}")
        theirs.button(text=f"b{number}", callback_data=f"d{number}")
    if sizes:
        ours.adjust(*sizes)
        theirs.adjust(*sizes)
    assert ours.as_markup() == theirs.as_markup()
