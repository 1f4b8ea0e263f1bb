"""What spectators and the hall see first, in Debian's headless Chromium: a left page's event
stream ends quietly, the game tables fit a phone with the total in sight, the hall screen
shows the seating, the round, the time and a large QR code, and the page carries its link
preview's tags."""

from __future__ import annotations

import logging
import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import HeadlessBrowser
from tests.browser.test_public_pages import WAIT_MS, Site, site  # noqa: F401
from tests.e2e.test_standings import _confirm


async def test_a_left_pages_event_stream_ends_without_an_error(
    browser: HeadlessBrowser,
    site: Site,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    address = f"{site.url}/t/{site.tournament}"
    left = await browser.new_page()
    await left.goto(address)
    await expect(left.page.locator("#live-state")).to_be_visible(timeout=WAIT_MS)
    await left.page.close()
    staying = await browser.new_page()
    await staying.goto(address)
    await expect(staying.page.locator("#live-state")).to_be_visible(timeout=WAIT_MS)

    await _confirm(site.app, site.tournament, site.games[1], site.keys, "black")

    # The page still open hears of the change; the left one's stream woke at the same moment.
    await expect(staying.page.get_by_text("Сыграно игр: 2")).to_be_visible(timeout=WAIT_MS)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    staying.assert_no_console_errors()


async def test_game_tables_fit_a_phone_with_the_total_in_sight(
    browser: HeadlessBrowser,
    site: Site,  # noqa: F811
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    phone = await browser.new_page(width=375, height=812)
    for name, path in (("games", "/games"), ("player", f"/p/{site.keys[0]}")):
        await phone.goto(f"{site.url}/t/{site.tournament}{path}")
        table = phone.page.locator("table.protocol").first
        await expect(table).to_be_visible()
        overflow = await table.evaluate("t => t.scrollWidth - t.parentElement.clientWidth")
        assert overflow <= 0, f"{path}: the game table is {overflow} px wider than its box"
        total = table.locator("tbody tr td.points").first
        await expect(total).to_be_in_viewport(ratio=1)
        await phone.page.screenshot(path=str(tmp_path / f"{name}-375.png"), full_page=True)
    phone.assert_no_console_errors()


async def test_the_page_carries_its_link_previews_tags(
    browser: HeadlessBrowser,
    site: Site,  # noqa: F811
) -> None:
    page = await browser.new_page()
    await page.goto(f"{site.url}/t/{site.tournament}")

    async def tag(name: str) -> str | None:
        return await page.page.locator(f'meta[property="{name}"]').get_attribute("content")

    assert await tag("og:type") == "website"
    assert await tag("og:title") == await page.page.title()
    assert "Кубок Ворона" in (await tag("og:title") or "")
    assert "Турнирная таблица, рассадка и игры" in (await tag("og:description") or "")
    # The card leads to the tournament's page itself.
    url = await tag("og:url")
    assert url is not None and url.endswith(f"/t/{site.tournament}")
    page.assert_no_console_errors()


async def test_the_hall_screen_shows_the_seating_the_time_and_a_large_qr_code(
    browser: HeadlessBrowser,
    site: Site,  # noqa: F811
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    screen = await browser.new_page(width=1920, height=1080)
    await screen.goto(f"{site.url}/t/{site.tournament}/hall")
    # Round 1 is the only published round: its seating is what the hall looks for.
    seating = screen.page.locator("section.hall-round")
    await expect(
        seating.get_by_role("heading", name="Рассадка: Отборочные игры · тур 1")
    ).to_be_visible()
    await expect(seating.locator(".table-card")).to_have_count(1)
    await expect(seating.get_by_text("Стол 1")).to_be_visible()
    await expect(screen.page.locator("#clock")).to_have_text(re.compile(r"^\d{2}:\d{2}$"))
    qr = screen.page.locator(".qr img")
    box = await qr.bounding_box()
    assert box is not None and box["height"] >= 1080 / 3, box
    address = screen.page.locator(".qr .address")
    await expect(address).to_have_text(f"{site.url}/t/{site.tournament}")
    under = await address.bounding_box()
    assert under is not None and under["y"] >= box["y"] + box["height"]
    await screen.page.screenshot(path=str(tmp_path / "hall-1920.png"))
    phone = await browser.new_page(width=375, height=812)
    await phone.goto(f"{site.url}/t/{site.tournament}/hall")
    wide = await phone.page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wide <= 0, f"the hall screen scrolls sideways by {wide} px on a phone"
    await phone.page.screenshot(path=str(tmp_path / "hall-375.png"))
    screen.assert_no_console_errors()
    phone.assert_no_console_errors()
