"""The organizer's rounds screens: seat the stage, preview it, edit it, assign judges, publish.

/rounds <tournament> opens the stage's preview: the quality report and the rounds. A round's
view lists its tables with their judges (a table's button hands it to the next judge) and
publishes it; its edits are `handlers.seat_edits`. Each button action (`RoundAction`) has its
handler. The screens' texts and keyboards are in `handlers/rounds_views.py`; this module reads
presses and commands and calls the use cases.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message

from domain import validation
from domain.actor import Actor
from domain.services import rounds
from domain.services.catalog import Services
from domain.services.ports import SeedSource
from domain.services.rounds import StagePreview
from domain.services.rounds.seating import SeatingService
from domain.tournament import Tournament
from domain.validation import Invalid
from handlers.callbacks import RoundAction, StageButton
from handlers.common import Said, answer, edit_screen, long_work
from handlers.middlewares import Texts
from handlers.rounds_views import (
    not_seated_keyboard,
    overview_keyboard,
    overview_text,
    page_of_table,
    round_keyboard,
    round_pages,
    round_text,
    tournaments_keyboard,
)

# The buttons that seat rounds, each with its use case.
SEATINGS = {
    RoundAction.SEAT: SeatingService.start_stage,
    RoundAction.REGENERATE: SeatingService.regenerate_stage,
    RoundAction.RESEAT: SeatingService.reseat_stage,
}


async def display(
    event: Message | CallbackQuery, text: Said, keyboard: InlineKeyboardMarkup, texts: Texts
) -> None:
    """A command gets a new message; a press edits its message (the caller answers the press)."""
    if isinstance(event, Message):
        await answer(event, text, texts, reply_markup=keyboard)
        return
    if isinstance(event.message, Message):
        await edit_screen(event.message, text, keyboard, texts)


async def _show_overview(
    event: Message | CallbackQuery, preview: StagePreview, texts: Texts
) -> None:
    await display(event, overview_text(preview), overview_keyboard(preview, texts), texts)


async def show_round(
    event: Message | CallbackQuery,
    preview: StagePreview,
    number: int,
    texts: Texts,
    *,
    page: int = 0,
    table: int | None = None,
) -> None:
    """Page `page` of round `number`'s view, or the page showing `table` when one is named."""
    round_ = preview.stage.round(number)
    pages = round_pages(preview, round_)
    page = page_of_table(pages, table) if table is not None else min(page, len(pages) - 1)
    await display(
        event,
        round_text(round_, pages, page),
        round_keyboard(preview, round_, pages, page, texts),
        texts,
    )


async def open_rounds(
    message: Message,
    command: CommandObject,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    """/rounds [tournament]: the stage's preview, or the offer to seat it. Without a number:
    the person's running tournament, or a choice of them when he runs several."""
    if command.args:
        tournament_id = usage_number(command.args)
    else:
        running = await running_tournaments(services, actor)
        if len(running) != 1:
            await choose_tournament(message, running, texts)
            return
        tournament_id = running[0].id
    await _show_stage(message, tournament_id, actor, texts, services)


async def running_tournaments(services: Services, actor: Actor) -> list[Tournament]:
    mine = await services.tournaments.tournaments_of(actor)
    return [tournament for tournament in mine if tournament.running_stage is not None]


async def choose_tournament(
    message: Message,
    running: list[Tournament],
    texts: Texts,
    action: RoundAction = RoundAction.OPEN,
    question: str = "rounds-choose-tournament",
) -> None:
    """A button per running tournament; its press does `action` for that tournament."""
    if not running:
        await message.answer(texts("rounds-no-running"))
        return
    await message.answer(texts(question), reply_markup=tournaments_keyboard(running, action))


async def _show_stage(
    event: Message | CallbackQuery,
    tournament_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The stage's overview, or the offer to seat it while it is not seated yet."""
    try:
        preview = await services.rounds_preview.stage_preview(actor, tournament_id)
    except Invalid as error:
        if error.code != "stage-not-seated":
            raise
        keyboard = not_seated_keyboard(tournament_id, texts)
        await display(event, texts("rounds-not-seated"), keyboard, texts)
        return
    await _show_overview(event, preview, texts)


async def open_from_card(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """The tournament card's "Rounds": the stage's screen as a new message, the card stays."""
    if isinstance(callback.message, Message):
        await _show_stage(callback.message, callback_data.tournament_id, actor, texts, services)
    await callback.answer()


async def back_to_overview(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    await _show_stage(callback, callback_data.tournament_id, actor, texts, services)
    await callback.answer()


async def seat_stage(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    seeds: SeedSource,
    actor: Actor,
    services: Services,
) -> None:
    """Seat the stage, draw it again or re-seat it after players left (`SEATINGS`)."""
    # Seating a stage takes a while: the press is answered at once. The seed is drawn here
    # and recorded with the seating, which it reproduces.
    async with long_work(callback, texts, replaced=True):
        seating = SEATINGS[callback_data.action]
        preview = await seating(
            services.rounds_seating, actor, callback_data.tournament_id, seed=seeds.draw()
        )
        await _show_overview(callback, preview, texts)


async def open_round(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """A round's view; `value` is its page."""
    preview = await services.rounds_preview.stage_preview(actor, callback_data.tournament_id)
    number = callback_data.round
    await show_round(callback, preview, number, texts, page=callback_data.value)
    await callback.answer()


async def assign_judge(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """A table's button: the table goes to the judge the button names (`value`; 0: none)."""
    press = callback_data
    preview = await services.rounds_judges.assign_judge(
        actor, press.tournament_id, press.round, press.table, press.value or None
    )
    await show_round(callback, preview, press.round, texts, table=press.table)
    await callback.answer()


async def publish_round(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    number = callback_data.round
    preview = await services.rounds_publication.publish_round(
        actor, callback_data.tournament_id, number
    )
    await _show_overview(callback, preview, texts)
    await callback.answer(texts("rounds-published", round=number))


async def send_sheet(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """The stage as a file: sheets to print (PDF) or every seat (CSV)."""
    if not isinstance(callback.message, Message):
        await callback.answer()
        return
    # Drawing a big stage's sheets takes a while: the press is answered first, and the
    # screen shows the work until the file is sent.
    async with long_work(callback, texts, replaced=False):
        preview = await services.rounds_preview.stage_preview(actor, callback_data.tournament_id)
        await _send_sheet(callback.message, preview, callback_data.action, texts)


async def send_schedules(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    actor: Actor,
    services: Services,
) -> None:
    """Every player his schedule of the stage."""
    sent = await services.rounds_schedules.send_schedules(actor, callback_data.tournament_id)
    await callback.answer(texts("seating-schedules-sent", players=sent), show_alert=True)


async def _send_sheet(
    message: Message, preview: StagePreview, kind: RoundAction, texts: Texts
) -> None:
    """The stage's PDF sheets (drawn off the event loop: a big stage takes a while) or CSV."""
    # ReportLab loads with the first sheet asked for, not with the bot.
    from bot.rendering.seating_sheets import seating_csv, seating_pdf

    sheet = rounds.stage_sheet_of(preview)
    name = f"seating-{preview.tournament.id}-{preview.stage.stage}"
    if kind is RoundAction.PDF:
        content = await asyncio.to_thread(seating_pdf, sheet, texts.locale)
        await message.answer_document(BufferedInputFile(content, f"{name}.pdf"))
    else:
        content = seating_csv(sheet, texts.locale)
        await message.answer_document(BufferedInputFile(content, f"{name}.csv"))


def usage_number(text: str | None) -> int:
    return validation.whole_number(text, 1, validation.ROW_ID_MAX, "rounds-usage")


def make_router() -> Router:
    """The organizer's rounds screens, in private chats: one handler per button action."""
    router = Router(name="rounds")
    router.message.filter(F.chat.type == "private")
    router.message.register(open_rounds, Command("rounds"))
    presses: dict[Callable[..., Awaitable[None]], set[RoundAction]] = {
        open_from_card: {RoundAction.OPEN},
        back_to_overview: {RoundAction.OVERVIEW},
        seat_stage: set(SEATINGS),
        open_round: {RoundAction.ROUND},
        assign_judge: {RoundAction.JUDGE},
        publish_round: {RoundAction.PUBLISH},
        send_sheet: {RoundAction.PDF, RoundAction.CSV},
        send_schedules: {RoundAction.SCHEDULES},
    }
    for handler, actions in presses.items():
        router.callback_query.register(handler, StageButton.filter(F.action.in_(actions)))
    return router
