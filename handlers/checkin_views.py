"""The tournament day's views: the missing list with its buttons and the choice of a
substitute."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.outgoing import Phrase
from domain.registration import Participant
from handlers.callbacks import CardOpen, PersonAction, PersonButton, SubstitutePick
from handlers.middlewares import Texts


def missing_text(
    playing: list[Participant], missing: list[Participant], freed: list[Participant]
) -> Phrase:
    return Phrase.of(
        "checkin-screen",
        present=len(playing) - len(missing),
        missing=len(missing),
        freed=len(freed),
    )


def missing_keyboard(
    tournament_id: int, people: list[Participant], texts: Texts
) -> InlineKeyboardMarkup:
    """A button per participant missing or waiting for a substitute, then the way back."""
    keyboard = InlineKeyboardBuilder()
    for p in people[:40]:
        keyboard.button(
            text=p.nickname,
            callback_data=PersonAction(participant_id=p.id, action=PersonButton.SHOW),
        )
    keyboard.button(text=texts("back-to-card"), callback_data=CardOpen(tournament_id=tournament_id))
    keyboard.adjust(2)
    return keyboard.as_markup()


def substitute_keyboard(
    participant_id: int, waiting: list[Participant], texts: Texts
) -> InlineKeyboardMarkup:
    """A button per waiting participant who may take the place, then 'a newcomer'."""
    keyboard = InlineKeyboardBuilder()
    for p in waiting[:20]:
        keyboard.button(
            text=p.nickname,
            callback_data=SubstitutePick(participant_id=participant_id, waiting_id=p.id),
        )
    keyboard.button(
        text=texts("substitute-newcomer"),
        callback_data=SubstitutePick(participant_id=participant_id, waiting_id=0),
    )
    keyboard.adjust(1)
    return keyboard.as_markup()
