"""The channel's pinned table follows the page's visibility: after each switch on the
organizer's card it links the public page (which opens), and an unlisted or closed page not
at all: never the unlisted link's token, never an address that answers 404."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import aiohttp

from bot.web import serving
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import answer, press
from tests.e2e.test_standings_push import _confirm_red_win, pinned_live_table, published_round
from tests.factories import CHANNEL, ORGANIZER
from tests.operations import free_port

WAIT_SECONDS = 120.0


async def _pinned_when(fake: FakeTelegram, linked: Callable[[str], bool]) -> str:
    """The pinned table's text once it shows what `linked` wants (the bot's edit is sent
    after the press is answered); the last text seen when it never does."""
    text = ""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(WAIT_SECONDS):
            while not linked(text := (await pinned_live_table(fake)).text or ""):
                await asyncio.sleep(0.05)
    return text


async def test_the_pinned_table_links_only_a_public_page_after_each_switch(
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
    fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(settings) as app, serving(app), aiohttp.ClientSession() as http:
        tournament, (first, _second) = await published_round(app, fake_telegram)
        assert first.judge_id is not None
        await _confirm_red_win(fake_telegram.user(first.judge_id, "Судья"), 1)
        live = await pinned_live_table(fake_telegram)
        assert (live.text or "").split()[-1] == f"{base}/t/{tournament}"

        organizer = fake_telegram.user(ORGANIZER, "Орг")
        listing = await answer(organizer, "/tournaments", "Ваши турниры")
        (title,) = [text for row in listing.buttons for text, _ in row if "Кубок" in text]
        card = await press(organizer, listing, title, "Страница турнира для зрителей")
        # The card's one button steps the page public -> unlisted -> off -> public.
        steps = [
            ("Веб-страница: только по ссылке", "только по этой ссылке", False),
            ("Веб-страница: выключить", "выключена", False),
            ("Веб-страница: сделать открытой", "для зрителей: http", True),
            ("Веб-страница: только по ссылке", "только по этой ссылке", False),
        ]
        page = f"{base}/t/{tournament}"
        for button, shown, public in steps:
            card = await press(organizer, card, button, shown)
            async with app.uow_factory() as uow:
                stored = await uow.tournaments.get(tournament)
            assert stored is not None
            text = await _pinned_when(
                fake_telegram,
                lambda t, public=public: t.split()[-1:] == [page] if public else base not in t,
            )
            assert "сыграно игр: 1" in text, button
            if stored.web_token:
                assert stored.web_token not in text, button
            if public:
                assert text.split()[-1] == page, f"{button}: the table has no link"
                async with http.get(page) as response:
                    assert response.status == 200, button
            else:
                assert base not in text, f"{button}: the table still links {text.split()[-1]}"
