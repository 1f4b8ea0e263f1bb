"""The organizer's rounds screens: seat the stage, preview it, edit it, assign judges, publish.

/rounds <tournament> opens the stage's preview: the quality report and the rounds. A round's
view lists its tables with their judges (a table's button hands it to the next judge) and
publishes it. Swaps and moves are typed (/swap, /move) or done by buttons from the round view:
a table, a seat (the player), then where he goes (a seat, whose player takes his place, or a
player sitting out, who takes his seat), through the same use cases. The screens' texts and
keyboards are in `handlers/rounds_views.py`; this module reads presses and commands and calls
the use cases.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.fsm.context import FSMContext
from aiogram.types import BufferedInputFile, CallbackQuery, InlineKeyboardMarkup, Message

from domain import validation
from domain.actor import Actor
from domain.rounds import Round
from domain.seating.generator import TABLE_SIZE
from domain.services import rounds
from domain.services.ports import SeedSource, UnitOfWorkFactory
from domain.services.rounds import StagePreview
from domain.services.tournaments import tournaments_of
from domain.tournament import Tournament
from domain.validation import Invalid
from handlers.callbacks import SeatEdit, StageButton
from handlers.common import edit_screen, long_work
from handlers.middlewares import Texts
from handlers.rounds_views import (
    CSV,
    EDIT_MOVE,
    EDIT_SWAP,
    EDIT_TABLE,
    EDIT_TABLES,
    JUDGE,
    MOVE,
    OPEN,
    PDF,
    PUBLISH,
    REGENERATE,
    RESEAT,
    ROUND,
    SCHEDULES,
    SEAT,
    SWAP,
    not_seated_keyboard,
    overview_keyboard,
    overview_text,
    page_of_table,
    round_keyboard,
    round_pages,
    round_text,
    seat_edit_screen,
    tournaments_keyboard,
)

PENDING_EDIT = "rounds_pending_edit"


# The buttons that seat rounds, each with its use case.
SEATINGS = {
    SEAT: rounds.start_stage,
    REGENERATE: rounds.regenerate_stage,
    RESEAT: rounds.reseat_stage,
}


async def _display(
    event: Message | CallbackQuery, text: str, keyboard: InlineKeyboardMarkup
) -> None:
    """A command gets a new message; a press edits its message (the caller answers the press)."""
    if isinstance(event, Message):
        await event.answer(text, reply_markup=keyboard)
        return
    if isinstance(event.message, Message):
        await edit_screen(event.message, text, reply_markup=keyboard)


async def _show_overview(
    event: Message | CallbackQuery, preview: StagePreview, texts: Texts
) -> None:
    await _display(event, overview_text(preview, texts), overview_keyboard(preview, texts))


async def _show_round(
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
    pages = round_pages(preview, round_, texts)
    page = page_of_table(pages, table) if table is not None else min(page, len(pages) - 1)
    await _display(
        event,
        round_text(round_, pages, page, texts),
        round_keyboard(preview, round_, pages, page, texts),
    )


async def open_rounds(
    message: Message,
    command: CommandObject,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    """/rounds [tournament]: the stage's preview, or the offer to seat it. Without a number:
    the person's running tournament, or a choice of them when he runs several."""
    if command.args:
        tournament_id = _number(command.args)
    else:
        running = await _running(uow_factory, actor)
        if len(running) != 1:
            await _choose_tournament(message, running, texts)
            return
        tournament_id = running[0].id
    await _show_stage(message, tournament_id, uow_factory, actor, texts)


async def _running(uow_factory: UnitOfWorkFactory, actor: Actor) -> list[Tournament]:
    mine = await tournaments_of(uow_factory, actor)
    return [tournament for tournament in mine if tournament.running_stage is not None]


async def _choose_tournament(
    message: Message,
    running: list[Tournament],
    texts: Texts,
    act: str = OPEN,
    question: str = "rounds-choose-tournament",
) -> None:
    """A button per running tournament; its press does `act` for that tournament."""
    if not running:
        await message.answer(texts("rounds-no-running"))
        return
    await message.answer(texts(question), reply_markup=tournaments_keyboard(running, act))


async def _show_stage(
    event: Message | CallbackQuery,
    tournament_id: int,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
    texts: Texts,
) -> None:
    """The stage's overview, or the offer to seat it while it is not seated yet."""
    try:
        preview = await rounds.stage_preview(uow_factory, actor, tournament_id)
    except Invalid as error:
        if error.code != "stage-not-seated":
            raise
        await _display(event, texts("rounds-not-seated"), not_seated_keyboard(tournament_id, texts))
        return
    await _show_overview(event, preview, texts)


async def on_button(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    seeds: SeedSource,
    state: FSMContext,
    actor: Actor,
) -> None:
    act, number = callback_data.act, callback_data.round
    if act in (SWAP, MOVE):
        pending = (await state.get_data()).get(PENDING_EDIT)
        if not pending or pending.get("kind") != act:
            await callback.answer(texts("button-out-of-date"), show_alert=True)
            return
        # The tournament picked for a /swap or /move that named none: that command goes on.
        await state.update_data({PENDING_EDIT: None})
        words = [str(callback_data.tournament), *pending["words"]]
        await _typed_edit(callback, act, words, actor, texts, uow_factory)
    elif act in SEATINGS:
        # Seating a stage takes a while: the press is answered at once. The seed is drawn
        # here and recorded with the seating, which it reproduces.
        async with long_work(callback, texts, replaced=True):
            preview = await SEATINGS[act](
                uow_factory, actor, callback_data.tournament, seed=seeds.draw()
            )
            await _show_overview(callback, preview, texts)
    elif act == JUDGE:
        judge = callback_data.value or None
        preview = await rounds.assign_judge(
            uow_factory, actor, callback_data.tournament, number, callback_data.table, judge
        )
        await _show_round(callback, preview, number, texts, table=callback_data.table)
    elif act == PUBLISH:
        preview = await rounds.publish_round(uow_factory, actor, callback_data.tournament, number)
        await _show_overview(callback, preview, texts)
        await callback.answer(texts("rounds-published", round=number))
        return
    elif act in (PDF, CSV) and isinstance(callback.message, Message):
        # Drawing a big stage's sheets takes a while: the press is answered first, and the
        # screen shows the work until the file is sent.
        async with long_work(callback, texts, replaced=False):
            preview = await rounds.stage_preview(uow_factory, actor, callback_data.tournament)
            await _send_sheet(callback.message, preview, act, texts)
        return
    elif act == SCHEDULES:
        sent = await rounds.send_schedules(uow_factory, actor, callback_data.tournament)
        await callback.answer(texts("seating-schedules-sent", players=sent), show_alert=True)
        return
    elif act == ROUND:
        preview = await rounds.stage_preview(uow_factory, actor, callback_data.tournament)
        await _show_round(callback, preview, number, texts, page=callback_data.value)
    elif act == OPEN and isinstance(callback.message, Message):
        await _show_stage(callback.message, callback_data.tournament, uow_factory, actor, texts)
    else:
        await _show_stage(callback, callback_data.tournament, uow_factory, actor, texts)
    await callback.answer()


async def _send_sheet(message: Message, preview: StagePreview, kind: str, texts: Texts) -> None:
    """The stage's PDF sheets (drawn off the event loop: a big stage takes a while) or CSV."""
    # ReportLab loads with the first sheet asked for, not with the bot.
    from bot.rendering.seating_sheets import seating_csv, seating_pdf

    sheet = rounds.stage_sheet_of(preview)
    name = f"seating-{preview.tournament.id}-{preview.stage.stage}"
    if kind == PDF:
        content = await asyncio.to_thread(seating_pdf, sheet, texts.locale)
        await message.answer_document(BufferedInputFile(content, f"{name}.pdf"))
    else:
        content = seating_csv(sheet, texts.locale)
        await message.answer_document(BufferedInputFile(content, f"{name}.csv"))


def _number(text: str | None) -> int:
    return validation.whole_number(text, 1, validation.ROW_ID_MAX, "rounds-usage")


def _player(preview: StagePreview, round_number: int, word: str) -> int:
    """A player named by his nickname (any case) or by his place "table.seat" in the round."""
    if validation.is_ascii_number(word.partition(".")[0]):
        table, seat = _place(word)
        return preview.stage.round(round_number).seating.player_at(table, seat)
    wanted = word.casefold()
    for player, nickname in preview.nicknames.items():
        if nickname.casefold() == wanted:
            return player
    raise Invalid("rounds-unknown-player", player=word)


def _place(word: str) -> tuple[int, int]:
    table, _, seat = word.partition(".")
    return _number(table), validation.whole_number(seat, 1, TABLE_SIZE, "rounds-usage")


async def _typed_edit(
    event: Message | CallbackQuery,
    kind: str,
    words: Sequence[str],
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    """/swap or /move with its four words: tournament, round and the two players (a player
    and a place for /move); then the round's page of the table concerned."""
    if len(words) != 4:
        raise Invalid("rounds-usage")
    tournament_id = _number(words[0])
    preview = await rounds.stage_preview(uow_factory, actor, tournament_id)
    number = _number(words[1])
    if not 1 <= number <= len(preview.stage.rounds):
        raise Invalid("round-unknown", round=number, rounds=len(preview.stage.rounds))
    moved = _player(preview, number, words[2])
    if kind == SWAP:
        edited = await rounds.swap(
            uow_factory, actor, tournament_id, number, moved, _player(preview, number, words[3])
        )
        # The page showing where the first player now sits (the first page if he sits out).
        place = edited.stage.round(number).seating.position(moved)
        table = place[0] if place else None
    else:
        table, seat = _place(words[3])
        edited = await rounds.move(uow_factory, actor, tournament_id, number, moved, table, seat)
    await _show_round(event, edited, number, texts, table=table)


async def _edit_command(
    kind: str,
    message: Message,
    command: CommandObject,
    state: FSMContext,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    words = (command.args or "").split()
    if len(words) == 3 and validation.is_ascii_number(words[0]):
        # No tournament number: the person's one running tournament, or a choice of them
        # (the words wait for the choice in his conversation data).
        running = await _running(uow_factory, actor)
        if len(running) != 1:
            if running:
                await state.update_data({PENDING_EDIT: {"kind": kind, "words": words}})
            await _choose_tournament(message, running, texts, kind, "rounds-choose-edit")
            return
        words = [str(running[0].id), *words]
    await _typed_edit(message, kind, words, actor, texts, uow_factory)


async def swap_command(
    message: Message,
    command: CommandObject,
    state: FSMContext,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    """/swap [tournament] <round> <player> <player>: a player is a nickname or "table.seat"."""
    await _edit_command(SWAP, message, command, state, texts, uow_factory, actor)


async def move_command(
    message: Message,
    command: CommandObject,
    state: FSMContext,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
    actor: Actor,
) -> None:
    """/move [tournament] <round> <player> <table.seat>: whoever sat there takes his place."""
    await _edit_command(MOVE, message, command, state, texts, uow_factory, actor)


def _seat_edit_current(round_: Round, press: SeatEdit) -> bool:
    """Whether the press still matches the round: its tables, its player and its target."""
    seating = round_.seating
    everyone = {p for table in seating.tables for p in table} | set(seating.sit_outs)
    if press.table > len(seating.tables) or (press.player and press.player not in everyone):
        return False
    if press.act == EDIT_MOVE:
        return (
            press.table >= 1
            and 1 <= press.seat <= len(seating.tables[press.table - 1])
            and (seating.player_at(press.table, press.seat) == press.expected)
        )
    if press.act == EDIT_SWAP:
        return press.expected in seating.sit_outs and seating.position(press.player) is not None
    return press.act in (EDIT_TABLES, EDIT_TABLE)


async def on_seat_edit(
    callback: CallbackQuery,
    callback_data: SeatEdit,
    actor: Actor,
    texts: Texts,
    uow_factory: UnitOfWorkFactory,
) -> None:
    """A press of editing a round by buttons; the change goes through /swap's and /move's use
    cases, then the round's view comes back on the page of the table concerned."""
    press = callback_data
    preview = await rounds.stage_preview(uow_factory, actor, press.tournament)
    if not 1 <= press.round <= len(preview.stage.rounds) or not _seat_edit_current(
        round_ := preview.stage.round(press.round), press
    ):
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    if press.act == EDIT_MOVE:
        edited = await rounds.move(
            uow_factory, actor, press.tournament, press.round, press.player, press.table, press.seat
        )
        await _show_round(callback, edited, press.round, texts, table=press.table)
    elif press.act == EDIT_SWAP:
        place = round_.seating.position(press.player)
        edited = await rounds.swap(
            uow_factory, actor, press.tournament, press.round, press.player, press.expected
        )
        await _show_round(callback, edited, press.round, texts, table=place[0] if place else None)
    else:
        text, keyboard = seat_edit_screen(preview, round_, press, texts)
        await _display(callback, text, keyboard)
        await callback.answer()
        return
    await callback.answer(texts("rounds-edit-done"))


def make_router() -> Router:
    """The organizer's rounds screens, in private chats."""
    router = Router(name="rounds")
    router.message.filter(F.chat.type == "private")
    router.message.register(open_rounds, Command("rounds"))
    router.message.register(swap_command, Command("swap"))
    router.message.register(move_command, Command("move"))
    router.callback_query.register(on_button, StageButton.filter())
    router.callback_query.register(on_seat_edit, SeatEdit.filter())
    return router
