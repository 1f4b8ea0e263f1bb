"""The creation wizard's timetable step by buttons: the regulation's timetable prefilled, each
event's time changed (hour, then quarter) or the event removed, a new event added by its day,
kind, stage (a game's) and time, and "done" checks the whole against the regulation (games per
stage, times in order) before the wizard moves on. A timetable typed as text is still taken
(`handlers.wizard_answers`). The views are `handlers/wizard_timetable_views.py`."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import F, Router
from aiogram.fsm.context import FSMContext
from aiogram.types import CallbackQuery, Message

from bot.config import Settings
from domain import validation
from domain.outgoing import Phrase
from domain.regulation import Regulation, TimetableDay, TimetableEvent
from domain.services.ports import Clock
from handlers.callbacks import WizardTimetable, WizardTimetableAction
from handlers.common import edit_screen
from handlers.middlewares import Texts
from handlers.organizer import Wizard, next_step
from handlers.timetable_views import HOURS, event_phrase
from handlers.wizard_answers import days_of, regulation_of
from handlers.wizard_timetable_views import (
    KINDS,
    MAX_DAYS,
    day_keyboard,
    kind_keyboard,
    stage_keyboard,
    step_keyboard,
    step_text,
    time_keyboard,
)

Action = WizardTimetableAction
Days = tuple[TimetableDay, ...]


def _stored(days: Days) -> str:
    return json.dumps([day.model_dump(mode="json") for day in days if day.events])


def _events(days: Days) -> list[tuple[int, TimetableEvent]]:
    return [(day.day, event) for day in days for event in day.events]


def _without(days: Days, index: int) -> tuple[Days, tuple[int, TimetableEvent]]:
    """The timetable without its event `index`, and that event with its day."""
    removed = _events(days)[index]
    numbers = iter(range(len(_events(days))))
    kept = tuple(
        day.model_copy(update={"events": tuple(e for e in day.events if next(numbers) != index)})
        for day in days
    )
    return kept, removed


def _with(days: Days, day: int, event: TimetableEvent) -> Days:
    """The timetable with `event` on `day`, after the day's last event not later than it (an
    event without a time last)."""
    plan = {d.day: list(d.events) for d in days}
    events = plan.setdefault(day, [])
    position = len(events)
    if event.time is not None:
        later = [i for i, e in enumerate(events) if e.time is not None and e.time > event.time]
        position = later[0] if later else position
    events.insert(position, event)
    return tuple(TimetableDay(day=d, events=tuple(plan[d])) for d in sorted(plan))


def _timed(days: Days, index: int, time: str | None) -> Days:
    """The timetable with event `index` at `time`: in its place when the day's times stay in
    order there, else moved to where they do."""
    numbers = iter(range(len(_events(days))))
    changed = tuple(
        day.model_copy(
            update={
                "events": tuple(
                    e.model_copy(update={"time": time}) if next(numbers) == index else e
                    for e in day.events
                )
            }
        )
        for day in days
    )
    day, event = _events(changed)[index]
    times = [e.time for d in changed if d.day == day for e in d.events if e.time is not None]
    if times == sorted(times):
        return changed
    kept, _ = _without(changed, index)
    return _with(kept, day, event)


def _time(minutes: int) -> str | None:
    return None if minutes < 0 else f"{minutes // 60:02d}:{minutes % 60:02d}"


async def _on_step(
    callback: CallbackQuery, state: FSMContext, texts: Texts
) -> tuple[Message, dict[str, Any], Regulation, Days] | None:
    """The step's screen, data, regulation and timetable; None (answered as out of date) when
    the wizard is not at this step (a press of an old screen)."""
    if await state.get_state() != Wizard.timetable.state or not isinstance(
        callback.message, Message
    ):
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return None
    data = await state.get_data()
    regulation = regulation_of(data)
    return callback.message, data, regulation, days_of(data, regulation)


async def _overview(
    callback: CallbackQuery, message: Message, days: Days, regulation: Regulation, texts: Texts
) -> None:
    await edit_screen(
        message,
        step_text(days, regulation),
        reply_markup=step_keyboard(days, regulation, texts),
        texts=texts,
    )
    await callback.answer()


async def _stale(callback: CallbackQuery, texts: Texts) -> None:
    await callback.answer(texts("button-out-of-date"), show_alert=True)


async def pick_event(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """An event's hours (or, an hour picked, its quarters), "no time" and its removal."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, _, regulation, days = step
    events = _events(days)
    hour = callback_data.v if callback_data.action is Action.HOUR else None
    if callback_data.i >= len(events) or (hour is not None and hour not in HOURS):
        await _stale(callback, texts)
        return
    day, event = events[callback_data.i]
    await edit_screen(
        message,
        Phrase.of("wizard-timetable-event", event=event_phrase(day, event, regulation)),
        texts=texts,
        reply_markup=time_keyboard(callback_data.i, hour, texts),
    )
    await callback.answer()


async def set_time(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The event's new time (or none); the day's order kept."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, _, regulation, days = step
    if callback_data.i >= len(_events(days)):
        await _stale(callback, texts)
        return
    days = _timed(days, callback_data.i, _time(callback_data.v))
    await state.update_data(timetable_json=_stored(days))
    await _overview(callback, message, days, regulation, texts)


async def delete_event(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, _, regulation, days = step
    if callback_data.i >= len(_events(days)):
        await _stale(callback, texts)
        return
    days, _removed = _without(days, callback_data.i)
    await state.update_data(timetable_json=_stored(days))
    await _overview(callback, message, days, regulation, texts)


async def add_event(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """A new event: its day first."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, _, _, days = step
    await state.update_data(timetable_new=None)
    await edit_screen(
        message, texts("wizard-timetable-pick-day"), reply_markup=day_keyboard(days, texts)
    )
    await callback.answer()


async def pick_day(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The new event's day; then its kind."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    if not 1 <= callback_data.v <= MAX_DAYS:
        await _stale(callback, texts)
        return
    await state.update_data(timetable_new={"day": callback_data.v})
    await edit_screen(
        step[0],
        texts("wizard-timetable-pick-kind", day=callback_data.v),
        reply_markup=kind_keyboard(texts),
    )
    await callback.answer()


async def pick_kind(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The new event's kind; then a game's stage, or the time."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, data, regulation, _ = step
    new = data.get("timetable_new") or {}
    if "day" not in new or not 0 <= callback_data.v < len(KINDS):
        await _stale(callback, texts)
        return
    kind = KINDS[callback_data.v]
    await state.update_data(timetable_new={**new, "kind": kind})
    if kind == "game":
        text, markup = texts("wizard-timetable-pick-stage"), stage_keyboard(regulation, texts)
    else:
        text = texts("wizard-timetable-pick-time", kind=kind)
        markup = time_keyboard(None, None, texts)
    await edit_screen(message, text, reply_markup=markup)
    await callback.answer()


async def pick_stage(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The new game's stage; then its time."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, data, regulation, _ = step
    new = data.get("timetable_new") or {}
    if new.get("kind") != "game" or not 0 <= callback_data.v < len(regulation.stages):
        await _stale(callback, texts)
        return
    await state.update_data(timetable_new={**new, "stage": regulation.stages[callback_data.v].id})
    await edit_screen(
        message,
        texts("wizard-timetable-pick-time", kind="game"),
        reply_markup=time_keyboard(None, None, texts),
    )
    await callback.answer()


async def pick_new_hour(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The new event's hour picked: its quarters."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    new = step[1].get("timetable_new") or {}
    if "kind" not in new or callback_data.v not in HOURS:
        await _stale(callback, texts)
        return
    await edit_screen(
        step[0],
        texts("wizard-timetable-pick-time", kind=new["kind"]),
        reply_markup=time_keyboard(None, callback_data.v, texts),
    )
    await callback.answer()


async def set_new_time(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The new event, complete with its time, goes into the timetable."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, data, regulation, days = step
    new = data.get("timetable_new") or {}
    if "kind" not in new or (new["kind"] == "game" and "stage" not in new):
        await _stale(callback, texts)
        return
    event = TimetableEvent(kind=new["kind"], stage=new.get("stage"), time=_time(callback_data.v))
    days = _with(days, new["day"], event)
    await state.update_data(timetable_json=_stored(days), timetable_new=None)
    await _overview(callback, message, days, regulation, texts)


async def back(
    callback: CallbackQuery, callback_data: WizardTimetable, state: FSMContext, texts: Texts
) -> None:
    """The timetable again, a new event left unfinished dropped."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, _, regulation, days = step
    await state.update_data(timetable_new=None)
    await _overview(callback, message, days, regulation, texts)


async def done(
    callback: CallbackQuery,
    callback_data: WizardTimetable,
    state: FSMContext,
    texts: Texts,
    settings: Settings,
    clock: Clock,
) -> None:
    """The timetable checked against the regulation (a refusal says what is wrong and the step
    stays), then the wizard's next question."""
    if (step := await _on_step(callback, state, texts)) is None:
        return
    message, _, regulation, days = step
    mismatch = validation.stage_games_mismatch(days, regulation)
    if mismatch is not None:
        stage, planned = mismatch
        name = stage.name.ru if texts.locale == "ru" else stage.name.en
        reason = texts(
            "wizard-timetable-games", stage=name, planned=planned, games=stage.games_per_player
        )
        await callback.answer(reason, show_alert=True)
        return
    checked = validation.timetable(validation.timetable_lines(days), regulation)
    await callback.answer()
    await next_step(message, state, texts, settings, clock=clock, timetable_json=_stored(checked))


_HANDLERS: dict[Action, Callable[..., Awaitable[None]]] = {
    Action.EVENT: pick_event,
    Action.HOUR: pick_event,
    Action.SET: set_time,
    Action.DELETE: delete_event,
    Action.ADD: add_event,
    Action.DAY: pick_day,
    Action.KIND: pick_kind,
    Action.STAGE: pick_stage,
    Action.NEW_HOUR: pick_new_hour,
    Action.NEW_SET: set_new_time,
    Action.BACK: back,
    Action.DONE: done,
}


def make_router() -> Router:
    """The wizard's timetable step's buttons."""
    router = Router(name="wizard-timetable")
    for action, handler in _HANDLERS.items():
        router.callback_query.register(handler, WizardTimetable.filter(F.action == action))
    return router
