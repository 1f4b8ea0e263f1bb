"""Every kind of button has its own callback prefix, so no press reaches the wrong screen, and
every pushed button's intent reaches the screen that answers it."""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter

from aiogram.filters.callback_data import CallbackData

import handlers
from bot.db.repositories import stored_messages
from domain.intents import (
    CheckIn,
    DecideProtest,
    FileProtest,
    OpenLot,
    OpenProtocol,
    intent_fields,
)
from domain.protocol_screen import OPEN
from domain.services.protests import ANNUL, PLAYERS
from handlers import callbacks
from handlers.callbacks import DecisionButton, LotButton, ProtestButton, ProtocolButton
from handlers.intents import pack_intent
from handlers.lots_views import VIEW


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
        OpenProtocol(42): ProtocolButton(game=42, act=OPEN),
        OpenLot(7): LotButton(tid=7, act=VIEW),
        FileProtest(5): ProtestButton(game=5),
        DecideProtest(9, ANNUL): DecisionButton(protest=9, act=ANNUL),
        CheckIn(3): callbacks.CheckIn(tid=3),
    }
    for intent, button in packed.items():
        assert type(button).unpack(pack_intent(intent)) == button
    biggest = [OpenProtocol(big), OpenLot(big), FileProtest(big), DecideProtest(big, PLAYERS)]
    assert all(len(pack_intent(intent).encode()) <= 64 for intent in biggest)


def test_buttons_stored_before_intents_keep_their_meaning() -> None:
    # A reminder scheduled hours ahead was stored with its callback data written out.
    stored = {"text": "Open", "url": None}
    legacy = {
        "pp:42:o:0:0": OpenProtocol(42),
        "lo:7:view": OpenLot(7),
        "pt:5": FileProtest(5),
        "pd:9:annul": DecideProtest(9, "annul"),
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
        tournament=3, round=2, act="move", player=17, table=1, seat=4, expected=9
    )
    assert button.pack() == sent
    assert callbacks.SeatEdit.unpack(sent) == button
