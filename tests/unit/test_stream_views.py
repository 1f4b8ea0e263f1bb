"""The organizer's stream screen: the link under WEB_BASE_URL while it is open, the delays
with the current one ticked, and nothing to copy when it is closed or there is no address."""

from __future__ import annotations

from dataclasses import replace

from domain.live_table import StreamLink
from domain.rounds import GameInRound, TableGame
from domain.services.live_tables import StreamScreen
from domain.tournament import Tournament, TournamentState, WebVisibility
from handlers.middlewares import Texts
from handlers.streams_views import (
    public_address,
    stream_address,
    stream_keyboard,
    stream_text,
)
from tests.factories import NOW, ORGANIZER


def _screen(link: StreamLink | None) -> StreamScreen:
    tournament = Tournament(
        3, "Кубок <Ворона>", "black-raven-cup", TournamentState.RUNNING, "UTC", ORGANIZER, NOW
    )
    game = GameInRound(3, "qualifying", 2, True, TableGame(17, 4, tuple(range(1, 11))))
    return StreamScreen(tournament, game, link)


def _buttons(screen: StreamScreen) -> list[str]:
    keyboard = stream_keyboard(screen, Texts("ru"))
    return [button.text for row in keyboard.inline_keyboard for button in row]


def test_an_open_link_is_shown_with_its_delay_and_the_delays_to_pick() -> None:
    screen = _screen(StreamLink(17, "tok", 30))
    assert stream_address(screen, "https://bot.example.org/") == (
        "https://bot.example.org/t/3/games/17/stream/tok"
    )
    text = Texts("ru").phrase(stream_text(screen, "https://bot.example.org"))
    assert "Кубок &lt;Ворона&gt;, тур 2, стол 4" in text
    assert "https://bot.example.org/t/3/games/17/stream/tok" in text and "задержка 30 с" in text
    assert (
        "для зрителей (роли скрыты до конца игры): https://bot.example.org/t/3/games/17/live"
        in text
    )
    buttons = _buttons(screen)
    assert "✓ 30 с" in buttons and "60 с" in buttons and "Закрыть ссылку" in buttons
    assert buttons[0] == "Новая ссылка (старая закроется)" and buttons[-1] == "← К туру 2"


def test_a_closed_link_or_no_address_shows_nothing_to_copy() -> None:
    for link in (None, StreamLink(17, "tok", revoked=True)):
        screen = _screen(link)
        assert stream_address(screen, "https://bot.example.org") is None
        text = Texts("ru").phrase(stream_text(screen, "https://bot.example.org"))
        assert "/stream/" not in text and "Ссылки для трансляции нет" in text
        assert _buttons(screen) == ["Открыть ссылку для трансляции", "← К туру 2"]
    open_screen = _screen(StreamLink(17, "tok"))
    assert "WEB_BASE_URL" in Texts("en").phrase(stream_text(open_screen, None))
    unlisted = replace(
        open_screen,
        tournament=replace(
            open_screen.tournament, web_visibility=WebVisibility.UNLISTED, web_token="kk"
        ),
    )
    assert public_address(unlisted, "https://b.org") == "https://b.org/t/3/games/17/live?k=kk"
    closed = replace(
        open_screen,
        tournament=replace(open_screen.tournament, web_visibility=WebVisibility.OFF),
    )
    assert public_address(closed, "https://b.org") is None
