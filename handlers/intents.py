"""The Telegram side of pushed buttons: each typed intent a use case records
(`domain.intents`) packed into the callback data of the screen that answers it, with that
screen's aiogram `CallbackData`, when the outbox worker sends the message."""

from __future__ import annotations

from domain.intents import CheckIn, DecideProtest, FileProtest, Intent, OpenLot, OpenProtocol
from domain.protocol_screen import OPEN
from handlers import callbacks
from handlers.lots import VIEW, LotButton
from handlers.protests import DecisionButton, ProtestButton
from handlers.protocol import ProtocolButton


def pack_intent(intent: Intent) -> str:
    """The callback data a press of the intent's button sends."""
    match intent:
        case OpenProtocol(game=game):
            return ProtocolButton(game=game, act=OPEN).pack()
        case OpenLot(tournament=tournament):
            return LotButton(tid=tournament, act=VIEW).pack()
        case FileProtest(game=game):
            return ProtestButton(game=game).pack()
        case DecideProtest(protest=protest, act=act):
            return DecisionButton(protest=protest, act=act).pack()
        case CheckIn(tournament=tournament):
            return callbacks.CheckIn(tid=tournament).pack()
