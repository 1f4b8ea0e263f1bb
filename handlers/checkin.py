"""The tournament day: check-in, the missing list, no-shows, substitutes, exclusion."""

from __future__ import annotations

from aiogram import F, Router
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from domain import validation
from domain.actor import Actor
from domain.outgoing import Phrase
from domain.registration import Application, awaiting_substitute
from domain.services.catalog import Services
from domain.validation import Invalid
from handlers.callbacks import (
    CheckIn,
    CheckinCall,
    CheckinScreen,
    PersonAction,
    PersonButton,
    SubstitutePick,
)
from handlers.checkin_views import missing_keyboard, missing_text, substitute_keyboard
from handlers.common import show
from handlers.lists import show_person
from handlers.middlewares import Texts


class DayForm(StatesGroup):
    exclusion_reason = State()
    newcomer = State()


async def confirm_presence(
    callback: CallbackQuery,
    callback_data: CheckIn,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    await services.checkin.check_in(actor, callback_data.tournament_id)
    await show(callback, texts("checkin-done"))


async def missing_screen(
    callback: CallbackQuery,
    callback_data: CheckinScreen,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    found = await services.registration.roster(actor, callback_data.tournament_id)
    playing = [p for p in found.participants if p.playing]
    missing = [p for p in playing if p.missing]
    freed = awaiting_substitute(found.participants)
    text = missing_text(playing, missing, freed)
    keyboard = missing_keyboard(callback_data.tournament_id, missing + freed, texts)
    await show(callback, text, texts, reply_markup=keyboard)


async def call_players(
    callback: CallbackQuery,
    callback_data: CheckinCall,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    sent = await services.checkin.call_for_checkin(actor, callback_data.tournament_id, callback.id)
    await callback.answer(texts("checkin-called", count=len(sent)), show_alert=True)


async def no_show(
    callback: CallbackQuery,
    callback_data: PersonAction,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """The participant did not come; his screen again."""
    await services.checkin.mark_no_show(actor, callback_data.participant_id)
    await show_person(callback, callback_data.participant_id, actor, texts, services)


async def ask_exclusion(
    callback: CallbackQuery, callback_data: PersonAction, state: FSMContext, texts: Texts
) -> None:
    """Excluding a player (11.3.3): the reason is asked next."""
    await state.set_state(DayForm.exclusion_reason)
    await state.update_data(pid=callback_data.participant_id)
    await show(callback, texts("exclude-ask-reason"))


async def choose_substitute(
    callback: CallbackQuery,
    callback_data: PersonAction,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    """The waiting participants who may take the place, and "a newcomer"."""
    participant_id = callback_data.participant_id
    person = await services.registration.participant(participant_id)
    if person is None:
        raise Invalid("refused-not-found")
    found = await services.registration.roster(actor, person.tournament_id)
    waiting = [p for p in found.participants if p.may_substitute]
    await show(
        callback,
        texts.phrase(Phrase.of("substitute-choose", nickname=person.nickname)),
        reply_markup=substitute_keyboard(participant_id, waiting, texts),
    )


async def pick_substitute(
    callback: CallbackQuery,
    callback_data: SubstitutePick,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    participant_id, waiting_id = callback_data.participant_id, callback_data.waiting_id
    if waiting_id == 0:
        await state.set_state(DayForm.newcomer)
        await state.update_data(pid=participant_id)
        await show(callback, texts("substitute-ask-newcomer"))
        return
    player, _ = await services.checkin.substitute(actor, participant_id, waiting_id=waiting_id)
    await show(callback, texts.phrase(Phrase.of("substitute-done", nickname=player.nickname)))


async def take_newcomer(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    parts = [part.strip() for part in (message.text or "").split(";")]
    if len(parts) != 3:
        raise Invalid("substitute-newcomer-format")
    newcomer = Application(
        validation.nickname(parts[0]),
        validation.place_name(parts[1]),
        validation.place_name(parts[2]),
    )
    data = await state.get_data()
    await state.clear()
    player, _ = await services.checkin.substitute(actor, data["pid"], newcomer=newcomer)
    await message.answer(texts.phrase(Phrase.of("substitute-done", nickname=player.nickname)))


async def take_exclusion_reason(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    reason = validation.reason(message.text)
    data = await state.get_data()
    await state.clear()
    player, _ = await services.checkin.exclude(actor, data["pid"], reason)
    await message.answer(texts.phrase(Phrase.of("exclude-done", nickname=player.nickname)))


def make_router() -> Router:
    """Check-in, the missing list and the judges' actions on the tournament day."""
    router = Router(name="checkin")
    router.message.filter(F.chat.type == "private")
    router.callback_query.register(confirm_presence, CheckIn.filter())
    router.callback_query.register(missing_screen, CheckinScreen.filter())
    router.callback_query.register(call_players, CheckinCall.filter())
    person = PersonAction.filter
    router.callback_query.register(no_show, person(F.action == PersonButton.NO_SHOW))
    router.callback_query.register(ask_exclusion, person(F.action == PersonButton.EXCLUDE))
    router.callback_query.register(choose_substitute, person(F.action == PersonButton.SUBSTITUTE))
    router.callback_query.register(pick_substitute, SubstitutePick.filter())
    router.message.register(take_newcomer, DayForm.newcomer, F.text)
    router.message.register(take_exclusion_reason, DayForm.exclusion_reason, F.text)
    return router
