"""The captain's screens: create a team, share its invite link, remove a member, withdraw."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from aiogram import Bot, F, Router
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from domain import validation
from domain.actor import Actor
from domain.services.catalog import Services
from domain.services.teams import (
    TeamView,
)
from domain.users import User
from handlers.callbacks import RemindTeams, TeamAction, TeamButton
from handlers.common import deep_link, show
from handlers.middlewares import Texts
from handlers.teams_views import (
    team_keyboard,
    team_text,
    withdraw_keyboard,
)


class TeamForm(StatesGroup):
    name = State()


async def ask_team_name(
    callback: CallbackQuery, tournament_id: int, state: FSMContext, texts: Texts
) -> None:
    """Start creating a team: the captain types its name next."""
    await state.clear()
    await state.update_data(tid=tournament_id)
    await state.set_state(TeamForm.name)
    await show(callback, texts("team-ask-name"))


async def show_team(
    event: Message | CallbackQuery, view: TeamView, user: User, texts: Texts, bot: Bot
) -> None:
    """The team with its members; the captain also gets the link and the actions."""
    captain = next((m for m in view.members if m.id == view.team.captain_id), None)
    is_captain = captain is not None and captain.user_id == user.telegram_id
    acts = is_captain and not view.tournament.has_started
    link = await deep_link(bot, view.invite_payload) if acts else None
    await show(event, team_text(view, link), texts, reply_markup=team_keyboard(view, texts, acts))


async def take_team_name(
    message: Message,
    state: FSMContext,
    user: User,
    texts: Texts,
    services: Services,
    bot: Bot,
    actor: Actor,
) -> None:
    data = await state.get_data()
    name = validation.team_name(message.text)
    await state.clear()
    view = await services.teams.create_team(actor, data["tid"], name)
    await show_team(message, view, user, texts, bot)


async def remove_from_team(
    callback: CallbackQuery,
    callback_data: TeamAction,
    user: User,
    texts: Texts,
    services: Services,
    bot: Bot,
    actor: Actor,
) -> None:
    """The captain takes a member off his team."""
    press = callback_data
    view, _ = await services.teams.remove_member(actor, press.team_id, press.member)
    await show_team(callback, view, user, texts, bot)


async def ask_withdraw_team(
    callback: CallbackQuery, callback_data: TeamAction, texts: Texts
) -> None:
    keyboard = withdraw_keyboard(callback_data.team_id, texts)
    await show(callback, texts("team-withdraw-sure"), reply_markup=keyboard)


async def withdraw_own_team(
    callback: CallbackQuery,
    callback_data: TeamAction,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    await services.teams.withdraw_team(actor, callback_data.team_id)
    await show(callback, texts("team-withdrawn"))


async def team_screen(
    callback: CallbackQuery,
    callback_data: TeamAction,
    user: User,
    texts: Texts,
    services: Services,
    bot: Bot,
    actor: Actor,
) -> None:
    await _show_own_team(callback, callback_data.team_id, user, texts, services, bot, actor)


async def _show_own_team(
    callback: CallbackQuery,
    team_id: int,
    user: User,
    texts: Texts,
    services: Services,
    bot: Bot,
    actor: Actor,
) -> None:
    view = await services.teams.own_team(actor, team_id)
    if view is None:
        await callback.answer(texts("refused-not-found"), show_alert=True)
        return
    await show_team(callback, view, user, texts, bot)


async def remind_teams(
    callback: CallbackQuery,
    callback_data: RemindTeams,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    sent = await services.teams.remind_incomplete_teams(actor, callback_data.tournament_id)
    await callback.answer(texts("team-reminded", count=len(sent)), show_alert=True)


def make_router() -> Router:
    """Team creation, the team screen and the captain's actions."""
    router = Router(name="teams")
    router.message.filter(F.chat.type == "private")
    router.message.register(take_team_name, TeamForm.name, F.text)
    presses: dict[Callable[..., Awaitable[None]], TeamButton] = {
        team_screen: TeamButton.SHOW,
        remove_from_team: TeamButton.REMOVE,
        ask_withdraw_team: TeamButton.WITHDRAW,
        withdraw_own_team: TeamButton.WITHDRAW_YES,
    }
    for handler, action in presses.items():
        router.callback_query.register(handler, TeamAction.filter(F.action == action))
    router.callback_query.register(remind_teams, RemindTeams.filter())
    return router
