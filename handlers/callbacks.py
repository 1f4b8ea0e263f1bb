"""The callback data of every screen, in one place: screens link to each other's buttons
without importing each other, and a new button's prefix is checked against all the others.

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


# --- the card, lists, check-in, registration, teams (organizer, lists, checkin, ...) -------


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


# --- the tournament wizard (handlers/organizer.py) ----------------------------------------


class PresetChoice(CallbackData, prefix="wp"):
    preset: str


class WizardKeep(CallbackData, prefix="wk"):
    step: str


class WizardDone(CallbackData, prefix="wd"):
    create: bool


class WizardLanguage(CallbackData, prefix="wl"):
    """The summary's switch of the language the tournament's channel posts in."""

    locale: str


# --- the timetable (handlers/timetable.py) ------------------------------------------------


MINUTES_PER_DAY = 24 * 60


class TimetableButton(CallbackData, prefix="tt"):
    """The card's "Timetable" button (`view`), the screen's "restore" button (`reset`) and the
    buttons that change one event's time."""

    tid: RowId
    act: str
    i: RowId = 0
    v: Annotated[int, Field(ge=-1, le=MINUTES_PER_DAY - 1)] = 0


# --- the rounds screens (handlers/rounds.py) ----------------------------------------------


class StageButton(CallbackData, prefix="st"):
    """A button of the rounds screens: tournament, action, round, table, value (a judge's id)."""

    tournament: RowId
    act: str
    round: RowId = 0
    table: RowId = 0
    value: TelegramId = 0


class SeatEdit(CallbackData, prefix="se"):
    """A step of editing a round by buttons: tournament, round, step, the player picked (0: none
    yet), the table shown (0: who sits out), and for the last step the target seat and the
    player expected there (a press made on a screen that no longer matches is out of date)."""

    tournament: RowId
    round: RowId
    act: str
    player: RowId = 0
    table: RowId = 0
    seat: RowId = 0
    expected: RowId = 0


# --- the protocol screen (handlers/protocol.py) -------------------------------------------


class ProtocolButton(CallbackData, prefix="pp"):
    """A button of the protocol screen; `domain.protocol_screen.open_callback` packs the same."""

    game: RowId
    act: str
    seat: RowId = 0
    value: RowId = 0


# --- protests and the audit log (handlers/protests.py) ------------------------------------


class ProtestButton(CallbackData, prefix="pt"):
    """The "Protest" button under a player's result (`domain.protests.protest_callback`)."""

    game: RowId


class DecisionButton(CallbackData, prefix="pd"):
    """A deciding judge's button under a protest (`domain.protests.decision_callback`)."""

    protest: RowId
    act: str


class AuditButton(CallbackData, prefix="au"):
    tid: RowId
    act: str


# --- the lot screen (handlers/lots.py) ----------------------------------------------------


class LotButton(CallbackData, prefix="lo"):
    """The lot screen's buttons; the chief judge's alert packs its "view" button with
    `domain.tie_decisions.lot_screen_callback`."""

    tid: RowId
    act: str


# --- the standings (handlers/standings.py) ------------------------------------------------


class StandingsFile(CallbackData, prefix="stfile"):
    tournament_id: RowId
    kind: str


class StandingsOpen(CallbackData, prefix="stopen"):
    """The standings of one of the person's tournaments, chosen from /standings' buttons."""

    tournament_id: RowId


class MyGamesOpen(CallbackData, prefix="meopen"):
    """The player's games in one of his tournaments, chosen from /me's buttons."""

    tournament_id: RowId


# --- the language choice (handlers/start.py) ----------------------------------------------


class LanguageChoice(CallbackData, prefix="lang"):
    locale: str
