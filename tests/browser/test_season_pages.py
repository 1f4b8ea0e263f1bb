"""The season's pages in Debian's headless Chromium, served by the running bot: a series'
page and a player's at a phone's 375 px and a hall screen's 1920 px (nothing wider than the
screen, the SVG rating chart drawn without a script, nothing in the console), a hidden
profile showing only its nickname, and unknown or junk ids answering the 404 page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date

import pytest
from playwright.async_api import expect

from bot.app import Application
from bot.web import serving
from domain.actor import Actor
from domain.invites import Invite, InviteKind
from domain.services.tournaments import new_token
from domain.tournament import Tournament, TournamentState
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.browser.conftest import HeadlessBrowser
from tests.e2e.lifecycle_screens import ADMIN_ID
from tests.e2e.test_season import HOSTILE, RAVEN, _now, add_cup, play
from tests.operations import free_port

pytestmark = pytest.mark.browser
WAIT_MS = 60_000


@dataclass
class Season:
    app: Application
    url: str
    series_id: int
    raven: int
    cup: int


@pytest.fixture
async def season(fake_telegram: FakeTelegram, tmp_path) -> AsyncIterator[Season]:  # type: ignore[no-untyped-def]
    port = free_port()
    settings = sandbox_settings(
        fake_telegram,
        f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}",
        web_host="127.0.0.1",
        web_port=port,
        admin_ids=frozenset({ADMIN_ID}),
    )
    async with running_bot(settings) as app, serving(app):
        admin = Actor.of(ADMIN_ID, _now(), {ADMIN_ID})
        series_id = await app.services.series.create_series(admin, "Сезон <2026>")
        for title, day in (("Кубок Весны", date(2026, 3, 1)), ("Кубок Осени", date(2026, 9, 1))):
            cup = await add_cup(app, title, day)
            await app.services.series.attach_tournament(admin, cup.id, series_id)
            await app.services.series.mark_rated(admin, cup.id, True)
            await play(app, cup, 0, "red")
            await play(app, cup, 1, "black")
        await app.services.series.attach_tournament(admin, await _upcoming(app), series_id)
        raven = await app.services.profiles.my_person(Actor.of(RAVEN, _now(), ()))
        assert raven is not None
        yield Season(app, f"http://127.0.0.1:{port}", series_id, raven, cup.id)


async def _upcoming(app: Application) -> int:
    """A cup whose registration is open, with its registration link."""
    async with app.uow_factory() as uow:
        winter = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Кубок Зимы",
                regulation_id="black-raven-cup",
                state=TournamentState.REGISTRATION_OPEN,
                timezone="Asia/Omsk",
                created_by=ADMIN_ID,
                created_at=_now(),
                starts_on=date(2026, 12, 1),
                ends_on=date(2026, 12, 1),
            )
        )
        await uow.invites.add(Invite(new_token(), InviteKind.REGISTRATION, winter.id, None, _now()))
        await uow.commit()
    return winter.id


async def _fits(page) -> None:  # type: ignore[no-untyped-def]
    """Nothing on the page is wider than the screen: no sideways scrolling of the page."""
    overflow = await page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0


@pytest.mark.parametrize("width", [375, 1920])
async def test_the_series_and_player_pages_fit_and_chart_the_rating(
    season: Season, browser: HeadlessBrowser, width: int
) -> None:
    shown = await browser.new_page(width=width, height=900)
    await shown.goto(f"{season.url}/series/{season.series_id}")
    page = shown.page
    await expect(page.locator("h1")).to_have_text("Серия «Сезон <2026>»")
    await expect(page.locator("#calendar")).to_contain_text("Кубок Весны")
    register = page.locator("#calendar a.register")
    await expect(register).to_have_count(1)
    assert (await register.get_attribute("href") or "").startswith(
        "https://t.me/mafiatour_bot?start=r"
    )
    raven_link = page.get_by_role("link", name=f"Ворон {HOSTILE}", exact=True)
    await expect(raven_link).to_be_visible()
    await _fits(page)
    await raven_link.click()
    await page.wait_for_url(f"**/players/{season.raven}?lang=ru")
    await expect(page.locator("h1")).to_have_text(f"Ворон {HOSTILE}")
    chart = page.locator("svg.rating-chart")
    await expect(chart).to_be_visible(timeout=WAIT_MS)
    box = await chart.bounding_box()
    assert box is not None and 0 < box["width"] <= width
    assert await chart.locator("polyline").count() == 1
    await expect(page.locator("section.tournaments")).to_contain_text("Кубок Осени")
    await _fits(page)
    await page.get_by_role("link", name="English").click()
    await expect(page.locator("section.chart h2")).to_have_text("Rating history")
    html = await page.content()
    assert str(RAVEN) not in html  # no Telegram id anywhere
    shown.assert_no_console_errors()


async def test_a_tournament_page_links_to_its_series_and_its_players_profiles(
    season: Season, browser: HeadlessBrowser
) -> None:
    shown = await browser.new_page(width=375, height=812)
    await shown.goto(f"{season.url}/t/{season.cup}")
    page = shown.page
    series = page.get_by_role("link", name="Серия: Сезон <2026>")
    await expect(series).to_have_attribute("href", f"/series/{season.series_id}?lang=ru")
    raven = page.locator("table.board[data-unit=players]").get_by_role(
        "link", name=f"Ворон {HOSTILE}", exact=True
    )
    await expect(raven).to_have_attribute("href", f"/players/{season.raven}?lang=ru")
    await raven.click()
    await page.wait_for_url(f"**/players/{season.raven}?lang=ru")
    await expect(page.locator("svg.rating-chart")).to_be_visible(timeout=WAIT_MS)
    # His club's page, by the link under his nickname.
    await page.locator("header .meta").get_by_role("link", name="Ворон").click()
    await expect(page.locator("h1")).to_have_text("Клуб «Ворон»")
    members = page.locator("table.season-board tbody tr")
    await expect(members).to_have_count(10)
    await _fits(page)
    shown.assert_no_console_errors()


async def test_a_hidden_profile_and_unknown_pages(season: Season, browser: HeadlessBrowser) -> None:
    await season.app.services.profiles.hide_profile(Actor.of(RAVEN, _now(), ()), True)
    shown = await browser.new_page(width=375, height=812)
    await shown.goto(f"{season.url}/players/{season.raven}")
    page = shown.page
    await expect(page.locator("h1")).to_have_text(f"Ворон {HOSTILE}")
    await expect(page.locator("main")).to_have_text("Игрок скрыл свой профиль.")
    assert await page.locator("svg").count() == 0
    await shown.goto(f"{season.url}/series/{season.series_id}")
    row = page.locator(f"tr[data-person='{season.raven}']")
    await expect(row).to_have_class("hidden-profile")
    assert await row.get_by_role("link").count() == 0
    await expect(row.locator("td.name").first).to_have_text(f"Ворон {HOSTILE}")
    shown.assert_no_console_errors()
    # A 404 is a console error of its own: another page reads them.
    lost = (await browser.new_page(width=375, height=812)).page
    for path in ("/players/999999", "/players/abc", "/series/0", "/clubs/%00nope"):
        response = await lost.goto(season.url + path)
        assert response is not None and response.status == 404, path
        await expect(lost.locator("h1")).to_have_text("Страница не найдена")
