"""The organizer's timetable screen: the tournament's timetable (the regulation's, prefilled)
and the reminders it drives; he edits it by buttons (an event, then its hour and minutes) or
sends it back edited as text, and the reminders move with it.

The screen opens from the tournament card. A timetable, typed or changed by buttons, is checked
by the use case (lines, "HH:MM" times, games per stage); a refusal says what is wrong and the
screen keeps waiting.
"""

from __future__ import annotations

from html import escape
from zoneinfo import ZoneInfo

from aiogram import F, Router
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.config import Settings
from domain.regulation import TimetableEvent
from domain.services.ports import Clock, UnitOfWorkFactory
from domain.services.reminders import TimetableView, set_timetable, timetable_of
from domain.users import User
from domain.validation import timetable_lines
from handlers.callbacks import TimetableButton
from handlers.common import edit_screen
from handlers.middlewares import Texts

VIEW, RESET = "view", "reset"
# Editing by buttons: an event (`i`, its index), its hour (`v`), its time (`v` minutes of the
# day, -1 for none).
EVENT, HOUR, SET = "ev", "hr", "set"
ACTS = frozenset({VIEW, RESET, EVENT, HOUR, SET})
HOURS = range(8, 24)
MINUTES = (0, 15, 30, 45)


class TimetableForm(StatesGroup):
    text = State()


def screen_text(view: TimetableView, texts: Texts) -> str:
    """The timetable as the organizer edits it, and how many reminders wait, the next when."""
    tournament = view.tournament
    first = view.reminders[0].due_at if view.reminders else None
    zone = ZoneInfo(tournament.timezone)
    return texts(
        "timetable-screen",
        tournament=escape(tournament.title),
        source="adjusted" if view.adjusted else "regulation",
        timezone=tournament.timezone,
        timetable=escape(timetable_lines(tournament.timetable)) or "-",
        count=len(view.reminders),
        next=first.astimezone(zone).strftime("%d.%m %H:%M") if first else "-",
    )


def _events(view: TimetableView) -> list[tuple[int, TimetableEvent]]:
    return [(day.day, event) for day in view.tournament.timetable for event in day.events]


def _keyboard(view: TimetableView, texts: Texts) -> InlineKeyboardMarkup | None:
    """A button per event (to change its time), and the regulation's timetable back."""
    tid = view.tournament.id
    keyboard = InlineKeyboardBuilder()
    for index, (day, event) in enumerate(_events(view)):
        label = " ".join(filter(None, (str(day), event.time or "—", event.kind, event.stage)))
        keyboard.button(text=label, callback_data=TimetableButton(tid=tid, act=EVENT, i=index))
    if view.adjusted:
        keyboard.button(
            text=texts("timetable-keep-regulation"),
            callback_data=TimetableButton(tid=tid, act=RESET),
        )
    keyboard.adjust(2)
    return keyboard.as_markup()


def _time_keyboard(tid: int, index: int, hour: int | None, texts: Texts) -> InlineKeyboardMarkup:
    """The hours of the day, then (an hour picked) its quarters; "no time" and back."""
    keyboard = InlineKeyboardBuilder()
    if hour is None:
        for value in HOURS:
            data = TimetableButton(tid=tid, act=HOUR, i=index, v=value)
            keyboard.button(text=f"{value:02d}:…", callback_data=data)
        sizes = [4] * (len(HOURS) // 4)
    else:
        for minute in MINUTES:
            data = TimetableButton(tid=tid, act=SET, i=index, v=hour * 60 + minute)
            keyboard.button(text=f"{hour:02d}:{minute:02d}", callback_data=data)
        sizes = [len(MINUTES)]
    keyboard.button(
        text=texts("timetable-no-time"),
        callback_data=TimetableButton(tid=tid, act=SET, i=index, v=-1),
    )
    keyboard.button(text=texts("timetable-back"), callback_data=TimetableButton(tid=tid, act=VIEW))
    keyboard.adjust(*sizes, 2)
    return keyboard.as_markup()


def _with_time(view: TimetableView, index: int, minutes: int) -> str:
    """The timetable as text with event `index` at `minutes` past midnight (-1: no time)."""
    time = None if minutes < 0 else f"{minutes // 60:02d}:{minutes % 60:02d}"
    numbers = iter(range(len(_events(view))))
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
    user: User,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    settings: Settings,
    clock: Clock,
) -> None:
    tid, admins, act = callback_data.tid, settings.admin_ids, callback_data.act
    if act == RESET:
        view = await set_timetable(uow_factory, tid, user.telegram_id, admins, None, clock.now())
    else:
        view = await timetable_of(uow_factory, tid, user.telegram_id, admins, clock.now())
    if not isinstance(callback.message, Message):
        await callback.answer()
        return
    if act in (EVENT, HOUR, SET) and (
        callback_data.i >= len(_events(view)) or (act == HOUR and callback_data.v not in HOURS)
    ):
        # A button of an event since removed, or forged: it changes nothing.
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    if act in (EVENT, HOUR):
        day, event = _events(view)[callback_data.i]
        hour = callback_data.v if act == HOUR else None
        what = " ".join(filter(None, (str(day), event.kind, event.stage)))
        await edit_screen(
            callback.message,
            texts("timetable-pick-time", event=escape(what)),
            reply_markup=_time_keyboard(tid, callback_data.i, hour, texts),
        )
        await callback.answer()
        return
    if act == SET:
        text = _with_time(view, callback_data.i, callback_data.v)
        view = await set_timetable(uow_factory, tid, user.telegram_id, admins, text, clock.now())
        await edit_screen(
            callback.message,
            texts("timetable-saved") + "\n\n" + screen_text(view, texts),
            reply_markup=_keyboard(view, texts),
        )
        await callback.answer(texts("timetable-saved"))
        return
    await callback.answer()
    await state.set_state(TimetableForm.text)
    await state.update_data(timetable_tid=tid)
    await callback.message.answer(
        screen_text(view, texts) + "\n\n" + texts("timetable-ask"),
        reply_markup=_keyboard(view, texts),
    )


async def take_timetable(
    message: Message,
    state: FSMContext,
    user: User,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    settings: Settings,
    clock: Clock,
) -> None:
    tid = (await state.get_data())["timetable_tid"]
    view = await set_timetable(
        uow_factory, tid, user.telegram_id, settings.admin_ids, message.text, clock.now()
    )
    await state.clear()
    await message.answer(
        texts("timetable-saved") + "\n\n" + screen_text(view, texts),
        reply_markup=_keyboard(view, texts),
    )


def make_router() -> Router:
    """The timetable screen of the tournament card."""
    router = Router(name="timetable")
    router.message.filter(F.chat.type == "private")
    router.callback_query.register(open_timetable, TimetableButton.filter(F.act.in_(ACTS)))
    router.message.register(take_timetable, TimetableForm.text, F.text, ~F.text.startswith("/"))
    return router
