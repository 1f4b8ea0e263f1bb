"""The last router: a button press nobody claimed is a button that is out of date.

Its data may be malformed, forged, from a keyboard of an earlier state (the wizard's old preset
buttons) or carry ids out of range (every id field of the callback data is bounded, so such data
matches no handler); whatever it is, the person is told at once and nothing changes.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery

from handlers.common import WORKING
from handlers.middlewares import Texts


async def still_working(callback: CallbackQuery, texts: Texts) -> None:
    await callback.answer(texts("work-in-progress"))


async def out_of_date(callback: CallbackQuery, texts: Texts) -> None:
    await callback.answer(texts("button-out-of-date"), show_alert=True)


def make_router() -> Router:
    """The "working…" button of long work, then the catch-all for button presses; include
    it after every other router."""
    router = Router(name="buttons")
    router.callback_query.register(still_working, F.data == WORKING)
    router.callback_query.register(out_of_date)
    return router
