"""/profile (one's own, or a player found by his typed nickname and picked by buttons; the
rating's history as a picture; hiding one's own) and /rating (a series' table as text and
pictures with the reader's line marked, its clubs; a series picked by buttons when several).

The reads are `domain.services.season`'s; a hidden profile reaches others as its nickname
only (the use case decides). Pictures are drawn in the picture process (`StandingsPainter`).
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, InputMediaPhoto, Message

from bot.config import Settings
from bot.rendering.pictures import StandingsPainter
from bot.rendering.season_text import profile_text, rating_line, rating_table
from domain.actor import Actor
from domain.outgoing import Phrase
from domain.services.access import NotFound
from domain.services.catalog import Services
from handlers.callbacks import ProfileAction, ProfileButton, RatingAction, RatingButton
from handlers.common import answer, edit_screen, long_work
from handlers.middlewares import Texts
from handlers.season_views import (
    clubs_screen,
    found_keyboard,
    profile_button,
    profile_keyboard,
    rating_keyboard,
    series_keyboard,
)

# Telegram's largest album.
ALBUM_SIZE = 10
QUERY_LIMIT = 64


async def my_rating_line(services: Services, actor: Actor, texts: Texts) -> str:
    """The person's rating and his band's stars, for his registration screen and /me."""
    rating, band = await services.season_screens.my_rating(actor)
    return rating_line(rating, band, texts.locale)


async def show_profile(
    message: Message,
    command: CommandObject,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    """/profile: one's own; /profile <nickname>: the players matching it, as buttons."""
    query = (command.args or "").strip()[:QUERY_LIMIT]
    if query:
        found = await services.profiles.find_players(query)
        if not found:
            await message.answer(texts.phrase(Phrase.of("profile-not-found", query=query)))
            return
        await message.answer(
            texts.phrase(Phrase.of("profile-found", query=query)),
            reply_markup=found_keyboard(found, profile_button),
        )
        return
    person_id = await services.profiles.my_person(actor)
    if person_id is None:
        await message.answer(texts("profile-none") + "\n\n" + texts("profile-search-hint"))
        return
    shown = await services.profiles.profile(person_id, viewer=actor)
    text = profile_text(shown, texts.locale, own=True) + "\n\n" + texts("profile-search-hint")
    keyboard = profile_keyboard(shown, True, texts, settings.web_base_url)
    await message.answer(text, reply_markup=keyboard)


async def open_profile(
    callback: CallbackQuery,
    callback_data: ProfileButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    """A player picked from the list: his profile as a new message."""
    try:
        shown = await services.profiles.profile(callback_data.person_id, viewer=actor)
    except NotFound:
        await callback.answer(texts("profile-gone"), show_alert=True)
        return
    own = callback_data.person_id == await services.profiles.my_person(actor)
    if isinstance(callback.message, Message):
        keyboard = profile_keyboard(shown, own, texts, settings.web_base_url)
        text = profile_text(shown, texts.locale, own=own)
        await callback.message.answer(text, reply_markup=keyboard)
    await callback.answer()


async def send_history_picture(
    callback: CallbackQuery,
    callback_data: ProfileButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    pictures: StandingsPainter,
) -> None:
    try:
        shown = await services.profiles.profile(callback_data.person_id, viewer=actor)
    except NotFound:
        await callback.answer(texts("profile-gone"), show_alert=True)
        return
    if not shown.history or not isinstance(callback.message, Message):
        await callback.answer(texts("profile-history-none"), show_alert=True)
        return
    async with long_work(callback, texts, replaced=False):
        after = tuple(point.after for point in shown.history)
        title = texts("profile-history-title", nickname=shown.nickname)
        png = await pictures.draw_rating_history(after, title, texts("profile-history-axis"))
        name = f"rating-{callback_data.person_id}.png"
        await callback.message.answer_photo(BufferedInputFile(png, name))


async def _set_hidden(
    callback: CallbackQuery,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    hidden: bool,
) -> None:
    await services.profiles.hide_profile(actor, hidden)
    person_id = await services.profiles.my_person(actor)
    if person_id is not None and isinstance(callback.message, Message):
        shown = await services.profiles.profile(person_id, viewer=actor)
        text = profile_text(shown, texts.locale, own=True) + "\n\n" + texts("profile-search-hint")
        keyboard = profile_keyboard(shown, True, texts, settings.web_base_url)
        await edit_screen(callback.message, text, reply_markup=keyboard)
    await callback.answer(texts("profile-hidden-now" if hidden else "profile-shown-now"))


async def hide_my_profile(
    callback: CallbackQuery,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    await _set_hidden(callback, actor, texts, services, settings, True)


async def show_my_profile(
    callback: CallbackQuery,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    await _set_hidden(callback, actor, texts, services, settings, False)


async def show_rating(
    message: Message,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    """/rating: the series' table, or a choice of series when there are several."""
    listed = await services.series.series_list()
    if not listed:
        await message.answer(texts("rating-no-series"))
        return
    if len(listed) > 1:
        await message.answer(texts("rating-choose"), reply_markup=series_keyboard(listed))
        return
    await _send_rating(message, listed[0][0], actor, texts, services, settings)


async def _send_rating(
    message: Message,
    series_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    view = await services.series.series_view(series_id)
    reader = await services.profiles.my_person(actor)
    table = rating_table(view, reader, texts.locale)
    keyboard = rating_keyboard(series_id, texts, settings.web_base_url)
    await message.answer(table.text, reply_markup=keyboard)


async def open_rating(
    callback: CallbackQuery,
    callback_data: RatingButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    if not isinstance(callback.message, Message):
        await callback.answer()
        return
    try:
        await _send_rating(
            callback.message, callback_data.series_id, actor, texts, services, settings
        )
    except NotFound:
        await callback.answer(texts("rating-gone"), show_alert=True)
        return
    await callback.answer()


async def send_rating_pictures(
    callback: CallbackQuery,
    callback_data: RatingButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    pictures: StandingsPainter,
) -> None:
    try:
        view = await services.series.series_view(callback_data.series_id)
    except NotFound:
        await callback.answer(texts("rating-gone"), show_alert=True)
        return
    if not isinstance(callback.message, Message):
        await callback.answer()
        return
    table = rating_table(view, await services.profiles.my_person(actor), texts.locale)
    async with long_work(callback, texts, replaced=False):
        title = texts("rating-picture-title", title=view.title)
        drawn = await pictures.draw_table(title, table.header, table.rows, table.mine)
        files = [
            BufferedInputFile(png, f"rating-{number}.png") for number, png in enumerate(drawn, 1)
        ]
        for start in range(0, len(files), ALBUM_SIZE):
            chunk = files[start : start + ALBUM_SIZE]
            if len(chunk) == 1:
                await callback.message.answer_photo(chunk[0])
            else:
                album = [InputMediaPhoto(media=picture) for picture in chunk]
                await callback.message.answer_media_group(album)  # type: ignore[arg-type]


async def show_clubs(
    callback: CallbackQuery,
    callback_data: RatingButton,
    texts: Texts,
    services: Services,
) -> None:
    try:
        view = await services.series.series_view(callback_data.series_id)
    except NotFound:
        await callback.answer(texts("rating-gone"), show_alert=True)
        return
    if isinstance(callback.message, Message):
        await answer(callback.message, clubs_screen(view, texts.locale), texts)
    await callback.answer()


def make_router() -> Router:
    """The profile and rating screens of a private chat."""
    router = Router(name="season")
    router.message.filter(F.chat.type == "private")
    router.message.register(show_profile, Command("profile"))
    router.message.register(show_rating, Command("rating"))
    pressed = ProfileButton.filter
    router.callback_query.register(open_profile, pressed(F.action == ProfileAction.SHOW))
    router.callback_query.register(send_history_picture, pressed(F.action == ProfileAction.PICTURE))
    router.callback_query.register(hide_my_profile, pressed(F.action == ProfileAction.HIDE))
    router.callback_query.register(show_my_profile, pressed(F.action == ProfileAction.UNHIDE))
    rating_button = RatingButton.filter
    router.callback_query.register(open_rating, rating_button(F.action == RatingAction.SHOW))
    router.callback_query.register(
        send_rating_pictures, rating_button(F.action == RatingAction.PICTURE)
    )
    router.callback_query.register(show_clubs, rating_button(F.action == RatingAction.CLUBS))
    return router
