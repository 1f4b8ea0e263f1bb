"""The callback data of the lifecycle screens, in one place so screens can link to each other.

Every field is a short id or a word; each press is re-authorized against the database. Every
number in callback data (here and in the other handlers' buttons) is a `RowId` or a
`TelegramId`: forged data with a number out of range matches no handler, so it never reaches
the database and the press is answered as out of date (handlers.buttons).
"""

from __future__ import annotations

from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from domain.lifecycle import Move
from domain.validation import ROW_ID_MAX, TELEGRAM_ID_MAX

# A row's id, or a small number (a round, a table, a seat, a page); 0 where a field allows none.
RowId = Annotated[int, Field(ge=0, le=ROW_ID_MAX)]
# A person's Telegram id (a judge handed a table), 0 for nobody.
TelegramId = Annotated[int, Field(ge=0, le=TELEGRAM_ID_MAX)]


class CardOpen(CallbackData, prefix="tc"):
    tid: RowId


class WebPageChoice(CallbackData, prefix="pv"):
    """The organizer makes the tournament's public web page public, unlisted or off."""

    tid: RowId
    to: str


class MoveChoice(CallbackData, prefix="mv"):
    tid: RowId
    move: Move


class JudgeInvite(CallbackData, prefix="ji"):
    tid: RowId
    role: str


class RosterPage(CallbackData, prefix="rl"):
    tid: RowId
    view: str
    page: RowId


class TeamPage(CallbackData, prefix="tl"):
    tid: RowId
    page: RowId


class ExportChoice(CallbackData, prefix="ex"):
    tid: RowId
    kind: str


class PersonAction(CallbackData, prefix="pa"):
    pid: RowId
    act: str


class SubstitutePick(CallbackData, prefix="sp"):
    pid: RowId
    # The waiting participant who takes over; 0 for a new player typed in.
    wid: RowId


class CheckinScreen(CallbackData, prefix="cs"):
    tid: RowId


class CheckinCall(CallbackData, prefix="cc"):
    tid: RowId


class CheckIn(CallbackData, prefix="ci"):
    tid: RowId


class RemindTeams(CallbackData, prefix="rt"):
    tid: RowId


class MyRegistration(CallbackData, prefix="mr"):
    tid: RowId
    act: str


class TeamAction(CallbackData, prefix="ta"):
    team: RowId
    act: str
    member: RowId = 0
