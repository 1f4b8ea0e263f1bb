"""The standings screens' views: the choice of tournament and the table's file buttons."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.tournament import Tournament
from handlers.callbacks import MyGamesOpen, StandingsFile, StandingsFileKind, StandingsOpen
from handlers.keyboards import tournament_choice
from handlers.middlewares import Texts


def choice_keyboard(
    choice: list[Tournament], button: type[StandingsOpen] | type[MyGamesOpen]
) -> InlineKeyboardMarkup:
    """A button per tournament the person may mean; its press opens that one."""
    return tournament_choice(choice[:30], lambda tournament: button(tournament_id=tournament.id))


def file_keyboard(tournament_id: int, texts: Texts) -> InlineKeyboardMarkup:
    """The picture and CSV buttons under the table's last page."""
    keyboard = InlineKeyboardBuilder()
    for kind, key in (
        (StandingsFileKind.PICTURE, "standings-button-picture"),
        (StandingsFileKind.SPREADSHEET, "standings-button-csv"),
    ):
        keyboard.button(
            text=texts(key), callback_data=StandingsFile(tournament_id=tournament_id, kind=kind)
        )
    return keyboard.as_markup()
