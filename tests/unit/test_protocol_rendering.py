"""The protocol screen's kept renderings (text lines, seat buttons, the modes' row) are what a
fresh rendering gives: two states that differ in anything the screen shows (the language, the
judge's role, the mode, a seat) never share a text or a keyboard."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import UTC, datetime
from types import ModuleType
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.protocol import Protocol
from domain.protocol_screen import (
    Act,
    Press,
    PressRefused,
    Screen,
    UnknownPress,
    apply_press,
    new_screen,
)
from domain.regulation import load_preset
from domain.rounds import GameInRound, GameState, TableGame
from domain.services.protocols import ProtocolView
from handlers import keyboards, middlewares, protocol_views
from handlers.callbacks import ProtocolButton
from handlers.middlewares import Texts
from handlers.protocol_views import render_keyboard, render_text
from tests.examples import examples
from tests.unit.protocol_builders import protocol

CUP = load_preset("black-raven-cup")
PLAYERS = tuple(f"p{seat}" for seat in range(1, 11))
NICKNAMES = tuple(f"Игрок {seat}" for seat in range(1, 11))
LIVE = "https://example.org/live"
GAME = GameInRound(
    1, "main", 3, True, TableGame(id=77, table=5, players=tuple(range(1, 11)), judge_id=9)
)


def _view(screen: Screen | None, **changes: Any) -> ProtocolView:
    view = ProtocolView(
        game=GAME,
        regulation=CUP,
        nicknames=NICKNAMES,
        timezone="Europe/Moscow",
        screen=screen,
        confirmed=None,
        chief_judge=False,
    )
    return replace(view, **changes)


def _shown(view: ProtocolView, locale: str) -> tuple[str, Any]:
    texts = Texts(locale)
    keyboard = render_keyboard(view, texts, LIVE)
    return texts.phrase(render_text(view)), keyboard and keyboard.model_dump(exclude_none=True)


def _forgotten() -> None:
    """The renderings kept by the screen's modules, forgotten (not the translator's bundles)."""
    modules: tuple[ModuleType, ...] = (protocol_views, keyboards, middlewares)
    for module in modules:
        for value in vars(module).values():
            if hasattr(value, "cache_clear") and value.__module__ == module.__name__:
                value.cache_clear()


def _fresh(view: ProtocolView, locale: str) -> tuple[str, Any]:
    _forgotten()
    return _shown(view, locale)


def _presses(view: ProtocolView) -> list[Press]:
    """The rules presses the screen's keyboard offers."""
    keyboard = render_keyboard(view, Texts("en"))
    found = []
    for row in keyboard.inline_keyboard if keyboard else ():
        for button in row:
            data = ProtocolButton.unpack(button.callback_data or "")
            if isinstance(data.action, Act):
                found.append(Press(data.action, data.seat, data.value))
    return found


def _played(choices: list[int]) -> list[Screen]:
    """The screens a judge goes through pressing his keyboard's buttons (the choices pick
    one each time; a refused press changes nothing)."""
    screen = new_screen(PLAYERS)
    screens = [screen]
    for choice in choices:
        offered = _presses(_view(screen))
        with contextlib.suppress(PressRefused, UnknownPress):
            screen = apply_press(screen, offered[choice % len(offered)], CUP)
        screens.append(screen)
    return screens


@settings(max_examples=examples(30), deadline=None)
@given(
    choices=st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=25),
    chief=st.booleans(),
)
def test_a_kept_rendering_is_the_fresh_one(choices: list[int], chief: bool) -> None:
    views = [_view(screen, chief_judge=chief) for screen in _played(choices)]
    # Every state in turn with the caches warm, in both languages, then each afresh.
    kept = [_shown(view, locale) for view in views for locale in ("ru", "en")]
    fresh = [_fresh(view, locale) for view in views for locale in ("ru", "en")]
    assert kept == fresh


def test_states_that_differ_in_what_the_screen_shows_never_share_a_rendering() -> None:
    screen = new_screen(PLAYERS)
    fouled = apply_press(
        apply_press(screen, Press(Act.MODE, value=1), CUP), Press(Act.FOULS, 4, 1), CUP
    )
    extra = apply_press(screen, Press(Act.MODE, value=4), CUP)
    confirmed: Protocol = protocol(list(PLAYERS))
    correcting = _view(screen, confirmed=confirmed, chief_judge=True)
    closed = _view(
        None,
        confirmed=confirmed,
        chief_judge=True,
        game=replace(GAME, game=replace(GAME.game, state=GameState.CONFIRMED)),
    )
    states = [
        (_view(screen), "ru"),
        (_view(screen), "en"),
        (_view(fouled), "ru"),
        (_view(replace(fouled, mode=screen.mode)), "ru"),
        (_view(screen, nicknames=("Другой", *NICKNAMES[1:])), "ru"),
        (correcting, "ru"),
        (closed, "ru"),
        (replace(closed, chief_judge=False), "ru"),
        (_view(screen, game=replace(GAME, round_number=4)), "ru"),
        (_view(apply_press(screen, Press(Act.ROLE, 2, 1), CUP)), "ru"),
        (_view(extra), "ru"),
        (_view(apply_press(extra, Press(Act.PICK_EXTRA, 3, 1), CUP)), "ru"),
    ]
    shown = [_shown(view, locale) for view, locale in states]
    texts = [text for text, _ in shown]
    keyboards = [repr(keyboard) for _, keyboard in shown]
    # Each differs from every other in its text or its keyboard, and is what a fresh
    # rendering gives.
    assert len(set(zip(texts, keyboards, strict=True))) == len(states)
    assert shown == [_fresh(view, locale) for view, locale in states]
    moment = datetime(2026, 12, 20, 12, tzinfo=UTC)
    ended = replace(fouled, draft=replace(fouled.draft, ended_at=moment))
    assert _shown(_view(ended), "ru")[0] != _shown(_view(fouled), "ru")[0]
