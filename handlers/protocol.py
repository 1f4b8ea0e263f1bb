"""The judge's protocol screen: one message, edited in place at every press.

The judge opens it from his round message (or /protocol). Seats 1–10 are big buttons, two per
row; below them the mode's tools and the modes. Every press goes to a use case that checks
who is pressing, applies it by the rules and stores the draft; a refused press answers with
the reason and changes nothing; a press on a confirmed protocol only says so. The screen's
text and keyboard are drawn in `handlers/protocol_views.py`.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

from aiogram import F, Router
from aiogram.filters import Command, Filter
from aiogram.types import CallbackQuery, Message

from bot.config import Settings
from bot.web.miniapp import live_game_url
from domain.actor import Actor
from domain.protocol_screen import Act, Press, UnknownPress
from domain.services.catalog import Services
from domain.services.protocols import NotYourTable, ProtocolService, ProtocolView
from handlers.callbacks import ProtocolAction, ProtocolButton
from handlers.common import answer, edit_screen
from handlers.middlewares import Texts
from handlers.protocol_views import (
    error_text,
    games_keyboard,
    render_keyboard,
    render_text,
)

# Notices that stop the judge: the press did nothing. Success only flashes.
_ALERTS = frozenset(
    {
        "protocol-screen-already-confirmed",
        "protocol-screen-not-opened",
        "protocol-screen-not-confirmed",
    }
)


async def _show(
    callback: CallbackQuery, view: ProtocolView, texts: Texts, settings: Settings
) -> None:
    """Edit the pressed message into the screen; an identical screen is left alone."""
    if isinstance(callback.message, Message):
        markup = render_keyboard(view, texts, live_game_url(settings, view.game.game.id))
        await edit_screen(callback.message, render_text(view), markup, texts)


async def _answer(callback: CallbackQuery, view: ProtocolView, texts: Texts) -> None:
    if view.refused:
        reasons = "\n".join(texts.plain(error_text(view, error)) for error in view.refused)
        await callback.answer(reasons[:200], show_alert=True)
    elif view.notice is not None:
        await callback.answer(texts(view.notice), show_alert=view.notice in _ALERTS)
    else:
        await callback.answer()


async def _view(
    callback: CallbackQuery, texts: Texts, use: Awaitable[ProtocolView]
) -> ProtocolView | None:
    """The protocol after the press's use case, or None when the press is answered without
    one: not the person's table, or a press the screen does not know (out of date)."""
    try:
        return await use
    except NotYourTable:
        await callback.answer(texts("protocol-screen-not-yours"), show_alert=True)
    except UnknownPress:
        await callback.answer(texts("button-out-of-date"), show_alert=True)
    return None


async def _edited(
    callback: CallbackQuery, texts: Texts, settings: Settings, use: Awaitable[ProtocolView]
) -> None:
    """The pressed screen edited into the protocol the use case gives, the press answered."""
    view = await _view(callback, texts, use)
    if view is not None:
        await _show(callback, view, texts, settings)
        await _answer(callback, view, texts)


async def open_screen(
    callback: CallbackQuery,
    callback_data: ProtocolButton,
    actor: Actor,
    texts: Texts,
    settings: Settings,
    services: Services,
) -> None:
    """The protocol screen as a new message (the round message stays)."""
    view = await _view(
        callback, texts, services.protocols.open_protocol(actor, callback_data.game_id)
    )
    if view is None:
        return
    if isinstance(callback.message, Message):
        live_url = live_game_url(settings, view.game.game.id)
        keyboard = render_keyboard(view, texts, live_url)
        await answer(callback.message, render_text(view), texts, reply_markup=keyboard)
    await callback.answer()


# The screen's own buttons that edit it, each with its use case.
SCREEN_ACTIONS: dict[
    ProtocolAction | Act, Callable[[ProtocolService, Actor, int], Awaitable[ProtocolView]]
] = {
    ProtocolAction.REFRESH: ProtocolService.open_protocol,
    ProtocolAction.CONFIRM: ProtocolService.confirm_protocol,
    ProtocolAction.CORRECT: ProtocolService.start_correction,
    ProtocolAction.CANCEL: ProtocolService.cancel_correction,
}


async def screen_action(
    callback: CallbackQuery,
    callback_data: ProtocolButton,
    actor: Actor,
    texts: Texts,
    settings: Settings,
    services: Services,
) -> None:
    """Refresh, confirm, or start or cancel a correction (`SCREEN_ACTIONS`)."""
    use = SCREEN_ACTIONS[callback_data.action]
    await _edited(callback, texts, settings, use(services.protocols, actor, callback_data.game_id))


async def rules_press(
    callback: CallbackQuery,
    callback_data: ProtocolButton,
    actor: Actor,
    texts: Texts,
    settings: Settings,
    services: Services,
) -> None:
    """A press of the draft's rules (a role, a foul, a kill...), applied by the use case."""
    data = callback_data
    press = Press(Act(data.action), data.seat, data.value)
    use = services.protocols.press_protocol(actor, data.game_id, press)
    await _edited(callback, texts, settings, use)


async def list_protocols(message: Message, actor: Actor, texts: Texts, services: Services) -> None:
    """/protocol: the protocols this judge may open (a lost message is never a problem); a
    judge of several tournaments reads each game's tournament on its button."""
    games = await services.protocols.judge_games(actor)
    if not games:
        await message.answer(texts("protocol-screen-no-games"))
        return
    titles: dict[int, str] = {}
    if len({game.tournament_id for game in games}) > 1:
        titles = {t.id: t.title for t in await services.tournaments.tournaments_of(actor)}
    await message.answer(
        texts("protocol-screen-choose"), reply_markup=games_keyboard(games, titles, texts)
    )


def make_router() -> Router:
    """/protocol in private chats (the screen's buttons are `make_press_router`'s)."""
    router = Router(name="protocol")
    router.message.register(list_protocols, Command("protocol"), F.chat.type == "private")
    return router


# The screen's buttons as unpacked, by their callback data: a screen's thirty buttons are the
# same from press to press, and unpacking (a pydantic model) costs ten times a copy.
_KEPT_PRESSES = 4096
_PREFIX = ProtocolButton.__prefix__ + ProtocolButton.__separator__


@functools.lru_cache(maxsize=_KEPT_PRESSES)
def _unpacked(data: str) -> ProtocolButton:
    return ProtocolButton.unpack(data)


class ProtocolPressed(Filter):
    """The filter of the screen's buttons: the press's `callback_data`, or no match for any
    other button and for forged data (a word or a number out of range: out of date)."""

    # The kind of button it takes, as aiogram's `CallbackData.filter()` names it: the tests
    # that fuzz every registered button read it (tests/e2e/test_fuzz.py).
    callback_data = ProtocolButton

    async def __call__(self, callback: CallbackQuery) -> dict[str, ProtocolButton] | bool:
        data = callback.data
        if not data or not data.startswith(_PREFIX):
            return False
        try:
            # A copy: a handler's changes to its press would not reach the next one.
            return {"callback_data": _unpacked(data).model_copy()}
        except (TypeError, ValueError):
            return False


protocol_pressed = ProtocolPressed()


async def press(
    callback: CallbackQuery,
    callback_data: ProtocolButton,
    actor: Actor,
    texts: Texts,
    settings: Settings,
    services: Services,
) -> None:
    """Any button of the screen, sent on by its action: one handler behind one filter, where
    a handler per kind of button ran a filter each (and unpacked the data each time)."""
    action = callback_data.action
    if action is ProtocolAction.OPEN:
        handler = open_screen
    elif action in SCREEN_ACTIONS:
        handler = screen_action
    else:
        handler = rules_press
    await handler(callback, callback_data, actor, texts, settings, services)


def make_press_router() -> Router:
    """The protocol screen's buttons, anywhere. Thirty judges press them at a round's start,
    so the Dispatcher offers a press to this router first: no other router's filters run for
    it (every other button carries a prefix of its own, so none would take it)."""
    router = Router(name="protocol-presses")
    router.callback_query.register(press, protocol_pressed)
    return router
