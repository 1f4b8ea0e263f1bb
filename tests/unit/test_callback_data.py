"""Every kind of button has its own callback prefix, so no press reaches the wrong screen."""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter

from aiogram.filters.callback_data import CallbackData

import handlers
from domain.lots import lot_screen_callback
from handlers.lots import VIEW, LotButton


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


def test_the_lot_alerts_button_opens_the_lot_screen() -> None:
    assert LotButton.unpack(lot_screen_callback(7)) == LotButton(tid=7, act=VIEW)
