"""The organizer's timetable screen: the tournament's timetable (the regulation's, prefilled)
and the reminders it drives; he edits it by buttons (an event, then its hour and minutes) or
sends it back edited as text, and the reminders move with it.

The screen opens from the tournament card. A timetable, typed or changed by buttons, is checked
by the use case (lines, "HH:MM" times, games per stage); a refusal says what is wrong and the
screen keeps waiting. Its texts and keyboards are in `handlers/timetable_views.py`.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from domain.actor import Actor
from domain.layout import lines
from domain.outgoing import Phrase
from domain.services.catalog import Services
from domain.services.reminders import TimetableView
from domain.validation import timetable_lines
from handlers.callbacks import TimetableAction, TimetableButton
from handlers.common import answer, edit_screen
from handlers.middlewares import Texts
from handlers.timetable_views import (
    HOURS,
    event_phrase,
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
    services: Services,
) -> None:
    view = await services.timetables.timetable_of(actor, callback_data.tournament_id)
    await _ask_timetable(callback, view, state, texts)


async def reset_timetable(
    callback: CallbackQuery,
    callback_data: TimetableButton,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The regulation's timetable again."""
    view = await services.timetables.set_timetable(actor, callback_data.tournament_id, None)
    await _ask_timetable(callback, view, state, texts)


async def _ask_timetable(
    callback: CallbackQuery, view: TimetableView, state: FSMContext, texts: Texts
) -> None:
    """The timetable as a new message, its buttons under it; a timetable typed next replaces
    it."""
    await callback.answer()
    if not isinstance(callback.message, Message):
        return
    await state.set_state(TimetableForm.text)
    await state.update_data(timetable_tid=view.tournament.id)
    await answer(
        callback.message,
        lines([screen_text(view), Phrase.of("timetable-ask")], "\n\n"),
        texts,
        reply_markup=timetable_keyboard(view, texts),
    )


async def _pressed_event(
    callback: CallbackQuery,
    press: TimetableButton,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> tuple[TimetableView, Message] | None:
    """The timetable and the screen an event's button was pressed on, or None (the press
    answered) for a button of an event since removed, or forged: it changes nothing."""
    view = await services.timetables.timetable_of(actor, press.tournament_id)
    if not isinstance(callback.message, Message):
        await callback.answer()
        return None
    if press.i >= len(timetable_events(view)) or (
        press.action is TimetableAction.HOUR and press.v not in HOURS
    ):
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return None
    return view, callback.message


async def pick_time(
    callback: CallbackQuery,
    callback_data: TimetableButton,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """An event's hours to pick from, or (an hour picked: `v`) its quarters."""
    press = callback_data
    if (pressed := await _pressed_event(callback, press, actor, texts, services)) is None:
        return
    view, message = pressed
    day, event = timetable_events(view)[press.i]
    hour = press.v if press.action is TimetableAction.HOUR else None
    what = event_phrase(day, event.model_copy(update={"time": None}), view.tournament.regulation)
    await edit_screen(
        message,
        Phrase.of("timetable-pick-time", event=what),
        reply_markup=time_keyboard(press.tournament_id, press.i, hour, texts),
        texts=texts,
    )
    await callback.answer()


async def set_time(
    callback: CallbackQuery,
    callback_data: TimetableButton,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The event's time (`v` minutes of the day, -1 for none) saved."""
    press = callback_data
    if (pressed := await _pressed_event(callback, press, actor, texts, services)) is None:
        return
    view, message = pressed
    text = _with_time(view, press.i, press.v)
    view = await services.timetables.set_timetable(actor, press.tournament_id, text)
    await edit_screen(
        message,
        lines([Phrase.of("timetable-saved"), screen_text(view)], "\n\n"),
        reply_markup=timetable_keyboard(view, texts),
        texts=texts,
    )
    await callback.answer(texts("timetable-saved"))


async def take_timetable(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    tournament_id = (await state.get_data())["timetable_tid"]
    view = await services.timetables.set_timetable(actor, tournament_id, message.text)
    await state.clear()
    await answer(
        message,
        lines([Phrase.of("timetable-saved"), screen_text(view)], "\n\n"),
        texts,
        reply_markup=timetable_keyboard(view, texts),
    )


def make_router() -> Router:
    """The timetable screen of the tournament card."""
    router = Router(name="timetable")
    router.message.filter(F.chat.type == "private")
    button = TimetableButton.filter
    router.callback_query.register(open_timetable, button(F.action == TimetableAction.VIEW))
    router.callback_query.register(reset_timetable, button(F.action == TimetableAction.RESET))
    picks = {TimetableAction.EVENT, TimetableAction.HOUR}
    router.callback_query.register(pick_time, button(F.action.in_(picks)))
    router.callback_query.register(set_time, button(F.action == TimetableAction.SET))
    router.message.register(take_timetable, TimetableForm.text, F.text, ~F.text.startswith("/"))
    return router
