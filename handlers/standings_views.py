"""The standings screens' views: the choice of tournament, the table's file buttons and the
words their `kind` carries."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.tournament import Tournament
from handlers.callbacks import MyGamesOpen, StandingsFile, StandingsOpen
from handlers.middlewares import Texts

PICTURE = "png"
SPREADSHEET = "csv"


def choice_keyboard(
    choice: list[Tournament], button: type[StandingsOpen] | type[MyGamesOpen]
) -> InlineKeyboardMarkup:
    """A button per tournament the person may mean; its press opens that one."""
    keyboard = InlineKeyboardBuilder()
    for tournament in choice[:30]:
        keyboard.button(text=tournament.title, callback_data=button(tournament_id=tournament.id))
    keyboard.adjust(1)
    return keyboard.as_markup()


def file_keyboard(tournament_id: int, texts: Texts) -> InlineKeyboardMarkup:
    """The picture and CSV buttons under the table's last page."""
    keyboard = InlineKeyboardBuilder()
    for kind, key in ((PICTURE, "standings-button-picture"), (SPREADSHEET, "standings-button-csv")):
        keyboard.button(
            text=texts(key), callback_data=StandingsFile(tournament_id=tournament_id, kind=kind)
        )
    return keyboard.as_markup()
