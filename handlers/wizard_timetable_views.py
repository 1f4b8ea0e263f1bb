"""The creation wizard's timetable step as buttons: the timetable in the reader's language with
a button per event, an event's time (hour, then quarter) or removal, and a new event chosen
step by step (day, kind, stage of a game, time)."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.outgoing import Phrase
from domain.regulation import Regulation, TimetableDay, TimetableEvent
from handlers.callbacks import WizardKeep, WizardTimetable, WizardTimetableAction
from handlers.middlewares import Texts
from handlers.timetable_views import add_time_choices, event_label, readable_timetable

Action = WizardTimetableAction
# The kinds of event a timetable knows, in the order the buttons offer them.
KINDS: tuple[str, ...] = get_args(TimetableEvent.model_fields["kind"].annotation)
# How many days a timetable may plan (the buttons offer one more than it has, up to this).
MAX_DAYS = 7


def step_text(days: tuple[TimetableDay, ...], regulation: Regulation) -> Phrase:
    """The step's question with the timetable as it stands."""
    return Phrase.of("wizard-ask-timetable", timetable=readable_timetable(days, regulation))


def step_keyboard(
    days: tuple[TimetableDay, ...], regulation: Regulation, texts: Texts
) -> InlineKeyboardMarkup:
    """A button per event, then "add an event", "done" and the regulation's timetable."""
    keyboard = InlineKeyboardBuilder()
    events = [(day.day, event) for day in days for event in day.events]
    for index, (day, event) in enumerate(events):
        keyboard.button(
            text=event_label(day, event, regulation, texts),
            callback_data=WizardTimetable(action=Action.EVENT, i=index),
        )
    keyboard.button(
        text=texts("wizard-timetable-add"), callback_data=WizardTimetable(action=Action.ADD)
    )
    keyboard.button(
        text=texts("wizard-timetable-done"), callback_data=WizardTimetable(action=Action.DONE)
    )
    keyboard.button(text=texts("wizard-keep-timetable"), callback_data=WizardKeep(step="timetable"))
    keyboard.adjust(1)
    return keyboard.as_markup()


def time_keyboard(index: int | None, hour: int | None, texts: Texts) -> InlineKeyboardMarkup:
    """The hours, then (an hour picked) its quarters, "no time" and back; for the event
    `index`, or for the new event (None), which may also be removed (an event only)."""
    keyboard = InlineKeyboardBuilder()
    new = index is None
    i = index or 0

    def pressed(action: Action) -> Callable[[int], WizardTimetable]:
        return lambda value: WizardTimetable(action=action, i=i, v=value)

    set_time = pressed(Action.NEW_SET if new else Action.SET)
    sizes = add_time_choices(
        keyboard, hour, pressed(Action.NEW_HOUR if new else Action.HOUR), set_time
    )
    keyboard.button(text=texts("timetable-no-time"), callback_data=set_time(-1))
    if not new:
        keyboard.button(
            text=texts("wizard-timetable-delete"),
            callback_data=WizardTimetable(action=Action.DELETE, i=i),
        )
    keyboard.button(text=texts("timetable-back"), callback_data=WizardTimetable(action=Action.BACK))
    keyboard.adjust(*sizes, 1, 1, 1)
    return keyboard.as_markup()


def day_keyboard(days: tuple[TimetableDay, ...], texts: Texts) -> InlineKeyboardMarkup:
    """The days a new event may go to: each planned one and the next."""
    last = max((day.day for day in days), default=0)
    keyboard = InlineKeyboardBuilder()
    for day in range(1, min(last + 1, MAX_DAYS) + 1):
        keyboard.button(
            text=texts("wizard-timetable-day", day=day),
            callback_data=WizardTimetable(action=Action.DAY, v=day),
        )
    keyboard.button(text=texts("timetable-back"), callback_data=WizardTimetable(action=Action.BACK))
    keyboard.adjust(4, 1)
    return keyboard.as_markup()


def kind_keyboard(texts: Texts) -> InlineKeyboardMarkup:
    """What the new event is: registration, opening, a game... in the reader's words."""
    keyboard = InlineKeyboardBuilder()
    for index, kind in enumerate(KINDS):
        keyboard.button(
            text=texts("wizard-timetable-kind", kind=kind),
            callback_data=WizardTimetable(action=Action.KIND, v=index),
        )
    keyboard.button(text=texts("timetable-back"), callback_data=WizardTimetable(action=Action.BACK))
    keyboard.adjust(2)
    return keyboard.as_markup()


def stage_keyboard(regulation: Regulation, texts: Texts) -> InlineKeyboardMarkup:
    """The stage a new game belongs to, by its name in the reader's language."""
    keyboard = InlineKeyboardBuilder()
    for index, stage in enumerate(regulation.stages):
        keyboard.button(
            text=stage.name.ru if texts.locale == "ru" else stage.name.en,
            callback_data=WizardTimetable(action=Action.STAGE, v=index),
        )
    keyboard.button(text=texts("timetable-back"), callback_data=WizardTimetable(action=Action.BACK))
    keyboard.adjust(1)
    return keyboard.as_markup()
