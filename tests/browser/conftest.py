"""A real headless browser for the tests of the web pages and the Mini App.

Debian's Chromium (`/usr/bin/chromium`, installed by `scripts/ensure-services`, which
`make test` runs) driven through Playwright's Python package: no browser is downloaded.
`MAFIATOUR_CHROMIUM` points the tests at another Chromium binary. Where Chromium is missing
the tests fail, naming what to install; they never skip.

    async def test_page(browser_page: BrowserPage) -> None:
        await browser_page.goto(url)
        ...
        browser_page.assert_no_console_errors()

`browser_page` opens a 1280x800 page; `browser.new_page(width=375, height=812)` opens more, for
a phone or a hall screen. Every page records the console's errors, uncaught exceptions and
failed requests (a Content-Security-Policy refusal is one of them) in `console_errors`.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from playwright.async_api import Browser, ConsoleMessage, Error, Page, async_playwright

# The fake Telegram of the end-to-end tests, for browser tests of the running bot.
from tests.e2e.conftest import fake_telegram  # noqa: F401

CHROMIUM = os.environ.get("MAFIATOUR_CHROMIUM", "/usr/bin/chromium")
INSTALL_HINT = (
    "run scripts/ensure-services as root (it runs apt-get install chromium chromium-driver), "
    "or set MAFIATOUR_CHROMIUM to a Chromium binary"
)


def chromium_path() -> str:
    """The Chromium binary the tests drive; a loud failure when there is none."""
    found = shutil.which(CHROMIUM)
    if found is None:
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: {INSTALL_HINT}", pytrace=False)
    return found


@dataclass
class BrowserPage:
    """A browser page and what went wrong in it, as a person with the console open sees it."""

    page: Page
    console_errors: list[str] = field(default_factory=list)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location.get("url", "")
            self.console_errors.append(f"console: {message.text} ({where})")

    def _page_error(self, error: Error) -> None:
        self.console_errors.append(f"uncaught: {error.message}")

    def watch(self) -> BrowserPage:
        self.page.on("console", self._console)
        self.page.on("pageerror", self._page_error)
        return self

    async def goto(self, url: str) -> None:
        """Open `url`; a page answering with an error status fails the test."""
        response = await self.page.goto(url, wait_until="load")
        assert response is not None, f"no response from {url}"
        assert response.ok, f"{url} answered {response.status}"

    def assert_no_console_errors(self) -> None:
        assert not self.console_errors, "\n".join(self.console_errors)


class HeadlessBrowser:
    """One headless Chromium; each `new_page` has its own context (cookies, viewport)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser

    async def new_page(
        self, width: int = 1280, height: int = 800, locale: str = "ru-RU", **options: object
    ) -> BrowserPage:
        context = await self.browser.new_context(
            viewport={"width": width, "height": height}, locale=locale, **options
        )
        return BrowserPage(await context.new_page()).watch()


@pytest.fixture
async def browser() -> AsyncIterator[HeadlessBrowser]:
    """Debian's Chromium, headless, for one test."""
    executable = chromium_path()
    async with async_playwright() as playwright:
        try:
            launched = await playwright.chromium.launch(
                executable_path=executable,
                headless=True,
                args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
            )
        except Error as error:
            pytest.fail(f"Chromium at {executable} did not start: {error.message}", pytrace=False)
        try:
            yield HeadlessBrowser(launched)
        finally:
            await launched.close()


@pytest.fixture
async def browser_page(browser: HeadlessBrowser) -> BrowserPage:
    """A 1280x800 page of the headless browser, recording console errors."""
    return await browser.new_page()
