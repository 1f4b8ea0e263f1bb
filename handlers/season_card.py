"""The tournament card's season buttons (its organizer's): the series it belongs to, chosen
from the series' buttons (or none), and the switch that makes it rated or not. Each press is
re-authorized by its use case; the card is shown again afterwards, as its other buttons do."""

from __future__ import annotations

from aiogram import Bot, F, Router
from aiogram.types import CallbackQuery, Message

from bot.config import Settings
from domain.actor import Actor
from domain.outgoing import Phrase
from domain.permissions import Action, Forbidden, allows
from domain.services.access import NotFound
from domain.services.catalog import Services
from handlers.callbacks import SeasonCardAction, SeasonCardButton
from handlers.middlewares import Texts
from handlers.organizer import render_card
from handlers.season_admin_views import attach_keyboard


async def choose_series(
    callback: CallbackQuery,
    callback_data: SeasonCardButton,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    card = await services.tournaments.tournament_card(actor, callback_data.tournament_id)
    if not allows(card.roles, Action.EDIT_SETTINGS):
        raise Forbidden(Action.EDIT_SETTINGS)
    listed = await services.series.series_list()
    if not listed:
        await callback.answer(texts("card-series-no-series"), show_alert=True)
        return
    if isinstance(callback.message, Message):
        question = texts.phrase(Phrase.of("card-series-choose", title=card.tournament.title))
        keyboard = attach_keyboard(card.tournament.id, listed, texts)
        await callback.message.answer(question, reply_markup=keyboard)
    await callback.answer()


async def attach(
    callback: CallbackQuery,
    callback_data: SeasonCardButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
) -> None:
    series_id = callback_data.series_id or None
    titles = dict(await services.series.series_list())
    if series_id is not None and series_id not in titles:
        raise NotFound()
    await services.series.attach_tournament(actor, callback_data.tournament_id, series_id)
    if series_id is None:
        said = texts("card-series-detached")
    else:
        said = texts.phrase(Phrase.of("card-series-attached", series=titles[series_id]))
    if isinstance(callback.message, Message):
        await callback.message.answer(said)
    await render_card(callback, callback_data.tournament_id, actor, texts, services, settings, bot)


async def _rate(
    callback: CallbackQuery,
    callback_data: SeasonCardButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
    rated: bool,
) -> None:
    await services.series.mark_rated(actor, callback_data.tournament_id, rated)
    if isinstance(callback.message, Message):
        await callback.message.answer(texts("card-rated-now-on" if rated else "card-rated-now-off"))
    await render_card(callback, callback_data.tournament_id, actor, texts, services, settings, bot)


async def make_rated(
    callback: CallbackQuery,
    callback_data: SeasonCardButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
) -> None:
    await _rate(callback, callback_data, actor, texts, services, settings, bot, True)


async def make_unrated(
    callback: CallbackQuery,
    callback_data: SeasonCardButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
) -> None:
    await _rate(callback, callback_data, actor, texts, services, settings, bot, False)


def make_router() -> Router:
    """The tournament card's season buttons."""
    router = Router(name="season_card")
    pressed = SeasonCardButton.filter
    router.callback_query.register(choose_series, pressed(F.action == SeasonCardAction.CHOOSE))
    router.callback_query.register(attach, pressed(F.action == SeasonCardAction.ATTACH))
    router.callback_query.register(make_rated, pressed(F.action == SeasonCardAction.RATED))
    router.callback_query.register(make_unrated, pressed(F.action == SeasonCardAction.UNRATED))
    return router
