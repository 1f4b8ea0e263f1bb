"""Protests: the player's "Protest" button and /protest, the deciding judge's buttons and
decision text, the organizer's protest switch and the audit log (/audit, with CSV export).

Every press is re-authorized by the use case; the time comes from the Dispatcher's clock.
The audit log's text, keyboard and CSV are made in `handlers/protests_views.py`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from zoneinfo import ZoneInfo

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import BufferedInputFile, CallbackQuery, Message

from domain.actor import Actor
from domain.intents import ProtestChoice
from domain.permissions import Forbidden
from domain.protests import ProtestStatus
from domain.services.catalog import Services
from domain.services.protests import ProtestCase
from domain.users import User
from domain.validation import Invalid
from handlers.callbacks import AuditAction, AuditButton, DecisionButton, ProtestButton
from handlers.common import answer, show
from handlers.errors import REFUSALS
from handlers.game_log_views import game_log_text
from handlers.middlewares import Texts
from handlers.protests_views import (
    SWITCHES,
    audit_csv,
    audit_keyboard,
    audit_text,
    correct_keyboard,
    players_keyboard,
    targets_keyboard,
    tournaments_keyboard,
)
from handlers.protocol_views import render_keyboard, render_text


class ProtestForm(StatesGroup):
    reason = State()
    decision = State()


# --- the player -----------------------------------------------------------------------------


async def ask_reason(
    callback: CallbackQuery,
    callback_data: ProtestButton,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    target = await services.protests_filing.protest_target(actor, callback_data.game_id)
    await state.set_state(ProtestForm.reason)
    await state.update_data(game=callback_data.game_id)
    if isinstance(callback.message, Message):
        await callback.message.answer(
            texts(
                "protest-ask-reason",
                game=target.game.round_number,
                table=target.game.game.table,
                time=target.closes_at,
            )
        )
    await callback.answer()


async def list_protestable(
    message: Message, actor: Actor, texts: Texts, services: Services
) -> None:
    """/protest: the games whose protest window is open for this player."""
    targets = await services.protests_filing.protestable_games(actor)
    if not targets:
        await message.answer(texts("protest-none"))
        return
    await message.answer(texts("protest-choose"), reply_markup=targets_keyboard(targets, texts))


async def take_reason(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    photo = message.photo[-1].file_id if message.photo else None
    reason = message.text if photo is None else message.caption
    game_id = (await state.get_data())["game"]
    try:
        await services.protests_filing.file_protest(actor, game_id, reason, photo)
    except REFUSALS as error:
        # A reason of the wrong length may be written again; any other refusal is final (the
        # refusal handler says why).
        if not (isinstance(error, Invalid) and error.code == "protest-reason-length"):
            await state.clear()
        raise
    await state.clear()
    await message.answer(texts("protest-filed"))


# --- the deciding judge -------------------------------------------------------------------


async def ask_decision(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    state: FSMContext,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """Reject or accept: the decision's text is asked next."""
    protest_id, accept = callback_data.protest_id, callback_data.action is ProtestChoice.ACCEPT
    await services.protests_deciding.check_undecided(actor, protest_id)
    await state.set_state(ProtestForm.decision)
    await state.update_data(protest=protest_id, accept=accept)
    if isinstance(callback.message, Message):
        await callback.message.answer(
            texts("protest-ask-acceptance" if accept else "protest-ask-rejection")
        )
    await callback.answer()


async def annul(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    state: FSMContext,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    await _annul(callback, callback_data.protest_id, state, actor, texts, services)


async def _case_message(
    callback: CallbackQuery, press: DecisionButton, actor: Actor, services: Services
) -> tuple[ProtestCase, Message] | None:
    """The protest's case and the message pressed under it, or None (the press answered)
    when the message can no longer be answered under."""
    case = await services.protests_deciding.protest_case(actor, press.protest_id)
    if not isinstance(callback.message, Message):
        await callback.answer()
        return None
    return case, callback.message


async def show_players(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """The game's players: exclusion (11.3.3) is the tournament day's own screen, whose
    button asks the reason."""
    if found := await _case_message(callback, callback_data, actor, services):
        case, message = found
        keyboard = players_keyboard(case.players, texts)
        await message.answer(texts("protest-players-title"), reply_markup=keyboard)
        await callback.answer()


async def show_photo(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    actor: Actor,
    services: Services,
) -> None:
    if found := await _case_message(callback, callback_data, actor, services):
        case, message = found
        if case.protest.photo is not None:
            await message.answer_photo(case.protest.photo)
        await callback.answer()


async def open_correction(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    if found := await _case_message(callback, callback_data, actor, services):
        case, message = found
        await _open_correction(message, case.game.game.id, actor, texts, services)
        await callback.answer()


async def show_game_log(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """The game's live log, cut to Telegram's message length."""
    if found := await _case_message(callback, callback_data, actor, services):
        case, message = found
        zone = ZoneInfo(case.tournament.timezone)
        await answer(message, game_log_text(case.log, case.tournament.regulation, zone), texts)
        await callback.answer()


async def _annul(
    callback: CallbackQuery,
    protest_id: int,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """Annul the protest's game: a pending protest first takes the decision's text, an
    accepted one (its correction not made) is annulled with the decision it has."""
    case = await services.protests_deciding.protest_case(actor, protest_id)
    if case.protest.status is ProtestStatus.PENDING:
        if not case.tournament.regulation.protest_annulment_allowed:
            raise Invalid("protest-annulment-not-allowed")
        await state.set_state(ProtestForm.decision)
        await state.update_data(protest=protest_id, accept=True, annul=True)
        reply = texts("protest-ask-annulment")
    else:
        await services.protests_deciding.annul_game(actor, protest_id, text=None)
        reply = texts("protest-decided-annulled")
    if isinstance(callback.message, Message):
        await callback.message.answer(reply)
    await callback.answer()


async def _open_correction(
    message: Message,
    game_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The protocol screen, opened for the chief judge's correction."""
    view = await services.protocols.start_correction(actor, game_id)
    await answer(message, render_text(view), texts, reply_markup=render_keyboard(view, texts))


async def take_decision(
    message: Message,
    state: FSMContext,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    data = await state.get_data()
    try:
        if data.get("annul"):
            case = await services.protests_deciding.annul_game(
                actor, data["protest"], text=message.text
            )
        else:
            case = await services.protests_deciding.decide_protest(
                actor, data["protest"], accept=data["accept"], text=message.text
            )
    except REFUSALS as error:
        if not (isinstance(error, Invalid) and error.code == "protest-decision-length"):
            await state.clear()
        raise
    await state.clear()
    if data.get("annul"):
        await message.answer(texts("protest-decided-annulled"))
        return
    if not data["accept"]:
        await message.answer(texts("protest-decided-rejected"))
        return
    await message.answer(
        texts("protest-decided-accepted"),
        reply_markup=correct_keyboard(case.protest.id, texts),
    )
    await _open_correction(message, case.game.game.id, actor, texts, services)


# --- the organizer: the switch and the audit log ------------------------------------------------


async def _show_audit(
    event: Message | CallbackQuery,
    tournament_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    log = await services.protests_organizer.audit_log(actor, tournament_id)
    try:
        await services.protests_organizer.protest_settings(actor, tournament_id)
    except Forbidden:
        # The chief judge reads the log; only the organizer switches protests.
        organizer = False
    else:
        organizer = True
    text = audit_text(log)
    await show(event, text, texts, reply_markup=audit_keyboard(tournament_id, organizer, texts))


async def audit_command(
    message: Message,
    user: User,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """/audit: the audit log of the person's tournament (a choice when he runs several)."""
    tournaments = await services.protests_organizer.audited_tournaments(user.telegram_id)
    if not tournaments:
        await message.answer(texts("audit-no-tournament"))
        return
    if len(tournaments) == 1:
        await _show_audit(message, tournaments[0].id, actor, texts, services)
        return
    await message.answer(texts("audit-choose"), reply_markup=tournaments_keyboard(tournaments))


async def audit_screen(
    callback: CallbackQuery,
    callback_data: AuditButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    await _show_audit(callback, callback_data.tournament_id, actor, texts, services)


async def switch_protests(
    callback: CallbackQuery,
    callback_data: AuditButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """The organizer switches protests on, off or back to the regulation's rule (`SWITCHES`)."""
    tournament_id = callback_data.tournament_id
    switch = SWITCHES[callback_data.action]
    await services.protests_organizer.switch_protests(actor, tournament_id, switch)
    await _show_audit(callback, tournament_id, actor, texts, services)


async def audit_file(
    callback: CallbackQuery,
    callback_data: AuditButton,
    actor: Actor,
    services: Services,
) -> None:
    """The whole audit log as a CSV file."""
    tournament_id = callback_data.tournament_id
    log = await services.protests_organizer.audit_log(actor, tournament_id)
    if isinstance(callback.message, Message):
        document = BufferedInputFile(audit_csv(log), filename=f"audit-{tournament_id}.csv")
        await callback.message.answer_document(document)
    await callback.answer()


def make_router() -> Router:
    """Protests and the audit log, in private chats."""
    router = Router(name="protests")
    router.message.filter(F.chat.type == "private")
    router.message.register(list_protestable, Command("protest"))
    router.message.register(audit_command, Command("audit"))
    # A command typed meanwhile is not taken for the text.
    written = F.text & ~F.text.startswith("/")
    router.message.register(take_reason, ProtestForm.reason, written | F.photo)
    router.message.register(take_decision, ProtestForm.decision, written)
    router.callback_query.register(ask_reason, ProtestButton.filter())
    decisions: dict[Callable[..., Awaitable[None]], set[ProtestChoice]] = {
        ask_decision: {ProtestChoice.REJECT, ProtestChoice.ACCEPT},
        annul: {ProtestChoice.ANNUL},
        show_players: {ProtestChoice.PLAYERS},
        show_photo: {ProtestChoice.PHOTO},
        open_correction: {ProtestChoice.CORRECT},
        show_game_log: {ProtestChoice.GAME_LOG},
    }
    for handler, choices in decisions.items():
        router.callback_query.register(handler, DecisionButton.filter(F.action.in_(choices)))
    audit = AuditButton.filter
    router.callback_query.register(audit_screen, audit(F.action == AuditAction.VIEW))
    router.callback_query.register(switch_protests, audit(F.action.in_(SWITCHES)))
    router.callback_query.register(audit_file, audit(F.action == AuditAction.CSV))
    return router
