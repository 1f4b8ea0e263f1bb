"""The tournament's public pages in Debian's headless Chromium, served by the running bot:
they show what the standings compute, follow a confirmation live without a reload, fit a
phone, and the hall screen shows its QR code; nothing goes to the console."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import pytest
from playwright.async_api import expect

from bot.app import Application
from bot.fake_telegram import FakeTelegram
from bot.i18n import format_points
from bot.sandbox import running_bot, sandbox_settings
from bot.web import serving
from domain.services.standings import current_standings
from domain.tournament import WebVisibility
from tests.browser.conftest import HeadlessBrowser
from tests.e2e.test_standings import _confirm, _now, _running_cup
from tests.operations import free_port

WAIT_MS = 120_000


@dataclass
class Site:
    app: Application
    url: str
    tournament: int
    keys: list[str]
    games: list[int]


@pytest.fixture
async def site(fake_telegram: FakeTelegram, tmp_path) -> AsyncIterator[Site]:  # type: ignore[no-untyped-def]
    port = free_port()
    settings = sandbox_settings(
        fake_telegram,
        f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        web_host="127.0.0.1",
        web_port=port,
    )
    async with running_bot(settings) as app, serving(app):
        tournament, keys, games = await _running_cup(app, fake_telegram)
        async with app.uow_factory() as uow:
            stage = await uow.rounds.stage(tournament, "qualifying")
            assert stage is not None
            await uow.rounds.mark_published(stage.rounds[0].id, _now())
            await uow.commit()
        await _confirm(app, tournament, games[0], keys, "red")
        yield Site(app, f"http://127.0.0.1:{port}", tournament, keys, games)


async def _points_shown(site: Site) -> dict[str, re.Pattern[str]]:
    """Each player's points as the standings compute them, written with the decimal comma
    (a provisional result carries its `*`)."""
    standings = await current_standings(site.app.uow_factory, site.tournament)
    return {
        row.name: re.compile(rf"^{re.escape(format_points(row.points, 'ru'))}\*?$")
        for row in standings.players
    }


async def test_the_page_shows_the_standings_and_follows_a_confirmation_live(
    browser: HeadlessBrowser, site: Site
) -> None:
    page = await browser.new_page()
    await page.goto(f"{site.url}/t/{site.tournament}")
    table = page.page.locator("table.board[data-unit=players]")
    for name, points in (await _points_shown(site)).items():
        row = table.locator("tr", has=page.page.get_by_role("link", name=name, exact=True))
        await expect(row.locator("td.points")).to_have_text(points, timeout=WAIT_MS)
    await expect(page.page.locator("#live-state")).to_be_visible(timeout=WAIT_MS)
    marker = await page.page.evaluate("window.marker = 'same page'")
    assert marker == "same page"
    played = page.page.get_by_text("Сыграно игр: 1")
    await expect(played).to_be_visible()

    await _confirm(site.app, site.tournament, site.games[1], site.keys, "black")

    await expect(page.page.get_by_text("Сыграно игр: 2")).to_be_visible(timeout=WAIT_MS)
    for name, points in (await _points_shown(site)).items():
        row = table.locator("tr", has=page.page.get_by_role("link", name=name, exact=True))
        await expect(row.locator("td.points")).to_have_text(points, timeout=WAIT_MS)
    # No reload: the script's variable is still there.
    assert await page.page.evaluate("window.marker") == "same page"
    page.assert_no_console_errors()


async def test_seatings_games_player_pages_and_a_phone(
    browser: HeadlessBrowser, site: Site
) -> None:
    phone = await browser.new_page(width=375, height=812)
    for path in ("", "/rounds", "/games", f"/p/{site.keys[0]}", "?lang=en"):
        await phone.goto(f"{site.url}/t/{site.tournament}{path}")
        wide = await phone.page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert wide <= 0, f"{path or '/'} scrolls sideways by {wide} px on a phone"
    await phone.goto(f"{site.url}/t/{site.tournament}/rounds")
    await expect(phone.page.get_by_text("Стол 1").first).to_be_visible()
    await phone.goto(f"{site.url}/t/{site.tournament}/games")
    await expect(phone.page.get_by_text("Победа красных")).to_be_visible()
    phone.assert_no_console_errors()


async def test_the_hall_screen_scrolls_and_shows_its_qr_code(
    browser: HeadlessBrowser, site: Site
) -> None:
    screen = await browser.new_page(width=1920, height=1080)
    await screen.goto(f"{site.url}/t/{site.tournament}/hall")
    qr = screen.page.locator(".qr img")
    await expect(qr).to_be_visible()
    await screen.page.wait_for_function(
        "document.querySelector('.qr img').complete "
        "&& document.querySelector('.qr img').naturalWidth > 0",
        timeout=WAIT_MS,
    )
    assert await screen.page.evaluate("document.documentElement.dataset.autoscroll") == "on"
    screen.assert_no_console_errors()


async def test_unknown_and_closed_pages_are_404_pages(browser: HeadlessBrowser, site: Site) -> None:
    page = await browser.new_page()
    for path in ("/t/999999", f"/t/{site.tournament}/p/999999", "/t/abc", "/t/1x"):
        response = await page.page.goto(site.url + path)
        assert response is not None and response.status == 404, path
        await expect(page.page.get_by_text("Страница не найдена")).to_be_visible()
    async with site.app.uow_factory() as uow:
        tournament = await uow.tournaments.get(site.tournament)
        assert tournament is not None
        await uow.tournaments.save(
            replace(tournament, web_visibility=WebVisibility.UNLISTED, web_token="secret")
        )
        uow.changed_tournaments.add(site.tournament)
        await uow.commit()
    response = await page.page.goto(f"{site.url}/t/{site.tournament}")
    assert response is not None and response.status == 404
    await page.goto(f"{site.url}/t/{site.tournament}?k=secret")
    await expect(page.page.get_by_text("Кубок Ворона").first).to_be_visible()
