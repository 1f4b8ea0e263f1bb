"""Editing a seated round: typed (/swap, /move) or by buttons from the round's view.

/swap [tournament] <round> <player> <player> swaps two players (a player is a nickname or
"table.seat"); /move [tournament] <round> <player> <table.seat> puts one into a seat, whoever
sat there taking his place. By buttons: a table, a seat (the player), then where he goes (a
seat, whose player takes his place, or a player sitting out, who takes his seat). Both go
through the same use cases, then the round's view (`handlers.rounds`) comes back on the page of
the table concerned.
"""

from __future__ import annotations

from collections.abc import Sequence

from aiogram import F, Router
from aiogram.filters import Command, CommandObject
from aiogram.fsm.context import FSMContext
from aiogram.types import CallbackQuery, Message

from domain import validation
from domain.actor import Actor
from domain.rounds import Round
from domain.seating.request import TABLE_SIZE
from domain.services.catalog import Services
from domain.services.rounds import StagePreview
from domain.validation import Invalid
from handlers.callbacks import RoundAction, SeatEdit, SeatStep, StageButton
from handlers.middlewares import Texts
from handlers.rounds import (
    choose_tournament,
    display,
    running_tournaments,
    show_round,
    usage_number,
)
from handlers.rounds_views import seat_edit_screen

PENDING_EDIT = "rounds_pending_edit"


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
    return usage_number(table), validation.whole_number(seat, 1, TABLE_SIZE, "rounds-usage")


async def _typed_edit(
    event: Message | CallbackQuery,
    kind: RoundAction,
    words: Sequence[str],
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """/swap or /move with its four words: tournament, round and the two players (a player
    and a place for /move); then the round's page of the table concerned."""
    if len(words) != 4:
        raise Invalid("rounds-usage")
    tournament_id = usage_number(words[0])
    preview = await services.rounds_preview.stage_preview(actor, tournament_id)
    number = usage_number(words[1])
    if not 1 <= number <= len(preview.stage.rounds):
        raise Invalid("round-unknown", round=number, rounds=len(preview.stage.rounds))
    moved = _player(preview, number, words[2])
    if kind is RoundAction.SWAP:
        edited = await services.rounds_edits.swap(
            actor, tournament_id, number, moved, _player(preview, number, words[3])
        )
        # The page showing where the first player now sits (the first page if he sits out).
        place = edited.stage.round(number).seating.position(moved)
        table = place[0] if place else None
    else:
        table, seat = _place(words[3])
        edited = await services.rounds_edits.move(actor, tournament_id, number, moved, table, seat)
    await show_round(event, edited, number, texts, table=table)


async def _edit_command(
    kind: RoundAction,
    message: Message,
    command: CommandObject,
    state: FSMContext,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    words = (command.args or "").split()
    if len(words) == 3 and validation.is_ascii_number(words[0]):
        # No tournament number: the person's one running tournament, or a choice of them
        # (the words wait for the choice in his conversation data).
        running = await running_tournaments(services, actor)
        if len(running) != 1:
            if running:
                await state.update_data({PENDING_EDIT: {"kind": kind, "words": words}})
            await choose_tournament(message, running, texts, kind, "rounds-choose-edit")
            return
        words = [str(running[0].id), *words]
    await _typed_edit(message, kind, words, actor, texts, services)


async def swap_command(
    message: Message,
    command: CommandObject,
    state: FSMContext,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    """/swap [tournament] <round> <player> <player>: a player is a nickname or "table.seat"."""
    await _edit_command(RoundAction.SWAP, message, command, state, texts, services, actor)


async def move_command(
    message: Message,
    command: CommandObject,
    state: FSMContext,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    """/move [tournament] <round> <player> <table.seat>: whoever sat there takes his place."""
    await _edit_command(RoundAction.MOVE, message, command, state, texts, services, actor)


def _seat_edit_current(round_: Round, press: SeatEdit) -> bool:
    """Whether the press still matches the round: its tables, its player and its target."""
    seating = round_.seating
    everyone = {p for table in seating.tables for p in table} | set(seating.sit_outs)
    if press.table > len(seating.tables) or (press.player and press.player not in everyone):
        return False
    if press.action is SeatStep.MOVE:
        return (
            press.table >= 1
            and 1 <= press.seat <= len(seating.tables[press.table - 1])
            and (seating.player_at(press.table, press.seat) == press.expected)
        )
    if press.action is SeatStep.SWAP:
        return press.expected in seating.sit_outs and seating.position(press.player) is not None
    return True


async def _edited_round(
    callback: CallbackQuery,
    press: SeatEdit,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> tuple[StagePreview, Round] | None:
    """The stage and the round a seat editing press is about, or None (the press answered as
    out of date) when the round no longer matches the screen it was made on."""
    preview = await services.rounds_preview.stage_preview(actor, press.tournament_id)
    if not 1 <= press.round <= len(preview.stage.rounds) or not _seat_edit_current(
        round_ := preview.stage.round(press.round), press
    ):
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return None
    return preview, round_


async def seat_edit_step(
    callback: CallbackQuery,
    callback_data: SeatEdit,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """Editing a round by buttons: the tables to pick from, or one table's seats."""
    edited = await _edited_round(callback, callback_data, actor, texts, services)
    if edited is not None:
        text, keyboard = seat_edit_screen(*edited, callback_data, texts)
        await display(callback, text, keyboard, texts)
        await callback.answer()


async def seat_edit_move(
    callback: CallbackQuery,
    callback_data: SeatEdit,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The player picked goes into the seat pressed (/move's use case); whoever sat there
    takes his place. The round's view comes back on the page of that table."""
    press = callback_data
    if await _edited_round(callback, press, actor, texts, services) is None:
        return
    edited = await services.rounds_edits.move(
        actor, press.tournament_id, press.round, press.player, press.table, press.seat
    )
    await show_round(callback, edited, press.round, texts, table=press.table)
    await callback.answer(texts("rounds-edit-done"))


async def seat_edit_swap(
    callback: CallbackQuery,
    callback_data: SeatEdit,
    actor: Actor,
    texts: Texts,
    services: Services,
) -> None:
    """The player picked changes places with the player sitting out pressed (/swap's use
    case); the round's view comes back on the page of the table concerned."""
    press = callback_data
    current = await _edited_round(callback, press, actor, texts, services)
    if current is None:
        return
    place = current[1].seating.position(press.player)
    edited = await services.rounds_edits.swap(
        actor, press.tournament_id, press.round, press.player, press.expected
    )
    await show_round(callback, edited, press.round, texts, table=place[0] if place else None)
    await callback.answer(texts("rounds-edit-done"))


async def pick_for_typed_edit(
    callback: CallbackQuery,
    callback_data: StageButton,
    texts: Texts,
    services: Services,
    state: FSMContext,
    actor: Actor,
) -> None:
    """The tournament picked for a /swap or /move that named none: that command goes on."""
    kind = callback_data.action
    pending = (await state.get_data()).get(PENDING_EDIT)
    if not pending or pending.get("kind") != kind:
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    await state.update_data({PENDING_EDIT: None})
    words = [str(callback_data.tournament_id), *pending["words"]]
    await _typed_edit(callback, kind, words, actor, texts, services)
    await callback.answer()


def make_router() -> Router:
    """The round editing commands and buttons, in private chats: one handler per action."""
    router = Router(name="seat_edits")
    router.message.filter(F.chat.type == "private")
    router.message.register(swap_command, Command("swap"))
    router.message.register(move_command, Command("move"))
    typed = {RoundAction.SWAP, RoundAction.MOVE}
    router.callback_query.register(pick_for_typed_edit, StageButton.filter(F.action.in_(typed)))
    steps = {SeatStep.TABLES, SeatStep.TABLE}
    router.callback_query.register(seat_edit_step, SeatEdit.filter(F.action.in_(steps)))
    router.callback_query.register(seat_edit_move, SeatEdit.filter(F.action == SeatStep.MOVE))
    router.callback_query.register(seat_edit_swap, SeatEdit.filter(F.action == SeatStep.SWAP))
    return router
