"""The callback data of the lifecycle screens, in one place so screens can link to each other.

Every field is a short id or a word; each press is re-authorized against the database.
"""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

from domain.lifecycle import Move


class CardOpen(CallbackData, prefix="tc"):
    tid: int


class MoveChoice(CallbackData, prefix="mv"):
    tid: int
    move: Move


class JudgeInvite(CallbackData, prefix="ji"):
    tid: int
    role: str


class RosterPage(CallbackData, prefix="rl"):
    tid: int
    view: str
    page: int


class TeamPage(CallbackData, prefix="tl"):
    tid: int
    page: int


class ExportChoice(CallbackData, prefix="ex"):
    tid: int
    kind: str


class PersonAction(CallbackData, prefix="pa"):
    pid: int
    act: str


class SubstitutePick(CallbackData, prefix="sp"):
    pid: int
    # The waiting participant who takes over; 0 for a new player typed in.
    wid: int


class CheckinScreen(CallbackData, prefix="cs"):
    tid: int


class CheckinCall(CallbackData, prefix="cc"):
    tid: int


class CheckIn(CallbackData, prefix="ci"):
    tid: int


class RemindTeams(CallbackData, prefix="rt"):
    tid: int


class MyRegistration(CallbackData, prefix="mr"):
    tid: int
    act: str


class TeamAction(CallbackData, prefix="ta"):
    team: int
    act: str
    member: int = 0
