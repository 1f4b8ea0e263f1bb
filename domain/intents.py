"""What a button in a pushed message means, as data: the use case that records the message
says what a press asks for (open this game's protocol, decide this protest), never how a
chat packs it. The Telegram side packs each intent into the callback data of the screen that
answers it (`handlers/intents.py`, aiogram `CallbackData`), or into the Mini App it opens
(`RunLiveGame`), a web page into a link of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any


@dataclass(frozen=True, slots=True)
class OpenProtocol:
    """Open a game's protocol screen (the judge's round message, his reminder)."""

    game: int


@dataclass(frozen=True, slots=True)
class OpenLot:
    """Open the chief judge's lot screen of a tournament (a tie waits for his decision)."""

    tournament: int


@dataclass(frozen=True, slots=True)
class FileProtest:
    """Start a protest against a game's result (under a player's result)."""

    game: int


class ProtestChoice(StrEnum):
    """A deciding judge's button under a protest (short words: callback data's 64 bytes)."""

    REJECT = "rej"
    ACCEPT = "acc"
    # The protocol opened for the chief judge's correction.
    CORRECT = "fix"
    PLAYERS = "pl"
    PHOTO = "ph"
    ANNUL = "ann"
    # The game's live log (the judge ran it in the Mini App): who nominated whom, votes...
    GAME_LOG = "log"


@dataclass(frozen=True, slots=True)
class DecideProtest:
    """A deciding judge's choice under a protest: reject, accept, annul, see the players,
    the photo or the game's log."""

    protest: int
    act: ProtestChoice

    def __post_init__(self) -> None:
        # Read back from a stored message, the choice is its word: the member it names.
        object.__setattr__(self, "act", ProtestChoice(self.act))


@dataclass(frozen=True, slots=True)
class CheckIn:
    """ "I am here": a player checks in at the venue."""

    tournament: int


@dataclass(frozen=True, slots=True)
class RunLiveGame:
    """Run a game live in the Mini App (the judge's round message). Where the bot offers no
    Mini App (no web address for it) the button is left out when the message is sent."""

    game: int


# The intents a press answers in the chat, with a screen's callback data.
ScreenIntent = OpenProtocol | OpenLot | FileProtest | DecideProtest | CheckIn
Intent = ScreenIntent | RunLiveGame

_KINDS: dict[str, type[Intent]] = {
    kind.__name__: kind
    for kind in (OpenProtocol, OpenLot, FileProtest, DecideProtest, CheckIn, RunLiveGame)
}


def intent_fields(intent: Intent) -> dict[str, Any]:
    """The intent as plain data (its kind and fields), to store it."""
    return {"kind": type(intent).__name__} | {
        field.name: getattr(intent, field.name) for field in fields(intent)
    }


def intent_of(data: dict[str, Any]) -> Intent:
    """The intent `intent_fields` stored."""
    values = dict(data)
    kind = _KINDS[values.pop("kind")]
    return kind(**values)
