"""The texts and keyboard of a game's stream screen (handlers/streams.py)."""

from __future__ import annotations

from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from domain.layout import lines
from domain.live_table import DELAY_CHOICES
from domain.outgoing import Lines, Phrase
from domain.services.live_tables import StreamScreen
from handlers.callbacks import RoundAction, StageButton, StreamAction, StreamButton
from handlers.middlewares import Texts


def stream_address(screen: StreamScreen, web_base_url: str | None) -> str | None:
    """The stream view's address, or None (closed, or no WEB_BASE_URL to build it on)."""
    link = screen.link
    if link is None or link.revoked or not web_base_url:
        return None
    game = screen.game
    return (
        f"{web_base_url.rstrip('/')}/t/{game.tournament_id}/games/{game.game.id}"
        f"/stream/{link.token}"
    )


def public_address(screen: StreamScreen, web_base_url: str | None) -> str | None:
    """The game's live page for spectators (no roles), or None (the page is off, no base)."""
    page = screen.tournament.public_page_path
    if page is None or not web_base_url:
        return None
    path, _, query = page.partition("?")
    live = f"{web_base_url.rstrip('/')}{path}/games/{screen.game.game.id}/live"
    return f"{live}?{query}" if query else live


def stream_text(screen: StreamScreen, web_base_url: str | None) -> Lines:
    game = screen.game
    heading: list[Phrase] = [
        Phrase.of(
            "stream-heading",
            tournament=screen.tournament.title,
            round=game.round_number,
            table=game.game.table,
        )
    ]
    spectators = public_address(screen, web_base_url)
    if spectators:
        heading.append(Phrase.of("stream-public-page", address=spectators))
    if not screen.open or screen.link is None:
        return lines([lines(heading), Phrase.of("stream-closed")], "\n\n")
    address = stream_address(screen, web_base_url)
    where = (
        Phrase.of("stream-address", address=address) if address else Phrase.of("stream-no-base-url")
    )
    opened = Phrase.of("stream-open", seconds=screen.link.delay_seconds)
    return lines([lines(heading), where, opened], "\n\n")


def stream_keyboard(screen: StreamScreen, texts: Texts) -> InlineKeyboardMarkup:
    """Open (or a new link), the delays to pick from, revoke, and the way back to the round."""
    game_id = screen.game.game.id
    keyboard = InlineKeyboardBuilder()
    sizes = [1]
    keyboard.button(
        text=texts("stream-new-button" if screen.open else "stream-open-button"),
        callback_data=StreamButton(game_id=game_id, action=StreamAction.OPEN),
    )
    if screen.open and screen.link is not None:
        current = screen.link.delay_seconds
        for seconds in DELAY_CHOICES:
            mark = "✓ " if seconds == current else ""
            keyboard.button(
                text=mark + texts("stream-delay-button", seconds=seconds),
                callback_data=StreamButton(
                    game_id=game_id, action=StreamAction.DELAY, value=seconds
                ),
            )
        sizes.append(len(DELAY_CHOICES))
        keyboard.button(
            text=texts("stream-revoke-button"),
            callback_data=StreamButton(game_id=game_id, action=StreamAction.REVOKE),
        )
        sizes.append(1)
    keyboard.button(
        text=texts("stream-back-button", round=screen.game.round_number),
        callback_data=StageButton(
            tournament_id=screen.tournament.id,
            action=RoundAction.ROUND,
            round=screen.game.round_number,
        ),
    )
    sizes.append(1)
    keyboard.adjust(*sizes)
    return keyboard.as_markup()
