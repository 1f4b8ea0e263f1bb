"""The timetable screen's views: the timetable as the organizer edits it, its events' buttons,
the hour and quarter pickers.
"""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import lines
from domain.outgoing import Lines, Localized, Phrase
from domain.regulation import Regulation, TimetableDay, TimetableEvent
from domain.services.reminders import TimetableView
from handlers.callbacks import TimetableAction, TimetableButton
from handlers.middlewares import Texts
from handlers.timezone_views import zone_name

HOURS = range(8, 24)
MINUTES = (0, 15, 30, 45)


def screen_text(view: TimetableView) -> Phrase:
    """The timetable as the organizer edits it, and how many reminders wait, the next when."""
    tournament = view.tournament
    first = view.reminders[0].due_at if view.reminders else None
    zone = ZoneInfo(tournament.timezone)
    return Phrase.of(
        "timetable-screen",
        tournament=tournament.title,
        source="adjusted" if view.adjusted else "regulation",
        timezone=zone_name(tournament.timezone),
        timetable=readable_timetable(tournament.timetable, tournament.regulation),
        count=len(view.reminders),
        next=first.astimezone(zone).strftime("%d.%m %H:%M") if first else "-",
    )


def event_phrase(day: int, event: TimetableEvent, regulation: Regulation) -> Phrase:
    """An event as the reader says it: "день 1 · 12:30 · игры: Отборочный этап"."""
    stage = next((s for s in regulation.stages if s.id == event.stage), None)
    return Phrase.of(
        "timetable-event",
        day=day,
        time=event.time or "—",
        kind=event.kind,
        stage=Localized(stage.name.ru, stage.name.en) if stage else "none",
    )


def event_label(day: int, event: TimetableEvent, regulation: Regulation, texts: Texts) -> str:
    """An event on its button (a label is plain text)."""
    return texts.plain(event_phrase(day, event, regulation))


def readable_timetable(days: tuple[TimetableDay, ...], regulation: Regulation) -> Lines:
    """The timetable in the reader's language, an event a line ("-" when it has none)."""
    events = [event_phrase(d.day, e, regulation) for d in days for e in d.events]
    return lines(events or ["-"])


def timetable_events(view: TimetableView) -> list[tuple[int, TimetableEvent]]:
    return [(day.day, event) for day in view.tournament.timetable for event in day.events]


def timetable_keyboard(view: TimetableView, texts: Texts) -> InlineKeyboardMarkup | None:
    """A button per event (to change its time), and the regulation's timetable back."""
    tournament_id = view.tournament.id
    keyboard = InlineKeyboardBuilder()
    for index, (day, event) in enumerate(timetable_events(view)):
        label = event_label(day, event, view.tournament.regulation, texts)
        keyboard.button(
            text=label,
            callback_data=TimetableButton(
                tournament_id=tournament_id, action=TimetableAction.EVENT, i=index
            ),
        )
    if view.adjusted:
        keyboard.button(
            text=texts("timetable-keep-regulation"),
            callback_data=TimetableButton(
                tournament_id=tournament_id, action=TimetableAction.RESET
            ),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def add_time_choices(
    keyboard: InlineKeyboardBuilder,
    hour: int | None,
    hour_button: Callable[[int], CallbackData],
    time_button: Callable[[int], CallbackData],
) -> list[int]:
    """The hours of the day, or (an hour picked) its quarters, added to `keyboard`; the sizes
    of the rows they take. `time_button` is given the minutes since midnight."""
    if hour is None:
        for value in HOURS:
            keyboard.button(text=f"{value:02d}:…", callback_data=hour_button(value))
        return [4] * (len(HOURS) // 4)
    for minute in MINUTES:
        keyboard.button(
            text=f"{hour:02d}:{minute:02d}", callback_data=time_button(hour * 60 + minute)
        )
    return [len(MINUTES)]


def time_keyboard(
    tournament_id: int, index: int, hour: int | None, texts: Texts
) -> InlineKeyboardMarkup:
    """The hours of the day, then (an hour picked) its quarters; "no time" and back."""
    keyboard = InlineKeyboardBuilder()

    def pressed(action: TimetableAction) -> Callable[[int], TimetableButton]:
        return lambda value: TimetableButton(
            tournament_id=tournament_id, action=action, i=index, v=value
        )

    sizes = add_time_choices(
        keyboard, hour, pressed(TimetableAction.HOUR), pressed(TimetableAction.SET)
    )
    keyboard.button(text=texts("timetable-no-time"), callback_data=pressed(TimetableAction.SET)(-1))
    keyboard.button(
        text=texts("timetable-back"),
        callback_data=TimetableButton(tournament_id=tournament_id, action=TimetableAction.VIEW),
    )
    keyboard.adjust(*sizes, 2)
    return keyboard.as_markup()
