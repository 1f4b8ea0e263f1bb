"""The organizer's timetable screen: the tournament's timetable (the regulation's, prefilled)
and the reminders it drives; he sends it back edited and the reminders move with it.

The screen opens from the tournament card. A typed timetable is checked by the use case (lines,
"HH:MM" times, games per stage); a refusal says what is wrong and the screen keeps waiting.
"""

from __future__ import annotations

from html import escape
from zoneinfo import ZoneInfo

from aiogram import F, Router
from aiogram.filters.callback_data import CallbackData
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.config import Settings
from domain.services.ports import Clock, UnitOfWorkFactory
from domain.services.reminders import TimetableView, set_timetable, timetable_of
from domain.users import User
from domain.validation import timetable_lines
from handlers.callbacks import RowId
from handlers.common import refusals_answered
from handlers.middlewares import Texts

VIEW, RESET = "view", "reset"


class TimetableButton(CallbackData, prefix="tt"):
    """The card's "Timetable" button (`view`) and the screen's "restore" button (`reset`)."""

    tid: RowId
    act: str


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


def _keyboard(view: TimetableView, texts: Texts) -> InlineKeyboardMarkup | None:
    if not view.adjusted:
        return None
    keyboard = InlineKeyboardBuilder()
    keyboard.button(
        text=texts("timetable-keep-regulation"),
        callback_data=TimetableButton(tid=view.tournament.id, act=RESET),
    )
    return keyboard.as_markup()


@refusals_answered
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
    tid, admins = callback_data.tid, settings.admin_ids
    if callback_data.act == RESET:
        view = await set_timetable(uow_factory, tid, user.telegram_id, admins, None, clock.now())
    else:
        view = await timetable_of(uow_factory, tid, user.telegram_id, admins, clock.now())
    await callback.answer()
    if not isinstance(callback.message, Message):
        return
    await state.set_state(TimetableForm.text)
    await state.update_data(timetable_tid=tid)
    await callback.message.answer(
        screen_text(view, texts) + "\n\n" + texts("timetable-ask"),
        reply_markup=_keyboard(view, texts),
    )


@refusals_answered
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
    router.callback_query.register(open_timetable, TimetableButton.filter())
    router.message.register(take_timetable, TimetableForm.text, F.text, ~F.text.startswith("/"))
    return router
