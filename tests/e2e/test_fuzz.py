"""Whatever a person types or a client sends as a button's data, the bot answers and never
crashes: every text handler (every form's state and every command) and every callback prefix
is fuzzed through the real Dispatcher and the fake Telegram."""

from __future__ import annotations

import importlib
import logging
import pkgutil
from typing import Any, TypeVar

import pytest
from aiogram import Dispatcher
from aiogram.filters import Command, StateFilter
from aiogram.filters.callback_data import CallbackData
from aiogram.fsm.state import State, StatesGroup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import handlers
from bot.app import Application
from handlers.common import WORKING
from handlers.routers import all_routers
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.simulation.screens import WAIT, current
from tests.e2e.lifecycle_screens import ADMIN_ID
from tests.examples import examples

FUZZ = settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
APOLOGY = "Что-то пошло не так"
OUT_OF_DATE = "Эта кнопка устарела: экран уже изменился. Откройте его заново."
T = TypeVar("T")


def _registered() -> tuple[list[str], list[str], list[State]]:
    """The callback prefixes, commands and form states the Dispatcher's handlers are registered
    for, read from the routers themselves: a new button, command or form is fuzzed without
    touching this test."""
    dispatcher = Dispatcher()
    dispatcher.include_routers(*all_routers())
    prefixes: set[str] = set()
    commands: set[str] = set()
    states: set[State] = set()
    for router in dispatcher.chain_tail:
        for observer in (router.message, router.callback_query):
            for handler in observer.handlers:
                for kept in handler.filters or []:
                    check = kept.callback
                    # aiogram's `CallbackData.filter()`, or a filter of the project's own
                    # that names its kind of button as that one does (the protocol's presses).
                    kind = getattr(check, "callback_data", None)
                    if isinstance(kind, type) and issubclass(kind, CallbackData):
                        prefixes.add(kind.__prefix__)
                    elif isinstance(check, Command):
                        commands.update(c for c in check.commands if isinstance(c, str))
                    elif isinstance(check, State):
                        states.add(check)
                    elif isinstance(check, StateFilter):
                        states.update(s for s in check.states if isinstance(s, State))
    return sorted(prefixes), sorted(commands), sorted(states, key=lambda s: s.state or "")


def _declared(root: type[T]) -> list[type[T]]:
    """Every subclass of `root` defined in the handlers."""
    for module in pkgutil.iter_modules(handlers.__path__):
        importlib.import_module(f"handlers.{module.name}")
    found, pending = [], list(root.__subclasses__())
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return [kind for kind in found if kind.__module__.startswith("handlers.")]


PREFIXES, COMMANDS, FORM_STATES = _registered()
KINDS = {kind.__prefix__: kind for kind in _declared(CallbackData)}
# Every state a person can be in, whether or not a handler reads text in it (the registration's
# confirmation waits for a button: what he types there goes to the other handlers).
STATES = sorted(
    {*FORM_STATES, *(s for group in _declared(StatesGroup) for s in group.__all_states__)},
    key=lambda state: state.state or "",
)


def test_every_button_the_handlers_declare_has_a_handler() -> None:
    # A keyboard offering a button no handler takes would leave people with presses that
    # only ever say "out of date"; the fuzz below covers every prefix registered.
    assert set(KINDS) == set(PREFIXES)
    assert set(FORM_STATES) <= set(STATES)
    assert {"start", "new", "cancel", "help", "lang"} <= set(COMMANDS)


# Numbers as a forger writes them: ids that exist, ids out of every range, odd digits.
NUMBERS = st.one_of(
    st.sampled_from(["0", "1", "2", "-1", "10", "²", "٣", "1e3", "", "x", "9" * 23, "9" * 30]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
WORDS = st.one_of(
    st.sampled_from(["view", "open", "seat", "pub", "confirm", "csv", "file", "all", "ru", "c"]),
    st.text(max_size=12),
)
FIELD = st.one_of(NUMBERS, WORDS)
TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(NUMBERS, WORDS), max_size=6).map(" ".join),
    st.sampled_from(["31.12.2099", "31.12.2099 10:00", "Asia/Omsk", "@cup_channel", "1.1"]),
)


def _forged_data(prefix: str, fields: list[str]) -> str:
    return ":".join([prefix, *fields])[:64]


def _failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{record.getMessage()}: {record.exc_info[1]!r}" if record.exc_info else record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.ERROR
    ]


def _unpacks(data: str) -> bool:
    """Whether `data` is a well-formed press of its prefix's button (its fields in range)."""
    kind = KINDS.get(data.split(":", 1)[0])
    if kind is None:
        return False
    try:
        kind.unpack(data)
    except (TypeError, ValueError):
        return False
    return True


@given(
    prefix=st.sampled_from([*PREFIXES, WORKING, "", "zz"]),
    fields=st.lists(FIELD, max_size=5),
    stranger=st.booleans(),
)
@FUZZ
async def test_every_forged_button_is_answered_and_crashes_nothing(
    fake_telegram: FakeTelegram,
    cup_card: ChatMessage,
    caplog: pytest.LogCaptureFixture,
    prefix: str,
    fields: list[str],
    stranger: bool,
) -> None:
    organizer = fake_telegram.user(ADMIN_ID, "Орг")
    # The organizer's own card, or a copy of it in another person's hands.
    presser = fake_telegram.user(ADMIN_ID + 1, "Чужой") if stranger else organizer
    data = _forged_data(prefix, fields)
    before = current(organizer, cup_card)
    seen = len(organizer.messages)
    caplog.clear()
    answer = await presser.forge_press(cup_card, data).answer(WAIT)
    await fake_telegram.wait_idle(timeout=WAIT)
    assert _failures(caplog) == []
    assert APOLOGY not in (answer.text or "")
    if prefix != WORKING and not _unpacks(data):
        # Malformed, unknown or out of range: said so, and nothing changed.
        assert (answer.text, answer.show_alert) == (OUT_OF_DATE, True), data
        assert current(organizer, cup_card) == before
        assert organizer.messages[seen:] == []


@given(
    state=st.sampled_from([None, *STATES]),
    text=st.one_of(TEXT, st.tuples(st.sampled_from(COMMANDS), TEXT).map("/{0[0]} {0[1]}".format)),
)
@FUZZ
async def test_no_typed_text_in_any_form_crashes_the_bot(
    admin_app: Application,
    fake_telegram: FakeTelegram,
    cup_card: ChatMessage,
    caplog: pytest.LogCaptureFixture,
    state: State | None,
    text: str,
) -> None:
    organizer = fake_telegram.user(ADMIN_ID, "Орг")
    await _enter(admin_app, organizer, state)
    caplog.clear()
    seen = len(organizer.messages)
    organizer.send(text or ".")
    await fake_telegram.wait_idle(timeout=WAIT)
    assert _failures(caplog) == []
    assert not any(APOLOGY in (m.text or "") for m in organizer.messages[seen:])


# What each form keeps while it waits for a typed answer: the wizard's answers so far and the
# tournament (1), participant, game and protest the other forms were opened for.
FORM_DATA: dict[str, Any] = {
    "regulation_id": "siberia-ural-teams",
    "regulation_json": None,
    "title": "Кубок",
    "city": "Омск",
    "venue": "Клуб",
    "starts_on": "2099-12-30",
    "ends_on": "2099-12-31",
    "timezone": "Europe/Moscow",
    "capacity": 60,
    "tid": 1,
    "team_id": None,
    "editing": False,
    "nickname": "Ник",
    "club": "Клуб",
    "pid": 1,
    "tournament": 1,
    "game": 1,
    "protest": 1,
    "accept": True,
    "timetable_tid": 1,
}


async def _enter(app: Application, person: FakeUser, state: State | None) -> None:
    context = app.dispatcher.fsm.get_context(app.bot, chat_id=person.id, user_id=person.id)
    await context.set_state(state)
    await context.set_data(FORM_DATA if state is not None else {})
