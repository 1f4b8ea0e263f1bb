"""The organizer sets the tournament's public web page from its card: the card says where the
page is, and one button steps it through public, unlisted (by a link with a token) and off."""

from __future__ import annotations

import re

from bot.app import Application
from harness.fake_telegram import ChatMessage, FakeTelegram
from tests.e2e.lifecycle_screens import ADMIN_ID, press


async def test_the_card_steps_the_page_through_public_unlisted_and_off(
    admin_app: Application, fake_telegram: FakeTelegram, cup_card: ChatMessage
) -> None:
    organizer = fake_telegram.user(ADMIN_ID, "Орг")
    # A draft has no page yet, but its setting is already there.
    assert "Страница турнира для зрителей" in (cup_card.text or "")
    unlisted = await press(
        organizer, cup_card, "Веб-страница: только по ссылке", "открыта только по ссылке"
    )
    async with admin_app.uow_factory() as uow:
        tournament = await uow.tournaments.get(1)
    assert tournament is not None and tournament.web_token
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", tournament.web_token)
    off = await press(organizer, unlisted, "Веб-страница: выключить", "выключена")
    assert "Веб-страница: сделать открытой" in str(off.buttons)
    public = await press(organizer, off, "Веб-страница: сделать открытой", "для зрителей")
    async with admin_app.uow_factory() as uow:
        tournament = await uow.tournaments.get(1)
    assert tournament is not None and tournament.web_token is None
    assert "Веб-страница: только по ссылке" in str(public.buttons)
