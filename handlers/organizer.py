"""The organizer's screens: the creation wizard, the tournament card and its guarded moves (the
card's text and keyboard are drawn in `handlers/organizer_views.py`)."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from aiogram import Bot, F, Router
from aiogram.filters import Command
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, InlineKeyboardMarkup, Message

from bot.config import Settings
from bot.i18n import LOCALES
from bot.seeds import page_token
from bot.telegram.menus import CommandMenus
from domain.actor import Actor
from domain.layout import joined, lines
from domain.lifecycle import Refusal
from domain.outgoing import Lines, Phrase
from domain.presets import PRESET_IDS
from domain.regulation import read_regulation
from domain.services.catalog import Services
from domain.services.ports import Clock
from domain.tournament import Tournament, TournamentState
from domain.users import User
from handlers.callbacks import (
    CardOpen,
    MoveChoice,
    PresetChoice,
    WebPageChoice,
    WizardDone,
    WizardKeep,
    WizardLanguage,
)
from handlers.common import Said, answer, edit_screen, show
from handlers.middlewares import Texts
from handlers.organizer_views import (
    card_screen,
    keep_keyboard,
    presets_keyboard,
    refusal_text,
    summary_keyboard,
    summary_text,
    tournaments_keyboard,
)
from handlers.start import refresh_person_menu
from handlers.timezone_views import ZONES
from handlers.wizard_answers import accept_answer, days_of, regulation_of
from handlers.wizard_timetable_views import step_keyboard, step_text

REGULATION_FILE_LIMIT = 256 * 1024
# How far ahead a tournament may be planned.
HORIZON = timedelta(days=730)


class Wizard(StatesGroup):
    regulation = State()
    title = State()
    city = State()
    venue = State()
    dates = State()
    timezone = State()
    timetable = State()
    capacity = State()
    deadline = State()
    checkin = State()
    fee = State()
    quota = State()
    channel = State()
    confirm = State()


# The wizard asks in the order the states are declared above.
STEPS = list(Wizard.__states__)


def _step_name(state: State) -> str:
    return (state.state or "").split(":")[-1]


async def _ask(
    message: Message, state: FSMContext, step: State, texts: Texts, settings: Settings, clock: Clock
) -> None:
    data = await state.get_data()
    name = _step_name(step)
    if name == "confirm":
        await _confirm(message, data, texts, clock=clock)
    else:
        fee = regulation_of(data).entry_fee if name == "fee" else None
        if name == "timetable":  # chosen by buttons (handlers/wizard_timetable.py)
            regulation = regulation_of(data)
            days = days_of(data, regulation)
            text: Said = step_text(days, regulation)
            keyboard = step_keyboard(days, regulation, texts)
        else:
            text = texts(f"wizard-ask-{name}")
            keyboard = keep_keyboard(name, settings.timezone, fee, texts)
        await answer(message, text, texts, reply_markup=keyboard)
    # Only a delivered question moves the wizard on: had sending failed, the next answer
    # would land on a step the person never saw.
    await state.set_state(step)


async def next_step(
    message: Message,
    state: FSMContext,
    texts: Texts,
    settings: Settings,
    clock: Clock,
    **values: Any,
) -> None:
    await state.update_data(**values)
    current = await state.get_state()
    index = [s.state for s in STEPS].index(current)
    await _ask(message, state, STEPS[index + 1], texts, settings, clock=clock)


async def start_wizard(
    message: Message,
    state: FSMContext,
    user: User,
    texts: Texts,
    services: Services,
    actor: Actor,
) -> None:
    if not await services.tournaments.may_create(actor):
        await message.answer(texts("wizard-not-organizer", id=str(user.telegram_id)))
        return
    await state.clear()
    await message.answer(texts("wizard-ask-regulation"), reply_markup=presets_keyboard(texts))
    await state.set_state(Wizard.regulation)  # once the question was delivered (see _ask)


async def choose_preset(
    callback: CallbackQuery,
    callback_data: PresetChoice,
    state: FSMContext,
    texts: Texts,
    settings: Settings,
    clock: Clock,
) -> None:
    await callback.answer()
    if not isinstance(callback.message, Message) or callback_data.preset not in PRESET_IDS:
        return
    await state.update_data(regulation_id=callback_data.preset, regulation_json=None)
    await next_step(callback.message, state, texts, settings, clock=clock)


async def upload_regulation(
    message: Message, state: FSMContext, texts: Texts, settings: Settings, bot: Bot, clock: Clock
) -> None:
    document = message.document
    if document is None or (document.file_size or 0) > REGULATION_FILE_LIMIT:
        await message.answer(texts("wizard-regulation-file-too-big"))
        return
    content = await bot.download(document)
    try:
        regulation = read_regulation((content.read() if content else b"").decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        problems = getattr(error, "problems", [("file", str(error))])
        listed = lines(joined("• ", f"{path}: {reason}") for path, reason in problems[:20])
        await message.answer(texts.phrase(Phrase.of("wizard-regulation-invalid", problems=listed)))
        return
    await state.update_data(
        regulation_id=regulation.id, regulation_json=regulation.model_dump_json()
    )
    await next_step(message, state, texts, settings, clock=clock)


async def wizard_text(
    message: Message, state: FSMContext, texts: Texts, settings: Settings, bot: Bot, clock: Clock
) -> None:
    current = await state.get_state()
    step = (current or "").split(":")[-1]
    data = await state.get_data()
    values = await accept_answer(step, message.text or "", data, bot, clock=clock)
    await next_step(message, state, texts, settings, **values, clock=clock)


async def wizard_keep(
    callback: CallbackQuery,
    callback_data: WizardKeep,
    state: FSMContext,
    texts: Texts,
    settings: Settings,
    clock: Clock,
) -> None:
    current = await state.get_state()
    stale = current != f"Wizard:{callback_data.step}" or (
        callback_data.value and callback_data.value not in ZONES
    )
    if not isinstance(callback.message, Message) or stale:
        # The button of a step already answered (or of a wizard ended), or forged: it changes
        # nothing.
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    await callback.answer()
    defaults: dict[str, dict[str, Any]] = {
        "timezone": {"timezone": ZONES.get(callback_data.value, settings.timezone)},
        "timetable": {"timetable_json": None},
        "deadline": {"deadline": None},
        "checkin": {"checkin_cutoff": None},
        "fee": {"fee": None},
        "quota": {"quota": None},
        "channel": {"channel_id": None, "channel_name": None},
    }
    if callback_data.step in defaults:
        await next_step(
            callback.message, state, texts, settings, **defaults[callback_data.step], clock=clock
        )


def _draft(data: dict[str, Any], user: User, clock: Clock) -> Tournament:
    regulation = regulation_of(data)
    fee = data.get("fee")
    if fee is None and regulation.entry_fee is not None:
        fee = str(regulation.entry_fee.amount)
    return Tournament(
        id=0,
        title=data["title"],
        regulation_id=regulation.id,
        regulation_json=data.get("regulation_json"),
        state=TournamentState.DRAFT,
        timezone=data["timezone"],
        created_by=user.telegram_id,
        created_at=clock.now(),
        city=data["city"],
        venue=data["venue"],
        starts_on=date.fromisoformat(data["starts_on"]),
        ends_on=date.fromisoformat(data["ends_on"]),
        timetable_json=data.get("timetable_json"),
        capacity=data["capacity"],
        registration_deadline=datetime.fromisoformat(data["deadline"])
        if data.get("deadline")
        else None,
        checkin_cutoff=datetime.fromisoformat(data["checkin_cutoff"])
        if data.get("checkin_cutoff")
        else None,
        entry_fee=Decimal(fee) if fee is not None else None,
        club_quota=data.get("quota"),
        channel_id=data.get("channel_id"),
        channel_name=data.get("channel_name"),
        # The channel speaks the organizer's language unless he switched it on the summary.
        locale=data.get("locale", user.locale),
    )


def _summary(
    data: dict[str, Any], texts: Texts, clock: Clock
) -> tuple[Lines, InlineKeyboardMarkup]:
    draft = _draft(data, User(0, "", None, None, texts.locale), clock=clock)
    return summary_text(draft), summary_keyboard(draft, texts)


async def _confirm(message: Message, data: dict[str, Any], texts: Texts, clock: Clock) -> None:
    text, keyboard = _summary(data, texts, clock)
    await answer(message, text, texts, reply_markup=keyboard)


async def wizard_language(
    callback: CallbackQuery,
    callback_data: WizardLanguage,
    state: FSMContext,
    texts: Texts,
    clock: Clock,
) -> None:
    """The summary's language switch: the channel will post in the other language."""
    if await state.get_state() != Wizard.confirm.state or not isinstance(callback.message, Message):
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    await state.update_data(locale=callback_data.locale)
    text, keyboard = _summary(await state.get_data(), texts, clock)
    await edit_screen(callback.message, text, keyboard, texts)
    await callback.answer()


async def wizard_done(
    callback: CallbackQuery,
    callback_data: WizardDone,
    state: FSMContext,
    user: User,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
    clock: Clock,
    actor: Actor,
) -> None:
    if await state.get_state() != Wizard.confirm.state:
        await callback.answer(texts("button-out-of-date"), show_alert=True)
        return
    data = await state.get_data()
    await state.clear()
    if not callback_data.create:
        await show(callback, texts("wizard-cancelled"))
        return
    tournament = await services.tournaments.create_tournament(
        actor, _draft(data, user, clock=clock)
    )
    await render_card(callback, tournament.id, actor, texts, services, settings, bot)


async def cancel(message: Message, state: FSMContext, texts: Texts) -> None:
    await state.clear()
    await message.answer(texts("wizard-cancelled"))


async def render_card(
    event: Message | CallbackQuery,
    tournament_id: int,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
) -> None:
    card = await services.tournaments.tournament_card(actor, tournament_id)
    text, markup = await card_screen(card, texts, bot, settings.web_base_url, services)
    chat = event.message if isinstance(event, CallbackQuery) else event
    sent = (
        await answer(chat, text, texts, reply_markup=markup) if isinstance(chat, Message) else None
    )
    if isinstance(event, CallbackQuery):
        await event.answer()
    if sent is not None and card.changes_at is not None:  # edited when the last window closes
        await services.card_updates.keep_card_current(
            actor, tournament_id, sent.message_id, card.changes_at
        )


async def open_card(
    callback: CallbackQuery,
    callback_data: CardOpen,
    actor: Actor,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
) -> None:
    await render_card(callback, callback_data.tournament_id, actor, texts, services, settings, bot)


async def list_tournaments(
    message: Message, actor: Actor, texts: Texts, services: Services
) -> None:
    mine = await services.tournaments.tournaments_of(actor)
    if not mine:
        # Only someone who may create one is offered /new.
        creates = await services.tournaments.may_create(actor)
        await message.answer(texts("tournaments-none" if creates else "tournaments-none-player"))
        return
    await message.answer(texts("tournaments-list"), reply_markup=tournaments_keyboard(mine, texts))


async def choose_web_page(
    callback: CallbackQuery,
    callback_data: WebPageChoice,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
    actor: Actor,
    clock: Clock,
) -> None:
    await services.public.set_web_visibility(
        actor,
        callback_data.tournament_id,
        callback_data.to,
        token=page_token(),
        now=clock.now(),
    )
    await render_card(callback, callback_data.tournament_id, actor, texts, services, settings, bot)


async def make_move(
    callback: CallbackQuery,
    callback_data: MoveChoice,
    texts: Texts,
    services: Services,
    settings: Settings,
    bot: Bot,
    actor: Actor,
    menus: CommandMenus,
) -> None:
    result = await services.tournaments.move_tournament(
        actor, callback_data.tournament_id, callback_data.move
    )
    if isinstance(result, Refusal):
        await callback.answer(texts.plain(refusal_text(result)), show_alert=True)
        return
    await render_card(callback, result.id, actor, texts, services, settings, bot)
    if result.state is TournamentState.FINISHED:
        # Its judges have nothing left to judge: /protocol and /lot leave their menus.
        for person in await services.users.staff_of(result.id):
            # His menu offers what he may do now, as if he acted himself.
            judge = Actor.of(person.telegram_id, actor.now, settings.admin_ids)
            await refresh_person_menu(bot, menus, person, services, judge)


async def forbidden_in_wizard(message: Message, texts: Texts) -> None:
    await message.answer(texts("wizard-use-buttons"))


def make_router() -> Router:
    """The creation wizard, the list of one's tournaments and the tournament card."""
    router = Router(name="organizer")
    router.message.filter(F.chat.type == "private")
    router.message.register(start_wizard, Command("new"))
    router.message.register(cancel, Command("cancel"))
    router.message.register(list_tournaments, Command("tournaments"))
    router.message.register(upload_regulation, Wizard.regulation, F.document)
    router.message.register(forbidden_in_wizard, Wizard.regulation)
    router.message.register(forbidden_in_wizard, Wizard.confirm)
    for step in STEPS[1:-1]:
        router.message.register(wizard_text, step, F.text)
    router.callback_query.register(choose_preset, PresetChoice.filter(), Wizard.regulation)
    router.callback_query.register(wizard_keep, WizardKeep.filter())
    router.callback_query.register(wizard_done, WizardDone.filter())
    router.callback_query.register(wizard_language, WizardLanguage.filter(F.locale.in_(LOCALES)))
    router.callback_query.register(open_card, CardOpen.filter())
    router.callback_query.register(make_move, MoveChoice.filter())
    router.callback_query.register(choose_web_page, WebPageChoice.filter())
    return router
