"""The browser fixture itself: Debian's Chromium renders a page and reports its console."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web

from tests.browser.conftest import BrowserPage, HeadlessBrowser

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Проба</title>
<link rel="icon" href="data:,"><script src="/app.js" defer></script></head>
<body><p id="word">до</p></body></html>"""
SCRIPT = "document.getElementById('word').textContent = 'после';"


@pytest.fixture
async def site(unused_tcp_port: int) -> AsyncIterator[str]:
    async def page(_request: web.Request) -> web.Response:
        return web.Response(text=PAGE, content_type="text/html")

    async def script(_request: web.Request) -> web.Response:
        return web.Response(text=SCRIPT, content_type="text/javascript")

    async def broken(_request: web.Request) -> web.Response:
        body = PAGE.replace("/app.js", "/broken.js")
        return web.Response(text=body, content_type="text/html")

    async def broken_script(_request: web.Request) -> web.Response:
        text = "console.error('boom'); missing();"
        return web.Response(text=text, content_type="text/javascript")

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/app.js", script)
    app.router.add_get("/broken", broken)
    app.router.add_get("/broken.js", broken_script)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", unused_tcp_port).start()
    yield f"http://127.0.0.1:{unused_tcp_port}"
    await runner.cleanup()


async def test_the_page_runs_its_script(browser_page: BrowserPage, site: str) -> None:
    await browser_page.goto(site + "/")
    assert await browser_page.page.title() == "Проба"
    await browser_page.page.wait_for_function(
        "document.getElementById('word').textContent === 'после'"
    )
    browser_page.assert_no_console_errors()


async def test_console_errors_and_exceptions_are_caught(
    browser: HeadlessBrowser, site: str
) -> None:
    phone = await browser.new_page(width=375, height=812)
    await phone.goto(site + "/broken")
    await phone.page.wait_for_function("true")
    assert await phone.page.evaluate("window.innerWidth") == 375
    errors = "\n".join(phone.console_errors)
    assert "boom" in errors
    assert "missing" in errors
    with pytest.raises(AssertionError):
        phone.assert_no_console_errors()
