"""/standings (the table, then as a picture or a CSV file on request) and /me (a player's games)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.types import BufferedInputFile, CallbackQuery, InputMediaPhoto, Message

from bot.rendering.pictures import StandingsPainter
from bot.rendering.player_card import player_card_text
from bot.rendering.standings_csv import standings_csv
from bot.rendering.standings_text import standings_pages
from domain.actor import Actor
from domain.services.catalog import Services
from domain.standings_board import StandingsBoard
from domain.tournament import Tournament
from handlers.callbacks import MyGamesOpen, StandingsFile, StandingsFileKind, StandingsOpen
from handlers.common import long_work
from handlers.middlewares import Texts
from handlers.season import my_rating_line
from handlers.standings_views import choice_keyboard, file_keyboard

# Telegram's largest album.
ALBUM_SIZE = 10


async def _choose(
    message: Message,
    choice: list[Tournament],
    question: str,
    button: type[StandingsOpen] | type[MyGamesOpen],
) -> None:
    """A button per tournament the person may mean; its press opens that one."""
    await message.answer(question, reply_markup=choice_keyboard(choice, button))


async def show_standings(message: Message, actor: Actor, texts: Texts, services: Services) -> None:
    """/standings: the person's tournament's table, or a choice when he has two running."""
    choice = await services.standings.standings_choice(actor)
    if len(choice) > 1:
        await _choose(message, choice, texts("standings-choose"), StandingsOpen)
        return
    found = await services.standings.standings_of_person(actor)
    if found is None:
        await message.answer(texts("standings-none"))
        return
    await _send_standings(message, *found, texts)


async def open_standings(
    callback: CallbackQuery,
    callback_data: StandingsOpen,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    board = await _pressed_board(callback, callback_data.tournament_id, actor, texts, services)
    if board is None or not isinstance(callback.message, Message):
        return
    await _send_standings(callback.message, callback_data.tournament_id, board, texts)
    await callback.answer()


async def _pressed_board(
    callback: CallbackQuery,
    tournament_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> StandingsBoard | None:
    """The standings a button names, if the person may read them; else the press is told the
    tournament is gone and gets None."""
    board = await services.standings.standings_of_tournament(actor, tournament_id)
    if board is None or not isinstance(callback.message, Message):
        await callback.answer(texts("standings-gone"), show_alert=True)
        return None
    return board


async def _send_standings(
    message: Message, tournament_id: int, board: StandingsBoard, texts: Texts
) -> None:
    """The table as messages cut between rows, the last with the picture and CSV buttons."""
    *pages, last = standings_pages(board, texts.locale)
    for page in pages:
        await message.answer(page)
    await message.answer(last, reply_markup=file_keyboard(tournament_id, texts))


async def send_standings_pictures(
    callback: CallbackQuery,
    callback_data: StandingsFile,
    actor: Actor,
    texts: Texts,
    services: Services,
    pictures: StandingsPainter,
) -> None:
    board = await _pressed_board(callback, callback_data.tournament_id, actor, texts, services)
    if board is None or not isinstance(callback.message, Message):
        return
    async with long_work(callback, texts, replaced=False):  # drawing takes a while
        # Drawn in the picture process, outside the event loop's (see StandingsPainter).
        drawn = await pictures.draw_all(board, texts.locale)
        files = [
            BufferedInputFile(png, f"standings-{number}.png")
            for number, png in enumerate(drawn, start=1)
        ]
        # A long table is an album of pictures a phone shows without shrinking them; an
        # album holds 2 to 10, so a lone picture goes as a photo.
        for start in range(0, len(files), ALBUM_SIZE):
            chunk = files[start : start + ALBUM_SIZE]
            if len(chunk) == 1:
                await callback.message.answer_photo(chunk[0])
            else:
                album = [InputMediaPhoto(media=picture) for picture in chunk]
                await callback.message.answer_media_group(album)  # type: ignore[arg-type]


async def send_standings_csv(
    callback: CallbackQuery,
    callback_data: StandingsFile,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    board = await _pressed_board(callback, callback_data.tournament_id, actor, texts, services)
    if board is None or not isinstance(callback.message, Message):
        return
    async with long_work(callback, texts, replaced=False):
        name = f"standings-{callback_data.tournament_id}.csv"
        await callback.message.answer_document(
            BufferedInputFile(standings_csv(board, texts.locale), name)
        )


async def show_my_games(message: Message, actor: Actor, texts: Texts, services: Services) -> None:
    """/me: the player's games, or a choice when he plays in two tournaments at once."""
    choice = await services.standings.standings_choice(actor, playing=True)
    if len(choice) > 1:
        await _choose(message, choice, texts("me-choose"), MyGamesOpen)
        return
    card = await services.standings.card_of_person(actor)
    if card is None:
        await message.answer(texts("me-not-playing"))
        return
    rating = await my_rating_line(services, actor, texts)
    await message.answer(player_card_text(card, texts.locale) + "\n\n" + rating)


async def open_my_games(
    callback: CallbackQuery,
    callback_data: MyGamesOpen,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    card = await services.standings.card_of_person(actor, callback_data.tournament_id)
    if card is None or not isinstance(callback.message, Message):
        await callback.answer(texts("standings-gone"), show_alert=True)
        return
    rating = await my_rating_line(services, actor, texts)
    await callback.message.answer(player_card_text(card, texts.locale) + "\n\n" + rating)
    await callback.answer()


def make_router() -> Router:
    """The standings screens of a private chat."""
    router = Router(name="standings")
    router.message.filter(F.chat.type == "private")
    router.message.register(show_standings, Command("standings"))
    router.message.register(show_my_games, Command("me"))
    router.callback_query.register(open_standings, StandingsOpen.filter())
    router.callback_query.register(open_my_games, MyGamesOpen.filter())
    pictures = StandingsFile.filter(F.kind == StandingsFileKind.PICTURE)
    router.callback_query.register(send_standings_pictures, pictures)
    spreadsheet = StandingsFile.filter(F.kind == StandingsFileKind.SPREADSHEET)
    router.callback_query.register(send_standings_csv, spreadsheet)
    return router
