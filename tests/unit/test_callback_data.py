"""Every kind of button has its own callback prefix, so no press reaches the wrong screen, and
every pushed button's intent reaches the screen that answers it."""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from enum import Enum
from types import UnionType
from typing import get_args

import pytest
from aiogram.filters.callback_data import CallbackData
from aiogram.types import CallbackQuery, User

import handlers
from bot.db.repositories import stored_messages
from domain.intents import (
    CheckIn,
    DecideProtest,
    FileProtest,
    OpenLot,
    OpenProtocol,
    ProtestChoice,
    intent_fields,
)
from handlers import callbacks
from handlers.callbacks import (
    DecisionButton,
    LotAction,
    LotButton,
    ProtestButton,
    ProtocolAction,
    ProtocolButton,
)
from handlers.intents import pack_intent
from handlers.routers import all_routers


def _all_callback_data() -> list[type[CallbackData]]:
    for module in pkgutil.iter_modules(handlers.__path__):
        importlib.import_module(f"handlers.{module.name}")
    found: list[type[CallbackData]] = []
    pending = list(CallbackData.__subclasses__())
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return [kind for kind in found if kind.__module__.startswith("handlers.")]


def test_callback_prefixes_are_unique() -> None:
    kinds = _all_callback_data()
    assert len(kinds) > 5, "the scan found too few button kinds to be looking at the handlers"
    counts = Counter(kind.__prefix__ for kind in kinds)
    assert [prefix for prefix, count in counts.items() if count > 1] == []


def test_every_pushed_buttons_intent_is_packed_for_the_screen_that_answers_it() -> None:
    big = 10**9
    packed = {
        OpenProtocol(42): ProtocolButton(game_id=42, action=ProtocolAction.OPEN),
        OpenLot(7): LotButton(tournament_id=7, action=LotAction.VIEW),
        FileProtest(5): ProtestButton(game_id=5),
        DecideProtest(9, ProtestChoice.ANNUL): DecisionButton(
            protest_id=9, action=ProtestChoice.ANNUL
        ),
        CheckIn(3): callbacks.CheckIn(tournament_id=3),
    }
    for intent, button in packed.items():
        assert type(button).unpack(pack_intent(intent)) == button
    biggest = [
        OpenProtocol(big),
        OpenLot(big),
        FileProtest(big),
        DecideProtest(big, ProtestChoice.PLAYERS),
    ]
    assert all(len(pack_intent(intent).encode()) <= 64 for intent in biggest)


def test_buttons_stored_before_intents_keep_their_meaning() -> None:
    # A reminder scheduled hours ahead was stored with its callback data written out.
    stored = {"text": "Open", "url": None}
    legacy = {
        "pp:42:o:0:0": OpenProtocol(42),
        "lo:7:view": OpenLot(7),
        "pt:5": FileProtest(5),
        "pd:9:ann": DecideProtest(9, ProtestChoice.ANNUL),
        "ci:3": CheckIn(3),
    }
    for data, intent in legacy.items():
        assert stored_messages._button({**stored, "callback_data": data}).intent == intent
    assert stored_messages._button(
        {**stored, "intent": intent_fields(CheckIn(3))}
    ).intent == CheckIn(3)


def test_a_seat_edit_button_sent_before_its_fields_were_named_still_unpacks() -> None:
    # Packing keeps the values only, so a round's edit buttons already in a chat still work.
    sent = "se:3:2:move:17:1:4:9"
    button = callbacks.SeatEdit(
        tournament_id=3,
        round=2,
        action=callbacks.SeatStep.MOVE,
        player=17,
        table=1,
        seat=4,
        expected=9,
    )
    assert button.pack() == sent
    assert callbacks.SeatEdit.unpack(sent) == button


def _enums(annotation: object) -> list[type[Enum]]:
    """The enums a field's annotation names (one, or a union of them)."""
    options = get_args(annotation) if isinstance(annotation, UnionType) else (annotation,)
    return [option for option in options if isinstance(option, type) and issubclass(option, Enum)]


# Small numbers by nature: a round, a table, a seat, a page, a timetable's event and minute.
SMALL = {"round": 99, "table": 999, "seat": 10, "page": 999, "i": 99, "v": 1439}


def _biggest(kind: type[CallbackData], field: str, member: Enum) -> CallbackData:
    """A button of `kind` whose `field` is `member` and whose ids are as big as allowed."""
    values: dict[str, object] = {}
    for name, info in kind.model_fields.items():
        enums = _enums(info.annotation)
        if name == field:
            values[name] = member
        elif enums:
            values[name] = max((m for e in enums for m in e), key=lambda m: len(str(m.value)))
        elif name in SMALL:
            values[name] = SMALL[name]
        elif info.annotation is int:
            values[name] = max((getattr(m, "le", 0) for m in info.metadata), default=10**9)
        elif info.annotation is bool:
            values[name] = True
        else:
            values[name] = "x" * 8
    return kind(**values)


def _each_action() -> list[CallbackData]:
    """A button for every member of every enum field of every button kind."""
    return [
        _biggest(kind, name, member)
        for kind in _all_callback_data()
        for name, info in kind.model_fields.items()
        for enum in _enums(info.annotation)
        for member in enum
    ]


async def test_every_button_action_has_exactly_one_handler_and_fits_64_bytes() -> None:
    # aiogram's idiom: a CallbackData filter per action, no handler sorting actions itself;
    # but the protocol screen's buttons, the busiest presses, share one filter and one handler
    # (`handlers.protocol.press`), which sends each action on.
    claimed = [
        handler
        for router in all_routers()
        for handler in router.callback_query.handlers
        if handler.filters  # the catch-all that answers a press nobody claimed
    ]
    sender = User(id=1, is_bot=False, first_name="Ворон")
    buttons = _each_action()
    assert len(buttons) > 60, "the scan found too few actions to be looking at the buttons"
    for button in buttons:
        data = button.pack()
        assert len(data.encode()) <= 64, data
        query = CallbackQuery.model_validate(
            {"id": "1", "from": sender, "chat_instance": "c", "data": data}
        )
        answering = [handler for handler in claimed if (await handler.check(query))[0]]
        assert len(answering) == 1, (data, [handler.callback for handler in answering])


def test_an_unknown_action_matches_no_button_kind() -> None:
    # A forged or retired word is answered as out of date (handlers.buttons), never dispatched.
    for data in ("st:1:nope:0:0:0", "pp:1:zz:0:0", "lo:1:maybe", "ta:1:steal:0"):
        kind = next(k for k in _all_callback_data() if k.__prefix__ == data.split(":")[0])
        with pytest.raises((TypeError, ValueError)):
            kind.unpack(data)
