"""An admin's /series (the list, a new series, a series' screen and its points table sent as
a file), an organizer's /merge (two accounts of one player picked by buttons, shown side by
side, confirmed; refused when both played in one tournament) and /joinclubs (two spellings
of one club).

Every refusal is the use case's (`Forbidden`, `NotFound`, `Invalid`), answered by the errors
router; a stale or forged press finds nothing to change and says so.
"""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.filters import Command, CommandObject
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from bot.config import Settings
from domain.actor import Actor
from domain.outgoing import Phrase
from domain.permissions import Action, Forbidden
from domain.services.catalog import Services
from domain.services.users import PersonRole
from handlers.callbacks import MergeAction, MergeButton, SeriesAction, SeriesButton
from handlers.common import answer, edit_screen
from handlers.middlewares import Texts
from handlers.season_admin_views import (
    SERIES_TITLE_LIMIT,
    merge_keep_keyboard,
    merge_merge_keyboard,
    merge_preview_screen,
    series_list_keyboard,
    series_screen,
)

POINTS_FILE_LIMIT = 64 * 1024
QUERY_LIMIT = 64
# The players a merge picks from, kept in the organizer's conversation data meanwhile.
MERGE_FOUND = "merge_found"


class SeriesForm(StatesGroup):
    points = State()


async def _organizer(services: Services, actor: Actor) -> None:
    """Merging accounts and joining clubs are for organizers and admins."""
    roles = await services.users.roles_of(actor)
    if actor.is_admin or PersonRole.ORGANIZER in roles:
        return
    raise Forbidden(Action.EDIT_SETTINGS)


async def list_or_create_series(
    message: Message,
    command: CommandObject,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """/series: the series as buttons; /series <title>: a new series (admins)."""
    if not actor.is_admin:
        raise Forbidden(Action.EDIT_SETTINGS)
    title = " ".join((command.args or "").split())
    if title:
        if len(title) > SERIES_TITLE_LIMIT:
            await message.answer(texts("series-title-too-long", limit=SERIES_TITLE_LIMIT))
            return
        series_id = await services.series.create_series(actor, title)
        await message.answer(texts.phrase(Phrase.of("series-created", title=title)))
        view = await services.series.series_view(series_id)
        text, keyboard = series_screen(view, texts, None)
        await answer(message, text, texts, reply_markup=keyboard)
        return
    listed = await services.series.series_list()
    if not listed:
        await message.answer(texts("series-none"))
        return
    await message.answer(texts("series-list"), reply_markup=series_list_keyboard(listed))


async def open_series(
    callback: CallbackQuery,
    callback_data: SeriesButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
) -> None:
    if not actor.is_admin:
        raise Forbidden(Action.EDIT_SETTINGS)
    view = await services.series.series_view(callback_data.series_id)
    text, keyboard = series_screen(view, texts, settings.web_base_url)
    if isinstance(callback.message, Message):
        await answer(callback.message, text, texts, reply_markup=keyboard)
    await callback.answer()


async def ask_points_table(
    callback: CallbackQuery,
    callback_data: SeriesButton,
    actor: Actor,
    state: FSMContext,
    texts: Texts,
    services: Services,
) -> None:
    if not actor.is_admin:
        raise Forbidden(Action.EDIT_SETTINGS)
    await services.series.series_view(callback_data.series_id)  # NotFound for a series gone
    if isinstance(callback.message, Message):
        await callback.message.answer(texts("series-send-points"))
    await state.set_state(SeriesForm.points)
    await state.update_data(series_id=callback_data.series_id)
    await callback.answer()


async def receive_points_table(
    message: Message,
    actor: Actor,
    state: FSMContext,
    texts: Texts,
    services: Services,
    bot: Bot,
) -> None:
    """The points table as a document: saved, or refused with its problems (nothing saved,
    the admin may send a corrected file)."""
    document = message.document
    assert document is not None  # the filter
    if (document.file_size or 0) > POINTS_FILE_LIMIT:
        await message.answer(texts("series-points-too-big", limit=POINTS_FILE_LIMIT // 1024))
        return
    content = await bot.download(document)
    try:
        text = (content.read() if content else b"").decode("utf-8")
    except UnicodeDecodeError:
        await message.answer(texts("series-points-not-text"))
        return
    series_id = int((await state.get_data()).get("series_id", 0))
    await services.series.set_points_table(actor, series_id, text)
    await state.clear()
    view = await services.series.series_view(series_id)
    await message.answer(texts.phrase(Phrase.of("series-points-saved", title=view.title)))


async def points_not_a_file(message: Message, texts: Texts) -> None:
    await message.answer(texts("series-points-not-file"))


async def cancel_points(message: Message, state: FSMContext, texts: Texts) -> None:
    await state.clear()
    await message.answer(texts("series-cancelled"))


async def start_merge(
    message: Message,
    command: CommandObject,
    actor: Actor,
    state: FSMContext,
    texts: Texts,
    services: Services,
) -> None:
    """/merge <nickname>: the players found, to pick the account that stays."""
    await _organizer(services, actor)
    query = (command.args or "").strip()[:QUERY_LIMIT]
    if not query:
        await message.answer(texts("merge-usage"))
        return
    found = await services.profiles.find_players(query)
    if not found:
        await message.answer(texts.phrase(Phrase.of("merge-not-found", query=query)))
        return
    await state.update_data({MERGE_FOUND: [list(item) for item in found]})
    await message.answer(texts("merge-choose-keep"), reply_markup=merge_keep_keyboard(found))


async def _found(state: FSMContext) -> list[tuple[int, str, str]]:
    data = await state.get_data()
    return [(int(i), str(n), str(c)) for i, n, c in data.get(MERGE_FOUND, [])]


async def pick_keep(
    callback: CallbackQuery,
    callback_data: MergeButton,
    actor: Actor,
    state: FSMContext,
    texts: Texts,
    services: Services,
) -> None:
    await _organizer(services, actor)
    found = await _found(state)
    keep = next((item for item in found if item[0] == callback_data.keep), None)
    others = [item for item in found if item[0] != callback_data.keep]
    if keep is None or not others or not isinstance(callback.message, Message):
        await callback.answer(texts("merge-stale"), show_alert=True)
        return
    text = texts.phrase(Phrase.of("merge-choose-merge", keep=keep[1]))
    await edit_screen(callback.message, text, reply_markup=merge_merge_keyboard(keep[0], others))
    await callback.answer()


async def pick_merge(
    callback: CallbackQuery,
    callback_data: MergeButton,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """Both accounts picked: shown side by side, with the confirmation unless they overlap."""
    if callback_data.keep == callback_data.merge or not isinstance(callback.message, Message):
        await callback.answer(texts("merge-stale"), show_alert=True)
        return
    preview = await services.merging.merge_preview(actor, callback_data.keep, callback_data.merge)
    text, keyboard = merge_preview_screen(preview, texts)
    await edit_screen(callback.message, text, keyboard, texts)
    await callback.answer()


async def confirm_merge(
    callback: CallbackQuery,
    callback_data: MergeButton,
    actor: Actor,
    state: FSMContext,
    texts: Texts,
    services: Services,
) -> None:
    preview = await services.merging.merge_preview(actor, callback_data.keep, callback_data.merge)
    await services.merging.merge_persons(actor, callback_data.keep, callback_data.merge)
    await state.update_data({MERGE_FOUND: []})
    done = texts.phrase(
        Phrase.of("merge-done", keep=preview.keep.nickname, merge=preview.merge.nickname)
    )
    if isinstance(callback.message, Message):
        await edit_screen(callback.message, done)
    await callback.answer()


async def cancel_merge(callback: CallbackQuery, state: FSMContext, texts: Texts) -> None:
    await state.update_data({MERGE_FOUND: []})
    if isinstance(callback.message, Message):
        await edit_screen(callback.message, texts("merge-cancelled"))
    await callback.answer()


async def join_club_spellings(
    message: Message,
    command: CommandObject,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """/joinclubs Club = other spelling."""
    await _organizer(services, actor)
    club, equals, alias = (command.args or "").partition("=")
    club, alias = " ".join(club.split()), " ".join(alias.split())
    if not equals or not club or not alias:
        await message.answer(texts("clubs-usage"))
        return
    await services.clubs.join_clubs(actor, club, alias)
    await message.answer(texts.phrase(Phrase.of("clubs-joined", club=club, alias=alias)))


def make_router() -> Router:
    """The admin's series screens, the organizer's merges and club spellings."""
    router = Router(name="season_admin")
    router.message.filter(F.chat.type == "private")
    router.message.register(list_or_create_series, Command("series"))
    router.message.register(start_merge, Command("merge"))
    router.message.register(join_club_spellings, Command("joinclubs"))
    router.message.register(receive_points_table, SeriesForm.points, F.document)
    router.message.register(cancel_points, SeriesForm.points, Command("cancel"))
    # A command typed meanwhile (/cancel, /help...) goes to its own screen.
    router.message.register(points_not_a_file, SeriesForm.points, ~F.text.startswith("/"))
    series = SeriesButton.filter
    router.callback_query.register(open_series, series(F.action == SeriesAction.SHOW))
    router.callback_query.register(ask_points_table, series(F.action == SeriesAction.POINTS))
    merge = MergeButton.filter
    router.callback_query.register(pick_keep, merge(F.action == MergeAction.KEEP))
    router.callback_query.register(pick_merge, merge(F.action == MergeAction.MERGE))
    router.callback_query.register(confirm_merge, merge(F.action == MergeAction.CONFIRM))
    router.callback_query.register(cancel_merge, merge(F.action == MergeAction.CANCEL))
    return router
