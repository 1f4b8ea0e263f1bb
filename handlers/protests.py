"""Protests: the player's "Protest" button and /protest, the deciding judge's buttons and
decision text, the organizer's protest switch and the audit log (/audit, with CSV export).

Every press is re-authorized by the use case; the time comes from the Dispatcher's clock.
The audit log's text, keyboard and CSV are made in `handlers/protests_views.py`.
"""

from __future__ import annotations

from zoneinfo import ZoneInfo

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import BufferedInputFile, CallbackQuery, Message

from bot.rendering.text import split_text
from domain.actor import Actor
from domain.permissions import Forbidden
from domain.protests import ProtestStatus
from domain.services import protests, protocols
from domain.services.ports import UnitOfWorkFactory
from domain.services.protests import ACCEPT, ANNUL, CORRECT, GAME_LOG, PHOTO, PLAYERS, REJECT
from domain.users import User
from domain.validation import Invalid
from handlers.callbacks import AuditButton, DecisionButton, ProtestButton
from handlers.common import show
from handlers.errors import REFUSALS
from handlers.game_log_views import game_log_text
from handlers.middlewares import Texts
from handlers.protests_views import (
    SWITCH_ACTS,
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
    uow_factory: UnitOfWorkFactory,
) -> None:
    target = await protests.protest_target(uow_factory, actor, callback_data.game)
    await state.set_state(ProtestForm.reason)
    await state.update_data(game=callback_data.game)
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
    message: Message, actor: Actor, texts: Texts, uow_factory: UnitOfWorkFactory
) -> None:
    """/protest: the games whose protest window is open for this player."""
    targets = await protests.protestable_games(uow_factory, actor)
    if not targets:
        await message.answer(texts("protest-none"))
        return
    await message.answer(texts("protest-choose"), reply_markup=targets_keyboard(targets, texts))


async def take_reason(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    photo = message.photo[-1].file_id if message.photo else None
    reason = message.text if photo is None else message.caption
    game_id = (await state.get_data())["game"]
    try:
        await protests.file_protest(uow_factory, actor, game_id, reason, photo)
    except REFUSALS as error:
        # A reason of the wrong length may be written again; any other refusal is final (the
        # refusal handler says why).
        if not (isinstance(error, Invalid) and error.code == "protest-reason-length"):
            await state.clear()
        raise
    await state.clear()
    await message.answer(texts("protest-filed"))


# --- the deciding judge -------------------------------------------------------------------


async def on_decision_button(
    callback: CallbackQuery,
    callback_data: DecisionButton,
    state: FSMContext,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    protest_id, act = callback_data.protest, callback_data.act
    if act == ANNUL:
        await _annul(callback, protest_id, state, actor, texts, uow_factory)
        return
    if act in (REJECT, ACCEPT):
        await protests.check_undecided(uow_factory, actor, protest_id)
        await state.set_state(ProtestForm.decision)
        await state.update_data(protest=protest_id, accept=act == ACCEPT)
        key = "protest-ask-acceptance" if act == ACCEPT else "protest-ask-rejection"
        if isinstance(callback.message, Message):
            await callback.message.answer(texts(key))
        await callback.answer()
        return
    case = await protests.protest_case(uow_factory, actor, protest_id)
    if not isinstance(callback.message, Message):
        await callback.answer()
        return
    if act == PLAYERS:
        # Exclusion (11.3.3) is the tournament day's own screen: its button asks the reason.
        await callback.message.answer(
            texts("protest-players-title"), reply_markup=players_keyboard(case.players, texts)
        )
    elif act == PHOTO and case.protest.photo is not None:
        await callback.message.answer_photo(case.protest.photo)
    elif act == CORRECT:
        await _open_correction(callback.message, case.game.game.id, actor, texts, uow_factory)
    elif act == GAME_LOG:
        zone = ZoneInfo(case.tournament.timezone)
        for part in split_text(game_log_text(case.log, case.tournament.regulation, zone, texts)):
            await callback.message.answer(part)
    await callback.answer()


async def _annul(
    callback: CallbackQuery,
    protest_id: int,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    """Annul the protest's game: a pending protest first takes the decision's text, an
    accepted one (its correction not made) is annulled with the decision it has."""
    case = await protests.protest_case(uow_factory, actor, protest_id)
    if case.protest.status is ProtestStatus.PENDING:
        if not case.tournament.regulation.protest_annulment_allowed:
            raise Invalid("protest-annulment-not-allowed")
        await state.set_state(ProtestForm.decision)
        await state.update_data(protest=protest_id, accept=True, annul=True)
        reply = texts("protest-ask-annulment")
    else:
        await protests.annul_game(uow_factory, actor, protest_id, text=None)
        reply = texts("protest-decided-annulled")
    if isinstance(callback.message, Message):
        await callback.message.answer(reply)
    await callback.answer()


async def _open_correction(
    message: Message,
    game_id: int,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    """The protocol screen, opened for the chief judge's correction."""
    view = await protocols.start_correction(uow_factory, actor, game_id)
    await message.answer(render_text(view, texts), reply_markup=render_keyboard(view, texts))


async def take_decision(
    message: Message,
    state: FSMContext,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    data = await state.get_data()
    try:
        if data.get("annul"):
            case = await protests.annul_game(uow_factory, actor, data["protest"], text=message.text)
        else:
            case = await protests.decide_protest(
                uow_factory, actor, data["protest"], accept=data["accept"], text=message.text
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
    await _open_correction(message, case.game.game.id, actor, texts, uow_factory)


# --- the organizer: the switch and the audit log ------------------------------------------------


async def _show_audit(
    event: Message | CallbackQuery,
    tournament_id: int,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    log = await protests.audit_log(uow_factory, actor, tournament_id)
    try:
        await protests.protest_settings(uow_factory, actor, tournament_id)
    except Forbidden:
        # The chief judge reads the log; only the organizer switches protests.
        organizer = False
    else:
        organizer = True
    text = audit_text(log, texts)
    await show(event, text, reply_markup=audit_keyboard(tournament_id, organizer, texts))


async def audit_command(
    message: Message,
    user: User,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    """/audit: the audit log of the person's tournament (a choice when he runs several)."""
    async with uow_factory() as uow:
        tournaments = await uow.tournaments.of_person(user.telegram_id)
    if not tournaments:
        await message.answer(texts("audit-no-tournament"))
        return
    if len(tournaments) == 1:
        await _show_audit(message, tournaments[0].id, actor, texts, uow_factory)
        return
    await message.answer(texts("audit-choose"), reply_markup=tournaments_keyboard(tournaments))


async def on_audit_button(
    callback: CallbackQuery,
    callback_data: AuditButton,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    tid, act = callback_data.tid, callback_data.act
    if act == "csv":
        log = await protests.audit_log(uow_factory, actor, tid)
        if isinstance(callback.message, Message):
            document = BufferedInputFile(audit_csv(log), filename=f"audit-{tid}.csv")
            await callback.message.answer_document(document)
        await callback.answer()
        return
    if act in SWITCH_ACTS:
        await protests.switch_protests(uow_factory, actor, tid, SWITCH_ACTS[act])
    await _show_audit(callback, tid, actor, texts, uow_factory)


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
    router.callback_query.register(on_decision_button, DecisionButton.filter())
    router.callback_query.register(on_audit_button, AuditButton.filter())
    return router
