"""The organizer's timetable screen: the tournament's timetable (the regulation's, prefilled)
and the reminders it drives; he edits it by buttons (an event, then its hour and minutes) or
sends it back edited as text, and the reminders move with it.

The screen opens from the tournament card. A timetable, typed or changed by buttons, is checked
by the use case (lines, "HH:MM" times, games per stage); a refusal says what is wrong and the
screen keeps waiting. Its texts and keyboards are in `handlers/timetable_views.py`.
"""

from __future__ import annotations

from html import escape

from aiogram import F, Router
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from domain.actor import Actor
from domain.services.ports import UnitOfWorkFactory
from domain.services.reminders import TimetableView, set_timetable, timetable_of
from domain.validation import timetable_lines
from handlers.callbacks import TimetableButton
from handlers.common import edit_screen
from handlers.middlewares import Texts
from handlers.timetable_views import (
    ACTS,
    EVENT,
    HOUR,
    HOURS,
    RESET,
    SET,
    screen_text,
    time_keyboard,
    timetable_events,
    timetable_keyboard,
)


class TimetableForm(StatesGroup):
    text = State()


def _with_time(view: TimetableView, index: int, minutes: int) -> str:
    """The timetable as text with event `index` at `minutes` past midnight (-1: no time)."""
    time = None if minutes < 0 else f"{minutes // 60:02d}:{minutes % 60:02d}"
    numbers = iter(range(len(timetable_events(view))))
    days = tuple(
        day.model_copy(
            update={
                "events": tuple(
                    event.model_copy(update={"time": time}) if next(numbers) == index else event
                    for event in day.events
                )
            }
        )
        for day in view.tournament.timetable
    )
    return timetable_lines(days)


async def open_timetable(
    callback: CallbackQuery,
    callback_data: TimetableButton,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    tid, act = callback_data.tid, callback_data.act
    if act == RESET:
        view = await set_timetable(uow_factory, actor, tid, None)
    else:
        view = await timetable_of(uow_factory, actor, tid)
    if not isinstance(callback.message, Message):
        await callback.answer()
        return
    if act in (EVENT, HOUR, SET) and (
        callback_data.i >= len(timetable_events(view))
        or (act == HOUR and callback_data.v not in HOURS)
    ):
        # A button of an event since removed, or forged: it changes nothing.
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    if act in (EVENT, HOUR):
        day, event = timetable_events(view)[callback_data.i]
        hour = callback_data.v if act == HOUR else None
        what = " ".join(filter(None, (str(day), event.kind, event.stage)))
        await edit_screen(
            callback.message,
            texts("timetable-pick-time", event=escape(what)),
            reply_markup=time_keyboard(tid, callback_data.i, hour, texts),
        )
        await callback.answer()
        return
    if act == SET:
        text = _with_time(view, callback_data.i, callback_data.v)
        view = await set_timetable(uow_factory, actor, tid, text)
        await edit_screen(
            callback.message,
            texts("timetable-saved") + "\n\n" + screen_text(view, texts),
            reply_markup=timetable_keyboard(view, texts),
        )
        await callback.answer(texts("timetable-saved"))
        return
    await callback.answer()
    await state.set_state(TimetableForm.text)
    await state.update_data(timetable_tid=tid)
    await callback.message.answer(
        screen_text(view, texts) + "\n\n" + texts("timetable-ask"),
        reply_markup=timetable_keyboard(view, texts),
    )


async def take_timetable(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    tid = (await state.get_data())["timetable_tid"]
    view = await set_timetable(uow_factory, actor, tid, message.text)
    await state.clear()
    await message.answer(
        texts("timetable-saved") + "\n\n" + screen_text(view, texts),
        reply_markup=timetable_keyboard(view, texts),
    )


def make_router() -> Router:
    """The timetable screen of the tournament card."""
    router = Router(name="timetable")
    router.message.filter(F.chat.type == "private")
    router.callback_query.register(open_timetable, TimetableButton.filter(F.act.in_(ACTS)))
    router.message.register(take_timetable, TimetableForm.text, F.text, ~F.text.startswith("/"))
    return router
