"""The views of the series, merge and tournament-card season screens: texts and keyboards."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.rendering.season_text import merge_side
from bot.rendering.season_web import stars
from domain.layout import lines
from domain.outgoing import Html, Lines, Phrase
from domain.season.views import MergePreview, SeriesView
from handlers.callbacks import (
    MergeAction,
    MergeButton,
    SeasonCardAction,
    SeasonCardButton,
    SeriesAction,
    SeriesButton,
)
from handlers.middlewares import Texts
from handlers.season_views import found_keyboard

SERIES_TITLE_LIMIT = 100


def series_list_keyboard(listed: Sequence[tuple[int, str]]) -> InlineKeyboardMarkup:
    keyboard = InlineKeyboardBuilder()
    for series_id, title in listed[:30]:
        keyboard.button(
            text=title[:60],
            callback_data=SeriesButton(series_id=series_id, action=SeriesAction.SHOW),
        )
    keyboard.adjust(1)
    return keyboard.as_markup()


def series_screen(
    view: SeriesView, texts: Texts, base_url: str | None
) -> tuple[Phrase, InlineKeyboardMarkup]:
    """An admin's screen of a series: its counts, the points table upload, its web page."""
    events = len(view.upcoming) + len(view.running) + len(view.finished)
    text = Phrase.of(
        "series-screen", title=view.title, tournaments=events, players=len(view.players)
    )
    points = SeriesButton(series_id=view.series_id, action=SeriesAction.POINTS)
    rows = [[InlineKeyboardButton(text=texts("series-button-points"), callback_data=points.pack())]]
    if base_url:
        page = f"{base_url.rstrip('/')}/series/{view.series_id}?lang={texts.locale}"
        rows.append([InlineKeyboardButton(text=texts("series-button-page"), url=page)])
    return text, InlineKeyboardMarkup(inline_keyboard=rows)


def merge_keep_keyboard(found: Sequence[tuple[int, str, str]]) -> InlineKeyboardMarkup:
    """The players found: the press picks the account that stays."""
    return found_keyboard(
        found, lambda person_id: MergeButton(action=MergeAction.KEEP, keep=person_id)
    )


def merge_merge_keyboard(keep: int, others: Sequence[tuple[int, str, str]]) -> InlineKeyboardMarkup:
    """The other players found: the press picks the account that joins `keep`."""
    return found_keyboard(
        others,
        lambda person_id: MergeButton(action=MergeAction.MERGE, keep=keep, merge=person_id),
    )


def merge_preview_screen(
    preview: MergePreview, texts: Texts
) -> tuple[Phrase | Lines, InlineKeyboardMarkup]:
    """The two accounts side by side; the confirmation only when they may be merged."""
    # Each side arrives written by the season's renderer (bot/rendering/season_text.py).
    text = Phrase.of(
        "merge-preview",
        keep=Html(merge_side(preview.keep, texts.locale)),
        merge=Html(merge_side(preview.merge, texts.locale)),
    )
    keep, merge = preview.keep.person_id, preview.merge.person_id
    cancel = InlineKeyboardButton(
        text=texts("merge-cancel"),
        callback_data=MergeButton(action=MergeAction.CANCEL, keep=keep, merge=merge).pack(),
    )
    if not preview.allowed:
        titles = ", ".join(f"«{title}»" for title in preview.overlap[:5])
        overlap = Phrase.of("merge-overlap", titles=titles)
        return lines([text, overlap], "\n\n"), InlineKeyboardMarkup(inline_keyboard=[[cancel]])
    confirm = InlineKeyboardButton(
        text=texts("merge-confirm"),
        callback_data=MergeButton(action=MergeAction.CONFIRM, keep=keep, merge=merge).pack(),
    )
    return text, InlineKeyboardMarkup(inline_keyboard=[[confirm, cancel]])


def card_season_line(series_title: str | None, rated: bool, category: int | None) -> Phrase:
    """The tournament card's line: its series, whether it is rated, its category."""
    return Phrase.of(
        "card-season",
        series=series_title if series_title else Phrase.of("card-season-no-series"),
        rated=str(rated).lower(),
        category=stars(category) if category else Phrase.of("card-category-none"),
    )


def card_season_buttons(tournament_id: int, rated: bool) -> list[tuple[str, SeasonCardButton]]:
    """The card's season buttons (text keys and data): the series, the rated switch."""
    switch = SeasonCardAction.UNRATED if rated else SeasonCardAction.RATED
    return [
        (
            "card-button-series",
            SeasonCardButton(tournament_id=tournament_id, action=SeasonCardAction.CHOOSE),
        ),
        (
            "card-button-rated-off" if rated else "card-button-rated-on",
            SeasonCardButton(tournament_id=tournament_id, action=switch),
        ),
    ]


def attach_keyboard(
    tournament_id: int, listed: Sequence[tuple[int, str]], texts: Texts
) -> InlineKeyboardMarkup:
    """A button per series to attach the tournament to, and "no series"."""
    keyboard = InlineKeyboardBuilder()
    for series_id, title in listed[:30]:
        keyboard.button(
            text=title[:60],
            callback_data=SeasonCardButton(
                tournament_id=tournament_id, action=SeasonCardAction.ATTACH, series_id=series_id
            ),
        )
    keyboard.button(
        text=texts("card-series-none"),
        callback_data=SeasonCardButton(
            tournament_id=tournament_id, action=SeasonCardAction.ATTACH, series_id=0
        ),
    )
    keyboard.adjust(1)
    return keyboard.as_markup()
