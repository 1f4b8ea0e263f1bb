"""A game's stream screen: the organizer opens the stream view of a table's game (a link
for OBS or vMix with a token of its own: the roles show there), sets its delay, or revokes it.
It opens from the round's view (a published table's "📺" button); every press is
re-authorized by the use cases (`domain.services.live_tables`)."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.types import CallbackQuery, Message

from bot.config import Settings
from bot.seeds import stream_token
from domain.actor import Actor
from domain.services.catalog import Services
from domain.services.live_tables import StreamScreen
from handlers.callbacks import StreamAction, StreamButton
from handlers.common import edit_screen
from handlers.middlewares import Texts
from handlers.streams_views import stream_keyboard, stream_text


async def _show(
    callback: CallbackQuery, screen: StreamScreen, texts: Texts, settings: Settings
) -> None:
    if isinstance(callback.message, Message):
        await edit_screen(
            callback.message,
            stream_text(screen, settings.web_base_url),
            reply_markup=stream_keyboard(screen, texts),
            texts=texts,
            disable_web_page_preview=True,
        )


async def show_stream(
    callback: CallbackQuery,
    callback_data: StreamButton,
    texts: Texts,
    actor: Actor,
    settings: Settings,
    services: Services,
) -> None:
    screen = await services.live_tables.stream_screen(actor, callback_data.game_id)
    await _show(callback, screen, texts, settings)
    await callback.answer()


async def open_stream(
    callback: CallbackQuery,
    callback_data: StreamButton,
    texts: Texts,
    actor: Actor,
    settings: Settings,
    services: Services,
) -> None:
    """A new link (the old one stops opening the view)."""
    screen = await services.live_tables.open_stream(actor, callback_data.game_id, stream_token())
    await _show(callback, screen, texts, settings)
    await callback.answer(texts("stream-opened"))


async def revoke_stream(
    callback: CallbackQuery,
    callback_data: StreamButton,
    texts: Texts,
    actor: Actor,
    settings: Settings,
    services: Services,
) -> None:
    screen = await services.live_tables.revoke_stream(actor, callback_data.game_id)
    await _show(callback, screen, texts, settings)
    await callback.answer(texts("stream-revoked"))


async def set_delay(
    callback: CallbackQuery,
    callback_data: StreamButton,
    texts: Texts,
    actor: Actor,
    settings: Settings,
    services: Services,
) -> None:
    screen = await services.live_tables.set_stream_delay(
        actor, callback_data.game_id, callback_data.value
    )
    await _show(callback, screen, texts, settings)
    await callback.answer(texts("stream-delay-set", seconds=callback_data.value))


def make_router() -> Router:
    """The stream screen's presses, in private chats: one handler per action."""
    router = Router(name="streams")
    presses = {
        StreamAction.SHOW: show_stream,
        StreamAction.OPEN: open_stream,
        StreamAction.REVOKE: revoke_stream,
        StreamAction.DELAY: set_delay,
    }
    for action, handler in presses.items():
        router.callback_query.register(handler, StreamButton.filter(F.action == action))
    return router
