"""The lot screen's views: a tie awaiting its lot, the chief judge's buttons, the decided order,
and the words the buttons' `act` carries.
"""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import lines, numbered
from domain.outgoing import Lines, Phrase
from domain.services.tie_decisions import LotCase
from domain.tie_decisions import LotDecision
from domain.tournament import Tournament
from handlers.callbacks import LotAction, LotButton
from handlers.keyboards import tournament_choice
from handlers.middlewares import Texts


def case_text(case: LotCase) -> Lines:
    parts = [Phrase.of("lot-title", tournament=case.tournament.title)]
    if case.tie is None:
        parts.append(Phrase.of("lot-nothing"))
        return lines(parts)
    where = "cut" if case.tie.context.startswith("cut ") else "places"
    parts.append(Phrase.of("lot-tie", where=where, count=len(case.tie.tied)))
    parts.extend(numbered(n, name) for n, name in enumerate(case.names, start=1))
    if case.seed is not None and case.seed_order is not None:
        numbers = {entry: n for n, entry in enumerate(case.tie.tied, start=1)}
        order = " ".join(str(numbers[entry]) for entry in case.seed_order)
        parts.append(Phrase.of("lot-seed-known", seed=case.seed, order=order))
    parts.append(Phrase.of("lot-choose"))
    return lines(parts)


def case_keyboard(case: LotCase, texts: Texts) -> InlineKeyboardMarkup | None:
    if case.tie is None:
        return None
    keyboard = InlineKeyboardBuilder()
    tournament_id = case.tournament.id
    keyboard.button(
        text=texts("lot-by-seed"),
        callback_data=LotButton(tournament_id=tournament_id, action=LotAction.SEED),
    )
    keyboard.button(
        text=texts("lot-by-order"),
        callback_data=LotButton(tournament_id=tournament_id, action=LotAction.ORDER),
    )
    keyboard.adjust(1)
    return keyboard.as_markup()


def decided_text(decision: LotDecision, names: dict[str, str]) -> Phrase:
    order = lines(
        numbered(place, names.get(entry, entry))
        for place, entry in enumerate(decision.order, start=1)
    )
    return Phrase.of("lot-decided", method=decision.method, seed=decision.seed, order=order)


def tournaments_keyboard(judged: list[Tournament]) -> InlineKeyboardMarkup:
    """/lot of a chief judge of several tournaments: a button per tournament."""
    return tournament_choice(
        judged, lambda tournament: LotButton(tournament_id=tournament.id, action=LotAction.VIEW)
    )
