"""The tournament's public pages in Debian's headless Chromium, served by the running bot:
they show what the standings compute, follow a judge's confirmation by his buttons in the
fake Telegram live without a reload, fit a phone, and the hall screen shows its QR code;
nothing goes to the console."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import pytest
from playwright.async_api import expect

from bot.app import Application
from bot.i18n import format_points
from bot.web import serving
from domain.services.standings_posts import publish_results
from domain.tournament import TournamentState, WebVisibility
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.browser.conftest import BrowserPage, HeadlessBrowser
from tests.e2e.test_standings import _confirm, _now, _running_cup
from tests.e2e.test_standings_push import (
    _confirm_red_win,
    pinned_live_table,
    published_round,
)
from tests.factories import CHANNEL
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


async def _points_shown(app: Application, tournament: int) -> dict[str, re.Pattern[str]]:
    """Each player's points as the standings compute them, written with the decimal comma
    (a provisional result carries its `*`)."""
    standings = await app.services.standings.current_standings(tournament)
    return {
        row.name: re.compile(rf"^{re.escape(format_points(row.points, 'ru'))}\*?$")
        for row in standings.players
    }


async def _assert_points_shown(shown: BrowserPage, app: Application, tournament: int) -> None:
    table = shown.page.locator("table.board[data-unit=players]")
    for name, points in (await _points_shown(app, tournament)).items():
        row = table.locator("tr", has=shown.page.get_by_role("link", name=name, exact=True))
        await expect(row.locator("td.points")).to_have_text(points, timeout=WAIT_MS)


async def test_a_judges_buttons_in_telegram_update_the_open_page_live(
    browser: HeadlessBrowser,
    fake_telegram: FakeTelegram,
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    settings = sandbox_settings(
        fake_telegram,
        f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        web_host="127.0.0.1",
        web_port=port,
        web_base_url=base,
    )
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(settings) as app, serving(app):
        tournament, (first, second) = await published_round(app, fake_telegram)
        assert first.judge_id is not None and second.judge_id is not None
        await _confirm_red_win(fake_telegram.user(first.judge_id, "Судья"), 1)
        # A spectator follows the link at the end of the channel's pinned live table.
        await channel.wait_for(lambda m: "сыграно игр: 1" in (m.text or ""))
        live = await pinned_live_table(fake_telegram)
        link = (live.text or "").split()[-1]
        assert "сыграно игр: 1" in (live.text or "") and link == f"{base}/t/{tournament}"
        shown = await browser.new_page()
        await shown.goto(link)
        await expect(shown.page.get_by_text("Сыграно игр: 1")).to_be_visible(timeout=WAIT_MS)
        await _assert_points_shown(shown, app, tournament)
        await expect(shown.page.locator("#live-state")).to_be_visible(timeout=WAIT_MS)
        assert await shown.page.evaluate("window.marker = 'same page'") == "same page"

        # The judge of table 2 confirms his protocol by the buttons in Telegram.
        await _confirm_red_win(fake_telegram.user(second.judge_id, "Судья"), 2)

        await expect(shown.page.get_by_text("Сыграно игр: 2")).to_be_visible(timeout=WAIT_MS)
        await _assert_points_shown(shown, app, tournament)
        # No reload: the script's variable is still there.
        assert await shown.page.evaluate("window.marker") == "same page"
        shown.assert_no_console_errors()


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


async def test_a_finished_tournaments_page_opens_with_its_podium_on_a_phone(
    browser: HeadlessBrowser, site: Site, tmp_path
) -> None:
    async with site.app.uow_factory() as uow:
        stored = await uow.tournaments.get(site.tournament)
        assert stored is not None
        finished = replace(stored, state=TournamentState.FINISHED)
        await uow.tournaments.save(finished)
        await publish_results(uow, finished, _now())
        await uow.commit()
    standings = await site.app.services.standings.current_standings(site.tournament)
    leader = standings.players[0]
    phone = await browser.new_page(width=375, height=812)
    await phone.goto(f"{site.url}/t/{site.tournament}")
    podium = phone.page.locator("section.podium")
    await expect(podium.get_by_role("heading", name="Итоги турнира")).to_be_visible()
    points = format_points(leader.points, "ru")
    await expect(podium.locator("li").first).to_have_text(f"1. {leader.name} — {points}")
    await phone.page.screenshot(path=str(tmp_path / "podium-375.png"))
    phone.assert_no_console_errors()
