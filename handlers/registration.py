"""The player's screens: registration by deep link, the summary, edit and withdrawal (their
texts and keyboard are in `handlers/registration_views.py`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import Bot, F, Router
from aiogram.filters import CommandObject, CommandStart
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from domain import validation
from domain.actor import Actor
from domain.invites import InviteKind
from domain.layout import lines
from domain.outgoing import Phrase
from domain.registration import Application, ParticipantStatus
from domain.services.catalog import Services
from domain.services.ports import Clock
from domain.services.registration import (
    Registration,
)
from domain.users import User
from domain.validation import Invalid
from handlers.callbacks import MyRegistration, RegistrationAction
from handlers.common import answer, show
from handlers.middlewares import Texts
from handlers.registration_views import (
    left_text,
    registration_keyboard,
    registration_text,
    summary_keyboard,
    withdraw_keyboard,
)
from handlers.season import my_rating_line
from handlers.teams import ask_team_name, show_team


class RegistrationForm(StatesGroup):
    nickname = State()
    club = State()
    city = State()
    confirm = State()


async def show_registration(
    event: Message | CallbackQuery,
    registration: Registration,
    texts: Texts,
    clock: Clock,
    rating: str = "",
) -> None:
    await show(
        event,
        registration_text(registration, rating),
        texts,
        reply_markup=registration_keyboard(registration, texts, clock=clock),
    )


async def open_link(
    message: Message,
    command: CommandObject,
    bot: Bot,
    state: FSMContext,
    user: User,
    texts: Texts,
    services: Services,
    clock: Clock,
    actor: Actor,
) -> None:
    opened = await services.registration.open_registration_link(actor, command.args or "")
    if opened is None:
        await message.answer(texts("start-link-invalid"))
        return
    invite, mine = opened
    await state.clear()
    holds = mine.participant is not None and mine.participant.holds_place
    if invite.kind is InviteKind.TEAM and holds:
        assert invite.team_id is not None
        view, _ = await services.teams.join_team(actor, invite.team_id)
        await show_team(message, view, user, texts, bot)
        return
    if holds:
        rating = await my_rating_line(services, actor, texts)
        await show_registration(message, mine, texts, clock=clock, rating=rating)
        return
    if mine.left:
        await answer(message, left_text(mine), texts)
        return
    await state.update_data(tid=invite.tournament_id, team_id=invite.team_id, editing=False)
    await state.set_state(RegistrationForm.nickname)
    asked = Phrase.of("registration-ask-nickname")
    await answer(message, lines([registration_text(mine), asked], "\n\n"), texts)


async def take_nickname(message: Message, state: FSMContext, texts: Texts) -> None:
    nickname = validation.nickname(message.text)
    await state.update_data(nickname=nickname)
    await state.set_state(RegistrationForm.club)
    await message.answer(texts("registration-ask-club"))


async def take_club(message: Message, state: FSMContext, texts: Texts) -> None:
    club = validation.place_name(message.text)
    await state.update_data(club=club)
    await state.set_state(RegistrationForm.city)
    await message.answer(texts("registration-ask-city"))


async def take_city(message: Message, state: FSMContext, texts: Texts) -> None:
    city = validation.place_name(message.text)
    data = await state.update_data(city=city)
    await state.set_state(RegistrationForm.confirm)
    await message.answer(
        texts.phrase(
            Phrase.of(
                "registration-summary", nickname=data["nickname"], club=data["club"], city=city
            )
        ),
        reply_markup=summary_keyboard(data["tid"], texts),
    )


async def _summary_data(
    callback: CallbackQuery, callback_data: MyRegistration, state: FSMContext, texts: Texts
) -> dict[str, Any] | None:
    """What the person typed for the summary the press was made on, or None (the press
    answered as out of date) when his conversation has moved on."""
    data: dict[str, Any] = await state.get_data()
    if (
        await state.get_state() != RegistrationForm.confirm.state
        or data.get("tid") != callback_data.tournament_id
    ):
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return None
    return data


async def redo(
    callback: CallbackQuery, callback_data: MyRegistration, state: FSMContext, texts: Texts
) -> None:
    """The summary's "start again": the nickname is asked again."""
    if await _summary_data(callback, callback_data, state, texts) is not None:
        await state.set_state(RegistrationForm.nickname)
        await show(callback, texts("registration-ask-nickname"))


async def confirm(
    callback: CallbackQuery,
    callback_data: MyRegistration,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
    clock: Clock,
) -> None:
    data = await _summary_data(callback, callback_data, state, texts)
    if data is None:
        return
    application = Application(data["nickname"], data["club"], data["city"])
    try:
        if data.get("editing"):
            await services.registration.edit_registration(
                actor, callback_data.tournament_id, application
            )
            mine = await services.registration.registration_of(actor, callback_data.tournament_id)
        else:
            mine = await services.registration.register(
                actor,
                callback_data.tournament_id,
                application,
                team_id=data.get("team_id"),
            )
    finally:
        # A refused registration starts over from the link; nothing was stored.
        await state.clear()
    assert mine.participant is not None
    key = (
        "registration-waiting"
        if mine.participant.status is ParticipantStatus.WAITING
        else "registration-done"
    )
    await show(
        callback,
        # No rating line here: the press keeps to its three transactions (the screen shows
        # it whenever the player opens his registration).
        lines([Phrase.of(key), registration_text(mine)], "\n\n"),
        texts,
        reply_markup=registration_keyboard(mine, texts, clock=clock),
    )


async def my_registration(
    callback: CallbackQuery,
    callback_data: MyRegistration,
    actor: Actor,
    texts: Texts,
    services: Services,
    clock: Clock,
) -> None:
    """The player's own registration screen."""
    mine = await services.registration.registration_of(actor, callback_data.tournament_id)
    rating = await my_rating_line(services, actor, texts)
    await show_registration(callback, mine, texts, clock=clock, rating=rating)


async def edit_own(
    callback: CallbackQuery,
    callback_data: MyRegistration,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The player types his nickname, club and city again, until his tournament starts."""
    tournament_id = callback_data.tournament_id
    mine = await services.registration.registration_of(actor, tournament_id)
    if mine.participant is None or not mine.participant.holds_place or mine.tournament.has_started:
        raise Invalid("registration-frozen")
    await state.clear()
    await state.update_data(tid=tournament_id, team_id=None, editing=True)
    await state.set_state(RegistrationForm.nickname)
    await show(callback, texts("registration-ask-nickname"))


async def ask_withdraw(
    callback: CallbackQuery, callback_data: MyRegistration, texts: Texts
) -> None:
    await show(
        callback,
        texts("registration-withdraw-sure"),
        reply_markup=withdraw_keyboard(callback_data.tournament_id, texts),
    )


async def withdraw_own(
    callback: CallbackQuery,
    callback_data: MyRegistration,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    await services.registration.withdraw(actor, callback_data.tournament_id)
    await show(callback, texts("registration-withdrawn"))


async def create_team_press(
    callback: CallbackQuery, callback_data: MyRegistration, state: FSMContext, texts: Texts
) -> None:
    await ask_team_name(callback, callback_data.tournament_id, state, texts)


def make_router() -> Router:
    """Registration by link, the summary and the player's own registration screen."""
    router = Router(name="registration")
    router.message.filter(F.chat.type == "private")
    router.message.register(
        open_link,
        CommandStart(deep_link=True, magic=F.args.regexp(r"^[rt][A-Za-z0-9_-]+$")),
    )
    router.message.register(take_nickname, RegistrationForm.nickname, F.text)
    router.message.register(take_club, RegistrationForm.club, F.text)
    router.message.register(take_city, RegistrationForm.city, F.text)
    presses: dict[Callable[..., Awaitable[None]], RegistrationAction] = {
        confirm: RegistrationAction.CONFIRM,
        redo: RegistrationAction.REDO,
        my_registration: RegistrationAction.SHOW,
        edit_own: RegistrationAction.EDIT,
        ask_withdraw: RegistrationAction.WITHDRAW,
        withdraw_own: RegistrationAction.WITHDRAW_YES,
        create_team_press: RegistrationAction.TEAM,
    }
    for handler, action in presses.items():
        router.callback_query.register(handler, MyRegistration.filter(F.action == action))
    return router
