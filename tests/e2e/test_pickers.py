"""Commands about one tournament need no number: the person's one tournament is taken, several
are offered as buttons (/lot, /audit, /standings; /protocol names each game's tournament when
the judge has several; /rounds, /swap and /move are in test_rounds)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.app import Application
from domain.actor import Actor
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing, press
from tests.factories import CHIEF_JUDGE, FIRST_JUDGE, NOW, ORGANIZER, seed_tournament


@pytest.fixture
async def app(fake_telegram: FakeTelegram, migrated_sqlite_url: str) -> AsyncIterator[Application]:
    async with running_bot(sandbox_settings(fake_telegram, migrated_sqlite_url)) as application:
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


async def test_a_judge_of_two_tournaments_reads_each_protocols_tournament_on_its_button(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    # One table judge (FIRST_JUDGE) in both: round 1 of each is published.
    await seed_tournament(app.uow_factory, players=10, judges=1)
    await _second_tournament(app)
    organizer = Actor(ORGANIZER, NOW)
    async with app.uow_factory() as uow:
        ids = [tournament.id for tournament in await uow.tournaments.of_person(ORGANIZER)]
    for tournament_id in ids:
        await app.services.rounds_seating.start_stage(organizer, tournament_id, seed=3, swaps=200)
        await app.services.rounds_publication.publish_round(organizer, tournament_id, 1)
    judge = fake_telegram.user(FIRST_JUDGE, "Судья")
    judge.send("/protocol")
    choice = await judge.wait_for(containing("Выберите протокол"))
    assert sorted(_labels(choice)) == [
        "Кубок Ворона · Тур 1 · стол 1",
        "Кубок Сибири · Тур 1 · стол 1",
    ]
    await judge.press(choice, button_text="Кубок Сибири · Тур 1 · стол 1").answer()
    await judge.wait_for(containing("Протокол · тур 1 · стол 1"))


async def test_the_tournament_list_names_the_running_stage(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    # Not "идёт этап 0": the list reads the stage as the card does, with its name.
    await seed_tournament(app.uow_factory, players=10, judges=1)
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    organizer.send("/tournaments")
    listing = await organizer.wait_for(containing("Ваши турниры"))
    assert _labels(listing) == ["Кубок Ворона · идёт этап 1 (Отборочные игры)"]
    card = await press(organizer, listing, _labels(listing)[0], "Ссылка регистрации")
    assert "Состояние: идёт этап 1 (Отборочные игры)" in (card.text or "")


async def test_me_offers_a_choice_to_a_player_of_two_running_tournaments(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    first = await seed_tournament(app.uow_factory, players=10, judges=1)
    player_id = first.players[0].user_id
    assert player_id is not None
    player = fake_telegram.user(player_id, "Игрок")
    player.send("/me")
    await player.wait_for(containing("— Кубок Ворона"))

    await _second_tournament(app)  # the same ten players registered there too
    player.send("/me")
    choice = await player.wait_for(containing("Ваши игры в каком турнире показать?"))
    assert _labels(choice) == ["Кубок Сибири", "Кубок Ворона"]
    await player.press(choice, button_text="Кубок Сибири").answer()
    card = await player.wait_for(containing("— Кубок Сибири"))
    assert "Игр ещё не было" in (card.text or "")
