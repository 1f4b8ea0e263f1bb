"""Commands about one tournament need no number: the person's one tournament is taken, several
are offered as buttons (/lot, /audit; /rounds, /swap and /move are in test_rounds)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.app import Application
from bot.fake_telegram import ChatMessage, FakeTelegram
from bot.sandbox import running_bot, sandbox_settings
from bot.simulation.screens import containing, press
from tests.factories import CHIEF_JUDGE, ORGANIZER, seed_tournament


@pytest.fixture
async def app(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[Application]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url)) as application:
        yield application


async def _second_tournament(app: Application) -> None:
    """The same organizer and chief judge run "Кубок Сибири" beside "Кубок Ворона"."""
    second = await seed_tournament(app.uow_factory, players=10, judges=1)
    async with app.uow_factory() as uow:
        await uow.tournaments.save(replace(second.tournament, title="Кубок Сибири"))
        await uow.commit()


def _labels(message: ChatMessage) -> list[str]:
    return [label for row in message.buttons for label, _ in row]


async def test_lot_takes_the_one_tournament_and_offers_a_choice_of_two(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    await seed_tournament(app.uow_factory, players=10, judges=1)
    chief = fake_telegram.user(CHIEF_JUDGE, "Главный")
    chief.send("/lot")
    case = await chief.wait_for(containing("Жребий · Кубок Ворона"))
    assert "жребий не нужен" in (case.text or "")

    await _second_tournament(app)
    chief.send("/lot")
    choice = await chief.wait_for(containing("Жребий какого турнира?"))
    assert _labels(choice) == ["Кубок Сибири", "Кубок Ворона"]
    case = await press(chief, choice, "Кубок Сибири", "Жребий · Кубок Сибири")
    assert "жребий не нужен" in (case.text or "")


async def test_audit_offers_the_organizers_tournaments_as_buttons(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    await seed_tournament(app.uow_factory, players=10, judges=1)
    await _second_tournament(app)
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    organizer.send("/audit")
    choice = await organizer.wait_for(containing("Журнал какого турнира показать?"))
    assert sorted(_labels(choice)) == ["Кубок Ворона", "Кубок Сибири"]
    log = await press(organizer, choice, "Кубок Ворона", "Журнал турнира «Кубок Ворона»")
    assert "Кубок Сибири" not in (log.text or "")


async def test_standings_offer_a_choice_of_two_running_tournaments(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    await seed_tournament(app.uow_factory, players=10, judges=1)
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    organizer.send("/standings")
    await organizer.wait_for(containing("Турнирная таблица: Кубок Ворона"))

    await _second_tournament(app)
    organizer.send("/standings")
    choice = await organizer.wait_for(containing("Таблицу какого турнира показать?"))
    assert _labels(choice) == ["Кубок Сибири", "Кубок Ворона"]
    await organizer.press(choice, button_text="Кубок Сибири").answer()
    table = await organizer.wait_for(containing("Турнирная таблица: Кубок Сибири"))
    assert _labels(table)[:1] == ["Картинкой"]
