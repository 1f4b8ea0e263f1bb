"""The Telegram side of pushed buttons: each typed intent a use case records
(`domain.intents`) packed into the callback data of the screen that answers it, with that
screen's aiogram `CallbackData`, or into the Mini App it opens, when the outbox worker sends
the message."""

from __future__ import annotations

from aiogram.types import WebAppInfo

from bot.config import Settings
from bot.delivery.render import IntentPacker, Packed
from bot.web.miniapp import live_game_url
from domain.intents import (
    CheckIn,
    DecideProtest,
    FileProtest,
    Intent,
    OpenLot,
    OpenProtocol,
    RunLiveGame,
    ScreenIntent,
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


def pack_intent(intent: ScreenIntent) -> str:
    """The callback data a press of the intent's button sends."""
    match intent:
        case OpenProtocol(game=game):
            return ProtocolButton(game_id=game, action=ProtocolAction.OPEN).pack()
        case OpenLot(tournament=tournament):
            return LotButton(tournament_id=tournament, action=LotAction.VIEW).pack()
        case FileProtest(game=game):
            return ProtestButton(game_id=game).pack()
        case DecideProtest(protest=protest, act=act):
            return DecisionButton(protest_id=protest, action=act).pack()
        case CheckIn(tournament=tournament):
            return callbacks.CheckIn(tournament_id=tournament).pack()


def intent_packer(settings: Settings) -> IntentPacker:
    """This bot's packer: a screen's callback data, or the Mini App's game page that the
    protocol screen's "Run the game" opens too (`live_game_url`; the button is left out
    where there is none to offer)."""

    def pack(intent: Intent) -> Packed:
        match intent:
            case RunLiveGame(game=game):
                url = live_game_url(settings, game)
                return None if url is None else WebAppInfo(url=url)
            case _:
                return pack_intent(intent)

    return pack
