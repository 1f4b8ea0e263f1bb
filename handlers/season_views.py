"""The season screens' views: the players found for /profile and /merge, a profile's buttons,
the choice of series, a series' rating buttons and its clubs."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aiogram.filters.callback_data import CallbackData
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.rendering.phrases import ready
from bot.rendering.season_text import clubs_text
from domain.outgoing import Phrase
from domain.season.views import PlayerProfile, SeriesView
from handlers.callbacks import ProfileAction, ProfileButton, RatingAction, RatingButton
from handlers.middlewares import Texts

# A list of players found is cut here: a longer query finds fewer.
FOUND_SHOWN = 20


def player_label(nickname: str, club: str | None) -> str:
    """A player as a button names him: his nickname and club (two of one nickname differ)."""
    label = f"{nickname} ({club})" if club else nickname
    return label[:60]


def found_keyboard(
    found: Sequence[tuple[int, str, str]], button: Callable[[int], CallbackData]
) -> InlineKeyboardMarkup:
    """A button per player found (person id, nickname, club); `button` makes its data."""
    keyboard = InlineKeyboardBuilder()
    for person_id, nickname, club in found[:FOUND_SHOWN]:
        keyboard.button(text=player_label(nickname, club), callback_data=button(person_id))
    keyboard.adjust(1)
    return keyboard.as_markup()


def profile_button(person_id: int) -> ProfileButton:
    """The press that opens a player's profile."""
    return ProfileButton(person_id=person_id, action=ProfileAction.SHOW)


def _address(base_url: str | None, path: str, locale: str) -> str | None:
    if not base_url:
        return None
    return f"{base_url.rstrip('/')}{path}?lang={locale}"


def profile_keyboard(
    person: PlayerProfile, own: bool, texts: Texts, base_url: str | None
) -> InlineKeyboardMarkup:
    """A profile's buttons: the history picture, the web page, and for one's own profile the
    switch that hides or shows it."""
    rows: list[list[InlineKeyboardButton]] = []
    if person.history:
        data = ProfileButton(person_id=person.person_id, action=ProfileAction.PICTURE)
        rows.append(
            [InlineKeyboardButton(text=texts("profile-button-picture"), callback_data=data.pack())]
        )
    page = _address(base_url, f"/players/{person.person_id}", texts.locale)
    if page is not None and not person.hidden:
        rows.append([InlineKeyboardButton(text=texts("profile-button-page"), url=page)])
    if own:
        action = ProfileAction.UNHIDE if person.hidden else ProfileAction.HIDE
        key = "profile-button-show" if person.hidden else "profile-button-hide"
        data = ProfileButton(person_id=person.person_id, action=action)
        rows.append([InlineKeyboardButton(text=texts(key), callback_data=data.pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def series_keyboard(listed: Sequence[tuple[int, str]]) -> InlineKeyboardMarkup:
    """A button per series (id, title); its press shows its rating."""
    keyboard = InlineKeyboardBuilder()
    for series_id, title in listed[:30]:
        keyboard.button(
            text=title[:60],
            callback_data=RatingButton(series_id=series_id, action=RatingAction.SHOW),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def rating_keyboard(series_id: int, texts: Texts, base_url: str | None) -> InlineKeyboardMarkup:
    """Under a series' table: as pictures, its clubs, its web page."""
    rows = [
        [
            InlineKeyboardButton(
                text=texts("rating-button-picture"),
                callback_data=RatingButton(series_id=series_id, action=RatingAction.PICTURE).pack(),
            ),
            InlineKeyboardButton(
                text=texts("rating-button-clubs"),
                callback_data=RatingButton(series_id=series_id, action=RatingAction.CLUBS).pack(),
            ),
        ]
    ]
    page = _address(base_url, f"/series/{series_id}", texts.locale)
    if page is not None:
        rows.append([InlineKeyboardButton(text=texts("rating-button-page"), url=page)])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def clubs_screen(view: SeriesView, locale: str) -> Phrase:
    """A series' clubs, as the season's renderer writes them (bot/rendering/season_text.py)."""
    return ready(clubs_text(view, locale))
