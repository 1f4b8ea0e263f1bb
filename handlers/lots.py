"""The chief judge's lot screen: /lot shows the tie only a lot settles; he draws by the
tournament's seed or types the order of a physical draw.

Every press is re-authorized by the use case; the time comes from the Dispatcher's clock.
Its texts and keyboard are in `handlers/lots_views.py`.
"""

from __future__ import annotations

from aiogram import F, Router
from aiogram.filters import Command
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message

from domain import validation
from domain.actor import Actor
from domain.permissions import Forbidden
from domain.services.catalog import Services
from domain.services.ports import SeedSource
from domain.services.tie_decisions import LotCase
from domain.validation import Invalid
from handlers.callbacks import LotAction, LotButton
from handlers.common import answer, show
from handlers.lots_views import (
    case_keyboard,
    case_text,
    decided_text,
    tournaments_keyboard,
)
from handlers.middlewares import Texts


class LotForm(StatesGroup):
    order = State()


async def lot_command(
    message: Message,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    """/lot: the tie of the chief judge's tournament (a choice when he judges several)."""
    judged = await services.tie_decisions.chief_judged(actor)
    if not judged:
        await message.answer(texts("lot-not-chief-judge"))
        return
    if len(judged) == 1:
        case = await services.tie_decisions.lot_case(actor, judged[0].id)
        await answer(message, case_text(case), texts, reply_markup=case_keyboard(case, texts))
        return
    await message.answer(texts("lot-choose-tournament"), reply_markup=tournaments_keyboard(judged))


async def show_case(
    callback: CallbackQuery,
    callback_data: LotButton,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    case = await services.tie_decisions.lot_case(actor, callback_data.tournament_id)
    await _show_case(callback, case, texts)


async def _show_case(callback: CallbackQuery, case: LotCase, texts: Texts) -> None:
    await show(callback, case_text(case), texts, reply_markup=case_keyboard(case, texts))


async def ask_order(
    callback: CallbackQuery,
    callback_data: LotButton,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The chief judge types the tied players' order next (the case shown when none is tied)."""
    tournament_id = callback_data.tournament_id
    case = await services.tie_decisions.lot_case(actor, tournament_id)
    if case.tie is None:
        await _show_case(callback, case, texts)
        return
    await state.set_state(LotForm.order)
    await state.update_data(tournament=tournament_id)
    if isinstance(callback.message, Message):
        await callback.message.answer(texts("lot-ask-order", count=len(case.tie.tied)))
    await callback.answer()


async def draw_by_seed(
    callback: CallbackQuery,
    callback_data: LotButton,
    actor: Actor,
    texts: Texts,
    services: Services,
    seeds: SeedSource,
) -> None:
    """The lot drawn with a fresh seed (the case shown when none is tied)."""
    tournament_id = callback_data.tournament_id
    case = await services.tie_decisions.lot_case(actor, tournament_id)
    if case.tie is None:
        await _show_case(callback, case, texts)
        return
    names = dict(zip(case.tie.tied, case.names, strict=True))
    decision = await services.tie_decisions.draw_lot(
        actor, tournament_id, None, fresh_seed=str(seeds.draw())
    )
    await show(callback, decided_text(decision, names), texts)


async def take_order(
    message: Message,
    state: FSMContext,
    actor: Actor,
    texts: Texts,
    services: Services,
    seeds: SeedSource,
) -> None:
    tournament_id = (await state.get_data())["tournament"]
    words = (message.text or "").replace(",", " ").split()
    try:
        case = await services.tie_decisions.lot_case(actor, tournament_id)
        if case.tie is None:
            raise Invalid("lot-nothing-to-decide")
        count = len(case.tie.tied)
        entered = [
            validation.whole_number(word, 1, count, "lot-order-invalid", count=count)
            for word in words
        ]
        names = dict(zip(case.tie.tied, case.names, strict=True))
        decision = await services.tie_decisions.draw_lot(
            actor, tournament_id, entered, fresh_seed=str(seeds.draw())
        )
    except (Invalid, Forbidden) as error:
        # A mistyped order may be typed again; any other refusal ends the form. The refusal
        # handler says why.
        if not (isinstance(error, Invalid) and error.code == "lot-order-invalid"):
            await state.clear()
        raise
    await state.clear()
    await answer(message, decided_text(decision, names), texts)


def make_router() -> Router:
    """The lot screen, in private chats."""
    router = Router(name="lots")
    router.message.filter(F.chat.type == "private")
    router.message.register(lot_command, Command("lot"))
    router.message.register(take_order, LotForm.order, F.text & ~F.text.startswith("/"))
    router.callback_query.register(show_case, LotButton.filter(F.action == LotAction.VIEW))
    router.callback_query.register(ask_order, LotButton.filter(F.action == LotAction.ORDER))
    router.callback_query.register(draw_by_seed, LotButton.filter(F.action == LotAction.SEED))
    return router
