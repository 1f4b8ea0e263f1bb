"""The judge's app at a real venue, in headless Chromium on a phone: taps made without a
connection are kept (across a reload) and saved in order once it is back; a second device's
change is shown as a conflict, never overwritten; every text is readable in Telegram's light
and dark themes; a typical three-day game takes at most 60 taps."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Page, Route

from domain.cards import Role, Side
from domain.game_end import GameEnd
from domain.game_log import (
    Action,
    CastVotes,
    Check,
    DealRoles,
    Extra,
    Finish,
    Foul,
    LiveGame,
    NameBestMove,
    Nominate,
    Proceed,
    Shoot,
    action_to_dict,
    apply,
)
from harness.fake_telegram.webapp import DARK_THEME, THEME, with_theme
from harness.simulation.live_game import LiveGameClient
from harness.simulation.roles import Pace, called, open_protocol
from tests.browser.conftest import BrowserPage, HeadlessBrowser
from tests.browser.test_miniapp import WAIT_MS, Judge
from tests.e2e.conftest import fake_telegram
from tests.e2e.test_miniapp_api import CUP, Tables, tables

__all__ = ["fake_telegram", "tables"]
ROLES = DealRoles(
    tuple(
        {10: Role.DON, 7: Role.SHERIFF, 8: Role.MAFIA, 9: Role.MAFIA}.get(seat, Role.CIVILIAN)
        for seat in range(1, 11)
    )
)
# Ten taps: the roles (five), the introduction's end, player 1 nominates 8, two speeches, a foul.
OFFLINE_TAPS: list[tuple[str, Action | None]] = [
    ("#mode-roles", None),
    ('#seats button[data-seat="10"]', None),
    ('#seats button[data-seat="7"]', None),
    ('#seats button[data-seat="8"]', None),
    ('#seats button[data-seat="9"]', ROLES),
    ("#next", Proceed()),
    ('#seats button[data-seat="8"]', Nominate(1, 8)),
    ("#next", Proceed()),
    ("#next", Proceed()),
    ("#foul-5", Foul(5)),
]


def assert_no_errors_but_the_networks(shown: BrowserPage) -> None:
    """No error in the page but the browser's own lines for requests without a connection
    and for the refusal of a stale tap (the page expects both)."""
    expected = (
        "net::ERR_INTERNET_DISCONNECTED",
        "net::ERR_CONNECTION_RESET",
        "status of 409 (Conflict)",
    )
    errors = [e for e in shown.console_errors if not any(x in e for x in expected)]
    assert not errors, "\n".join(errors)


def _stored(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in entry.items() if k not in ("at", "judge")} for entry in view["log"]]


async def _open(
    tables: Tables, browser: HeadlessBrowser, **options: Any
) -> tuple[BrowserPage, str]:
    judge_account = tables.judges[0]
    screen = await open_protocol(judge_account, await called(judge_account), Pace(speed=1000))
    address = judge_account.open_web_app(screen.message, "🎲 Вести игру")
    shown = await browser.new_page(width=390, height=844, locale="ru-RU", **options)
    await shown.goto(address)
    await shown.page.wait_for_selector('body[data-version="0"]', timeout=WAIT_MS)
    return shown, address


async def test_ten_taps_without_a_connection_are_kept_and_saved_in_order(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    shown, address = await _open(tables, browser)
    page = shown.page
    # The page and its scripts are in the service worker's cache: a reload opens offline.
    await page.wait_for_selector('body[data-cached="1"]', timeout=WAIT_MS)
    await page.context.set_offline(True)
    expected = [action for _, action in OFFLINE_TAPS if action is not None]
    for selector, _ in OFFLINE_TAPS:
        await page.locator(selector).first.click()
    # An undo without a connection takes back the foul (never sent); the foul tapped again.
    await page.locator("#undo").click()
    await page.wait_for_selector(f'body[data-pending="{len(expected) - 1}"]', timeout=WAIT_MS)
    await page.locator("#foul-5").click()
    await page.wait_for_selector(f'body[data-pending="{len(expected)}"]', timeout=WAIT_MS)
    assert await page.get_attribute("body", "data-version") == "0"
    assert f"Не сохранено на сервере: {len(expected)}" in await page.inner_text("#sync")
    # Applied on the phone: player 3 speaks, 5 has a foul, 8 is nominated.
    assert "игрок 3" in await page.inner_text("#phase")
    assert "!" in await page.inner_text('#seats button[data-seat="5"]')
    # A reload without a connection loses nothing.
    await page.reload(wait_until="load")
    await page.wait_for_selector(f'body[data-pending="{len(expected)}"]', timeout=WAIT_MS)
    assert "игрок 3" in await page.inner_text("#phase")
    await page.context.set_offline(False)
    await page.wait_for_selector(f'body[data-version="{len(expected)}"]', timeout=WAIT_MS)
    await page.wait_for_selector('body[data-pending="0"]', timeout=WAIT_MS)
    assert "Всё сохранено" in await page.inner_text("#sync")
    server = LiveGameClient.launched(address)
    try:
        status, view = await server.get()
    finally:
        await server.close()
    assert status == 200
    assert _stored(view) == [action_to_dict(action) for action in expected]
    assert view["version"] == len(expected)
    assert_no_errors_but_the_networks(shown)


async def test_a_tap_whose_answer_was_lost_is_stored_once(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    # The service worker blocked, so that the test sees the page's own requests.
    shown, address = await _open(tables, browser, service_workers="block")
    page = shown.page
    judge = Judge(shown)
    await judge.play(ROLES)
    lost: list[int] = []
    stored = asyncio.Event()

    async def store_then_drop(route: Route) -> None:
        # The server stores the tap; its answer never reaches the phone.
        response = await route.fetch()
        lost.append(response.status)
        stored.set()
        await route.abort("connectionreset")

    await page.route("**/app/api/games/*/actions", store_then_drop)
    await page.locator("#next").click()
    await page.wait_for_selector('body[data-pending="1"]', timeout=WAIT_MS)
    await asyncio.wait_for(stored.wait(), WAIT_MS / 1000)
    await page.unroute("**/app/api/games/*/actions")
    # A reload sends the tap again: the server's "stale" is this tap, saved once.
    await page.reload(wait_until="load")
    await page.wait_for_selector('body[data-pending="0"][data-version="2"]', timeout=WAIT_MS)
    assert await page.get_attribute("body", "data-conflict") == ""
    server = LiveGameClient.launched(address)
    try:
        _, view = await server.get()
    finally:
        await server.close()
    assert lost == [200]
    assert _stored(view) == [action_to_dict(ROLES), action_to_dict(Proceed())]
    assert_no_errors_but_the_networks(shown)


async def test_a_second_devices_change_is_shown_not_overwritten(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    shown, address = await _open(tables, browser)
    page = shown.page
    judge = Judge(shown)
    await judge.play(ROLES)
    await judge.play(Proceed())
    # A second device sees the server's game.
    tablet = await browser.new_page(width=390, height=844, locale="ru-RU")
    await tablet.goto(address)
    await tablet.page.wait_for_selector('body[data-version="2"]', timeout=WAIT_MS)
    assert await tablet.page.get_attribute("body", "data-phase") == "speeches"
    # The phone loses its connection and taps; meanwhile the tablet acts on the server.
    await page.context.set_offline(True)
    await page.locator("#foul-4").click()
    await page.wait_for_selector('body[data-pending="1"]', timeout=WAIT_MS)
    await tablet.page.locator('#seats button[data-seat="8"]').click()
    await tablet.page.wait_for_selector('body[data-version="3"]', timeout=WAIT_MS)
    await page.context.set_offline(False)
    await page.wait_for_selector('body[data-conflict="1"]', timeout=WAIT_MS)
    assert "другом устройстве" in await page.inner_text("#message")
    server = LiveGameClient.launched(address)
    try:
        _, view = await server.get()
    finally:
        await server.close()
    # The server kept the tablet's nomination; the phone's foul was not applied over it.
    assert _stored(view)[-1] == action_to_dict(Nominate(1, 8))
    assert view["version"] == 3 and all(s["fouls"] == 0 for s in view["seats"])
    await page.locator("#conflict-discard").click()
    await page.wait_for_selector('body[data-pending="0"][data-conflict=""]', timeout=WAIT_MS)
    assert "⇐ 1" in await page.inner_text('#seats button[data-seat="8"]')
    assert_no_errors_but_the_networks(shown)


# The texts under 4.5:1 on what they sit on, as the page computes them.
CONTRAST = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")


def contrast_game() -> list[Action]:
    """The three-day game with three fouls to seat 2 (his lost speech shown too)."""
    game = three_days()
    return [*game[:3], Foul(2), Foul(2), Foul(2), *game[3:]]


async def _measure(page: Page, where: str) -> None:
    await page.locator("#log-title").click()  # the log open too
    measured = await page.evaluate(CONTRAST)
    await page.locator("#log-title").click()
    assert measured["checked"] > 30, where
    assert measured["bad"] == [], (where, measured["bad"])


async def test_every_text_is_readable_in_the_light_and_the_dark_theme(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    shown, address = await _open(tables, browser, bypass_csp=True)
    page = shown.page
    game = contrast_game()
    # Each screen before these actions: a lost speech and marks, the vote, a night's check,
    # the best move, the end offered, and after the last one the summary.
    stops = [Nominate(2, 3), CastVotes((7, 3)), Check(7), NameBestMove((9, 10, 3)), game[-2]]
    server = LiveGameClient.launched(address)
    try:
        await server.get()
        for index, action in enumerate([*game, None]):
            if action is None or action in stops:
                stops = [s for s in stops if s != action]
                for theme in (THEME, DARK_THEME):
                    await page.goto(with_theme(address, theme), wait_until="load")
                    await page.reload(wait_until="load")
                    await page.wait_for_selector(f'body[data-version="{index}"]', timeout=WAIT_MS)
                    where = f"{theme['bg_color']} before {action}"
                    await _measure(page, where)
                    if index == 6:
                        for mode in ("#mode-fouls", "#mode-roles"):
                            await page.locator(mode).click()
                            await _measure(page, f"{where} {mode}")
                            await page.locator("#mode-play").click()
            if action is not None:
                status, _ = await server.act(action)
                assert status == 200
    finally:
        await server.close()
    shown.assert_no_console_errors()


def three_days() -> list[Action]:
    """A typical three-day game: black voted out each day, red shot each night, the checks
    made, the first victim's best move, a foul, extra points."""
    return [
        ROLES,
        Proceed(),
        # Day 1: 8 and 3 nominated, 8 voted out.
        Nominate(1, 8),
        Proceed(),
        Nominate(2, 3),
        *[Proceed()] * 9,
        CastVotes((7, 3)),
        Proceed(),
        # Night 1: 1 shot; the checks; 1 names 9, 10, 3.
        Shoot(1),
        Check(7),
        Check(9),
        NameBestMove((9, 10, 3)),
        Proceed(),
        # Day 2: speakers 2 to 10 without 8; a foul; 9 voted out.
        Nominate(2, 9),
        Proceed(),
        Foul(5),
        Nominate(3, 4),
        *[Proceed()] * 7,
        CastVotes((5, 3)),
        Proceed(),
        # Night 2: 2 shot; the checks.
        Shoot(2),
        Check(3),
        Check(10),
        Proceed(),
        # Day 3: 10 voted out: all black out.
        Nominate(3, 10),
        Proceed(),
        Nominate(4, 5),
        *[Proceed()] * 5,
        CastVotes((4, 2)),
        Finish(Side.RED, GameEnd.BLACK_OUT, ""),
        Extra(3, CUP.extra_points.step * 3),
    ]


def test_the_three_day_games_are_games() -> None:
    for actions in (three_days(), contrast_game()):
        game = LiveGame()
        for action in actions:
            game = apply(game, action, CUP)
        assert game.phase.value == "finished" and game.day == 3


async def test_a_typical_three_day_game_takes_at_most_60_taps(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    shown, _ = await _open(tables, browser)
    judge = Judge(shown)
    for action in three_days():
        await judge.play(action)
    assert await judge.phase() == "finished"
    await judge.tap("#confirm", saved=False)
    await shown.page.wait_for_selector("text=Протокол подтверждён", timeout=WAIT_MS)
    # Was 106 taps and one to confirm for a longer game (one "+" per vote, three per foul).
    print(f"taps of a three-day game: {judge.taps}")
    assert judge.taps <= 60
    shown.assert_no_console_errors()
