"""The live game's pages in Debian's headless Chromium against the running bot, fed by the
judge's Mini App API: the public page on a phone follows each action live without a reload
and never shows a role; the stream's 1920×1080 overlay shows the roles over a transparent
background and, once delayed, the game as it was; the hall screen shows a final's table live."""

from __future__ import annotations

from datetime import timedelta

from playwright.async_api import expect

from bench.bench_live_game import GAME, StoredLog, serve, third_day_log
from domain.actor import Actor
from domain.game_log import Entry, Foul, Phase
from harness.simulation.live_game import LiveGameClient
from tests.browser.conftest import HeadlessBrowser
from tests.e2e.conftest import fake_telegram
from tests.e2e.test_live_game_pages import _until
from tests.e2e.test_miniapp_api import Tables, tables
from tests.factories import NOW, ORGANIZER
from tests.operations import free_port

__all__ = ["fake_telegram", "tables"]
WAIT_MS = 120_000


async def test_the_live_page_follows_the_judge_and_the_stream_shows_roles_with_its_delay(
    tables: Tables, browser: HeadlessBrowser
) -> None:
    tid, game = tables.seeded.tournament.id, tables.games[0]
    organizer = Actor(ORGANIZER, NOW)
    await tables.app.services.live_tables.open_stream(organizer, game, "overlay")
    await tables.app.services.live_tables.set_stream_delay(organizer, game, 0)
    client = LiveGameClient(tables.base_url, game, tables.judges[0].web_app_data())
    await client.get()
    for action in _until(Phase.SPEECHES):
        status, view = await client.act(action)
        assert status == 200, view

    phone = await browser.new_page(width=375, height=812)
    await phone.goto(f"{tables.base_url}/t/{tid}/games/{game}/live")
    await expect(phone.page.locator("#stage")).to_have_text("День 1: речи")
    overlay = await browser.new_page(width=1920, height=1080)
    await overlay.goto(f"{tables.base_url}/t/{tid}/games/{game}/stream/overlay")
    roles = overlay.page.locator("td.role")
    await expect(roles.nth(9)).to_have_text("дон")
    # A phone's width holds the whole table: nothing scrolls sideways.
    width = await phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    assert await phone.page.locator("td.role").count() == 0
    public = (await phone.page.inner_text("main")).lower()
    assert all(word not in public for word in ("шериф", "мафия", "дон ", "мирный"))
    # The overlay lies over the stream's picture: its page has no background of its own.
    background = await overlay.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgba(0, 0, 0, 0)"

    # The judge's tap reaches both open pages without a reload.
    status, view = await client.act(Foul(4))
    assert status == 200, view
    fouls = "tbody tr:nth-child(4) td.fouls"
    await expect(phone.page.locator(fouls)).to_have_text("1", timeout=WAIT_MS)
    await expect(overlay.page.locator(fouls)).to_have_text("1", timeout=WAIT_MS)

    # An hour's delay: the overlay shows the game as it was then (not begun), the public
    # page the game as it is.
    await tables.app.services.live_tables.set_stream_delay(organizer, game, 3600)
    await expect(overlay.page.locator("#stage")).to_have_text(
        "Игра ещё не началась", timeout=WAIT_MS
    )
    await expect(phone.page.locator("#stage")).to_have_text("День 1: речи")
    # Revoked: the overlay empties itself.
    await tables.app.services.live_tables.revoke_stream(organizer, game)
    await expect(overlay.page.locator("#stage")).to_have_count(0, timeout=WAIT_MS)
    phone.assert_no_console_errors()
    # What the closed link answers now (404) is all the overlay's console may show.
    errors = [e for e in overlay.console_errors if "404" not in e and "event-stream" not in e]
    assert errors == []
    await client.close()


async def test_the_hall_screen_shows_a_finals_table_live(browser: HeadlessBrowser) -> None:
    # The bench's game in memory: a final's one table in its third day.
    log = StoredLog(third_day_log())
    port = free_port()
    runner, watch = await serve(port, log)
    try:
        hall = await browser.new_page(width=1920, height=1080)
        await hall.goto(f"http://127.0.0.1:{port}/t/1/hall")
        game = hall.page.locator("#hall-game .live-game")
        await expect(game.locator("#stage")).to_have_text("День 3: речи", timeout=WAIT_MS)
        fouls = game.locator("tbody tr:nth-child(3) td.fouls")
        before = await fouls.inner_text()
        log.entries.append(Entry(Foul(3), log.entries[-1].at + timedelta(seconds=1), 1))
        watch.changed([GAME])
        await expect(fouls).to_have_text(str(int(before or 0) + 1), timeout=WAIT_MS)
        hall.assert_no_console_errors()
    finally:
        await runner.cleanup()
