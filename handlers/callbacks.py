"""The callback data of every screen, in one place: screens link to each other's buttons
without importing each other, and a new button's prefix is checked against all the others.

Every field is a short id or a word; each press is re-authorized against the database. Every
number in callback data (here and in the other handlers' buttons) is a `RowId` or a
`TelegramId`: forged data with a number out of range matches no handler, so it never reaches
the database and the press is answered as out of date (handlers.buttons).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from aiogram.filters.callback_data import CallbackData
from pydantic import Field

from domain.intents import ProtestChoice
from domain.lifecycle import Move
from domain.live_table import MAX_DELAY_SECONDS
from domain.permissions import StaffRole
from domain.protocol_screen import Act
from domain.tournament import WebVisibility
from domain.validation import ROW_ID_MAX, TELEGRAM_ID_MAX

# A row's id, or a small number (a round, a table, a seat, a page); 0 where a field allows none.
RowId = Annotated[int, Field(ge=0, le=ROW_ID_MAX)]
# A person's Telegram id (a judge handed a table), 0 for nobody.
TelegramId = Annotated[int, Field(ge=0, le=TELEGRAM_ID_MAX)]


# --- the card, lists, check-in, registration, teams (organizer, lists, checkin, ...) -------


class CardOpen(CallbackData, prefix="tc"):
    tournament_id: RowId


class WebPageChoice(CallbackData, prefix="pv"):
    """The organizer makes the tournament's public web page public, unlisted or off."""

    tournament_id: RowId
    to: WebVisibility


class MoveChoice(CallbackData, prefix="mv"):
    tournament_id: RowId
    move: Move


class JudgeInvite(CallbackData, prefix="ji"):
    tournament_id: RowId
    role: StaffRole


class RosterView(StrEnum):
    """Whom the participants' list shows: everyone, the waiting list, the unpaid, the
    unreachable (handlers/lists.py)."""

    ALL = "all"
    WAITING = "waiting"
    UNPAID = "unpaid"
    UNREACHABLE = "unreachable"


class RosterPage(CallbackData, prefix="rl"):
    tournament_id: RowId
    view: RosterView
    page: RowId


class TeamPage(CallbackData, prefix="tl"):
    tournament_id: RowId
    page: RowId


class ExportKind(StrEnum):
    """The participants as a CSV table, or the whole tournament as its JSON file."""

    CSV = "csv"
    FILE = "file"


class ExportChoice(CallbackData, prefix="ex"):
    tournament_id: RowId
    kind: ExportKind


class PersonButton(StrEnum):
    """A button of a participant's screen: the screen itself, the fee marks, and the
    tournament day's no-show, exclusion and substitution."""

    SHOW = "show"
    PAID = "paid"
    UNPAID = "unpaid"
    NO_SHOW = "noshow"
    EXCLUDE = "excl"
    SUBSTITUTE = "sub"


class PersonAction(CallbackData, prefix="pa"):
    participant_id: RowId
    action: PersonButton


class SubstitutePick(CallbackData, prefix="sp"):
    participant_id: RowId
    # The waiting participant who takes over; 0 for a new player typed in.
    waiting_id: RowId


class CheckinScreen(CallbackData, prefix="cs"):
    tournament_id: RowId


class CheckinCall(CallbackData, prefix="cc"):
    tournament_id: RowId


class CheckIn(CallbackData, prefix="ci"):
    tournament_id: RowId


class RemindTeams(CallbackData, prefix="rt"):
    tournament_id: RowId


class RegistrationAction(StrEnum):
    """A button of the player's registration: the summary's (confirm, start again) and his
    own screen's."""

    CONFIRM = "confirm"
    REDO = "redo"
    SHOW = "show"
    EDIT = "edit"
    WITHDRAW = "withdraw"
    WITHDRAW_YES = "withdraw_yes"
    TEAM = "team"


class MyRegistration(CallbackData, prefix="mr"):
    tournament_id: RowId
    action: RegistrationAction


class TeamButton(StrEnum):
    """A button of the team screen: the team itself, and the captain's actions."""

    SHOW = "show"
    REMOVE = "remove"
    WITHDRAW = "withdraw"
    WITHDRAW_YES = "withdraw_yes"


class TeamAction(CallbackData, prefix="ta"):
    team_id: RowId
    action: TeamButton
    member: RowId = 0


# --- the tournament wizard (handlers/organizer.py) ----------------------------------------


class PresetChoice(CallbackData, prefix="wp"):
    preset: str


class WizardKeep(CallbackData, prefix="wk"):
    step: str
    # The timezone step's listed zone (`handlers/timezone_views.ZONES`); empty: the default.
    value: str = ""


class WizardDone(CallbackData, prefix="wd"):
    create: bool


class WizardLanguage(CallbackData, prefix="wl"):
    """The summary's switch of the language the tournament's channel posts in."""

    locale: str


# --- the timetable (handlers/timetable.py) ------------------------------------------------


MINUTES_PER_DAY = 24 * 60


class TimetableAction(StrEnum):
    """The card's "Timetable" button, the screen's "restore" button and the buttons that
    change one event's time: an event (`i`, its index), its hour (`v`), its time (`v`
    minutes of the day, -1 for none)."""

    VIEW = "view"
    RESET = "reset"
    EVENT = "ev"
    HOUR = "hr"
    SET = "set"


class TimetableButton(CallbackData, prefix="tt"):
    """A button of the timetable screen (and the card's way into it)."""

    tournament_id: RowId
    action: TimetableAction
    i: RowId = 0
    v: Annotated[int, Field(ge=-1, le=MINUTES_PER_DAY - 1)] = 0


class WizardTimetableAction(StrEnum):
    """The creation wizard's timetable step (handlers/wizard_timetable.py): an event (`i`, its
    index) to change, its hour (`v`), its time (`v` minutes of the day, -1 for none), its
    removal; a new event's day, kind and stage (`v`, their index), hour and time; done."""

    EVENT = "ev"
    HOUR = "hr"
    SET = "set"
    DELETE = "del"
    ADD = "add"
    DAY = "day"
    KIND = "kind"
    STAGE = "st"
    NEW_HOUR = "nhr"
    NEW_SET = "nset"
    BACK = "back"
    DONE = "done"


class WizardTimetable(CallbackData, prefix="wt"):
    """A button of the wizard's timetable step."""

    action: WizardTimetableAction
    i: RowId = 0
    v: Annotated[int, Field(ge=-1, le=MINUTES_PER_DAY - 1)] = 0


# --- the rounds screens (handlers/rounds.py) ----------------------------------------------


class RoundAction(StrEnum):
    """What a button of the rounds screens does (its packed value stays what buttons already
    in chats carry)."""

    # From the tournament card: the stage's screen as a new message, the card stays.
    OPEN = "open"
    OVERVIEW = "view"
    SEAT = "seat"
    REGENERATE = "regen"
    # The minimal re-seating after players left: their seats go to players sitting out.
    RESEAT = "fit"
    ROUND = "round"
    JUDGE = "judge"
    PUBLISH = "pub"
    # The whole stage as files: sheets to print (PDF) and every seat (CSV); every player his
    # schedule of the stage.
    PDF = "pdf"
    CSV = "csv"
    SCHEDULES = "sched"
    # The tournament picked for a typed /swap or /move that named none (its words wait in
    # the person's conversation data meanwhile).
    SWAP = "swap"
    MOVE = "move"


class StageButton(CallbackData, prefix="st"):
    """A button of the rounds screens: tournament, action, round, table, value (a judge's id)."""

    tournament_id: RowId
    action: RoundAction
    round: RowId = 0
    table: RowId = 0
    value: TelegramId = 0


class StreamAction(StrEnum):
    """What a button of a game's stream screen does (handlers/streams.py)."""

    SHOW = "show"
    OPEN = "open"
    REVOKE = "revoke"
    DELAY = "delay"


class StreamButton(CallbackData, prefix="sv"):
    """A button of a game's stream screen: the game, the action, a delay in seconds."""

    game_id: RowId
    action: StreamAction
    value: Annotated[int, Field(ge=0, le=MAX_DELAY_SECONDS)] = 0


class SeatStep(StrEnum):
    """A step of editing a round by buttons: the tables to pick from, one table's seats, then
    the change itself."""

    TABLES = "tables"
    TABLE = "table"
    MOVE = "move"
    SWAP = "swap"


class SeatEdit(CallbackData, prefix="se"):
    """A step of editing a round by buttons: tournament, round, step, the player picked (0: none
    yet), the table shown (0: who sits out), and for the last step the target seat and the
    player expected there (a press made on a screen that no longer matches is out of date)."""

    tournament_id: RowId
    round: RowId
    action: SeatStep
    player: RowId = 0
    table: RowId = 0
    seat: RowId = 0
    expected: RowId = 0


# --- the protocol screen (handlers/protocol.py) -------------------------------------------


class ProtocolAction(StrEnum):
    """A protocol screen's button that is not a rules press (`domain.protocol_screen.Act`)."""

    # The judge's round message (`domain.intents.OpenProtocol`) and /protocol's buttons: the
    # screen as a new message.
    OPEN = "o"
    CONFIRM = "c"
    CORRECT = "cc"
    CANCEL = "cx"
    # A seat that does nothing in this mode: it only refreshes the screen.
    REFRESH = "v"


class ProtocolButton(CallbackData, prefix="pp"):
    """A button of the protocol screen: the screen's own action or a rules press."""

    game_id: RowId
    action: ProtocolAction | Act
    seat: RowId = 0
    value: RowId = 0


# --- protests and the audit log (handlers/protests.py) ------------------------------------


class ProtestButton(CallbackData, prefix="pt"):
    """The "Protest" button under a player's result (`domain.protests.protest_callback`)."""

    game_id: RowId


class DecisionButton(CallbackData, prefix="pd"):
    """A deciding judge's button under a protest (`domain.intents.DecideProtest`)."""

    protest_id: RowId
    action: ProtestChoice


class AuditAction(StrEnum):
    """The audit log's buttons: the log itself, switching protests on or off (or back to the
    regulation's rule), and the log as a file."""

    VIEW = "view"
    ON = "on"
    OFF = "off"
    REGULATION = "reg"
    CSV = "csv"


class AuditButton(CallbackData, prefix="au"):
    tournament_id: RowId
    action: AuditAction


# --- the lot screen (handlers/lots.py) ----------------------------------------------------


class LotAction(StrEnum):
    """The lot screen's buttons: the case itself, the lot by a drawn seed or by an order the
    chief judge types."""

    VIEW = "view"
    SEED = "seed"
    ORDER = "order"


class LotButton(CallbackData, prefix="lo"):
    """The lot screen's buttons; the chief judge's alert packs its "view" button
    (`domain.intents.OpenLot`, `handlers.intents`)."""

    tournament_id: RowId
    action: LotAction


# --- the standings (handlers/standings.py) ------------------------------------------------


class StandingsFileKind(StrEnum):
    """The standings as pictures (an album a phone shows unshrunk) or as a CSV table."""

    PICTURE = "png"
    SPREADSHEET = "csv"


class StandingsFile(CallbackData, prefix="stfile"):
    tournament_id: RowId
    kind: StandingsFileKind


class StandingsOpen(CallbackData, prefix="stopen"):
    """The standings of one of the person's tournaments, chosen from /standings' buttons."""

    tournament_id: RowId


class MyGamesOpen(CallbackData, prefix="meopen"):
    """The player's games in one of his tournaments, chosen from /me's buttons."""

    tournament_id: RowId


# --- the language choice (handlers/start.py) ----------------------------------------------


class LanguageChoice(CallbackData, prefix="lang"):
    locale: str


# --- the season: profiles, ratings, series, merges (handlers/season*.py) ------------------


class ProfileAction(StrEnum):
    """A profile's buttons: the profile itself (a player picked from a list), its rating
    history as a picture, and the player hiding or showing his own."""

    SHOW = "show"
    PICTURE = "png"
    HIDE = "hide"
    UNHIDE = "unhide"


class ProfileButton(CallbackData, prefix="pf"):
    person_id: RowId
    action: ProfileAction


class RatingAction(StrEnum):
    """A series' rating: its table (chosen from /rating's buttons), as pictures, its clubs."""

    SHOW = "show"
    PICTURE = "png"
    CLUBS = "clubs"


class RatingButton(CallbackData, prefix="rg"):
    series_id: RowId
    action: RatingAction


class SeasonCardAction(StrEnum):
    """The tournament card's season buttons: the choice of its series, a series chosen (0:
    none), and the rated switch."""

    CHOOSE = "choose"
    ATTACH = "attach"
    RATED = "rated"
    UNRATED = "unrated"


class SeasonCardButton(CallbackData, prefix="sc"):
    tournament_id: RowId
    action: SeasonCardAction
    series_id: RowId = 0


class SeriesAction(StrEnum):
    """An admin's series screen (from /series' list) and its points table upload."""

    SHOW = "show"
    POINTS = "points"


class SeriesButton(CallbackData, prefix="sr"):
    series_id: RowId
    action: SeriesAction


class MergeAction(StrEnum):
    """Merging two accounts: the one that stays picked, the one that joins it picked (the
    two shown side by side), confirmed or cancelled."""

    KEEP = "keep"
    MERGE = "merge"
    CONFIRM = "yes"
    CANCEL = "no"


class MergeButton(CallbackData, prefix="mg"):
    action: MergeAction
    keep: RowId = 0
    merge: RowId = 0
