"""A 60-player team tournament (20 teams of 3) run through the real bot and the fake Telegram.

Registered by deep links and buttons, with a full waiting list, a club quota hit, a late
withdrawal and its promotion, a no-show replaced by a substitute, and forbidden actions tried by
the wrong roles.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.app import Application
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import register_player
from tests.e2e.lifecycle_screens import (
    ADMIN_ID,
    answer,
    containing,
    create_tournament,
    payload_in,
    press,
)

TEAMS, SIZE = 20, 3
CLUB_QUOTA = 6
CLUBS = [f"Клуб {n}" for n in range(10)]


@pytest.fixture
async def app(fake_telegram: FakeTelegram, tmp_path) -> AsyncIterator[Application]:  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = sandbox_settings(fake_telegram, url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings) as application:
        yield application


async def captain_and_crew(
    fake: FakeTelegram, payload: str, team: int
) -> tuple[list[FakeUser], ChatMessage]:
    """A captain registers, creates his team and two members join by its link."""
    club = CLUBS[team % len(CLUBS)]
    people = [fake.user(1000 + team * 10 + seat, f"Игрок {team}-{seat}") for seat in range(SIZE)]
    mine = await register_player(people[0], payload, f"Капитан <{team}>", club)
    asked = await press(people[0], mine, "Создать команду", "Название команды")
    view = await answer(people[0], f"Команда {team}", "Ссылка для игроков команды")
    link = payload_in(view)
    for seat in (1, 2):
        await register_player(people[seat], link, f"Игрок {team}-{seat}", club, expect="Команда")
    assert asked is not None
    return people, view


async def test_sixty_players_in_twenty_teams_from_links_to_the_first_stage(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Организатор")
    card = await create_tournament(fake_telegram, admin, quota=str(CLUB_QUOTA))
    card = await press(admin, card, "Открыть регистрацию", "регистрация открыта")
    payload = payload_in(card)

    teams: list[tuple[list[FakeUser], ChatMessage]] = []
    for first in range(0, TEAMS, 5):
        teams += await asyncio.gather(
            *(captain_and_crew(fake_telegram, payload, team) for team in range(first, first + 5))
        )
    card = await press(admin, card, "Обновить", "Игроки: 60")
    assert "полных: 20" in (card.text or "")

    # A full tournament: three more wait; a fourth from a full club hits the quota.
    spares = [fake_telegram.user(5000 + n, f"Запасной {n}") for n in range(3)]
    for number, spare in enumerate(spares):
        await register_player(
            spare, payload, f"Запасной {number}", "Запас", expect="листе ожидания"
        )
    late = fake_telegram.user(5100, "Опоздавший")
    await answer(late, f"/start {payload}", "игровой ник")
    await answer(late, "Опоздавший", "Ваш клуб")
    await answer(late, CLUBS[0], "Ваш город")
    summary = await answer(late, "Омск", "Проверьте")
    quota = await late.press(summary, button_text="Всё верно").answer()
    assert quota.text == f"Квота клуба «{CLUBS[0]}» ({CLUB_QUOTA}) уже заполнена."

    # A late withdrawal frees a place: the first waiting player moves up and is told.
    leaver = teams[19][0][2]
    mine = await answer(leaver, f"/start {payload}", "Статус: зарегистрирован")
    sure = await press(leaver, mine, "Сняться с турнира", "Точно сняться")
    await press(leaver, sure, "Да, сняться", "Вы сняты с турнира")
    await spares[0].wait_for(containing("Освободилось место"))
    await answer(spares[0], f"/start {payload_in(teams[19][1])}", "Команда 19")

    # Forbidden: a player presses the organizer's buttons; a table judge marks a no-show.
    forged = await teams[0][0][1].press(card, button_text="Закрыть регистрацию").answer()
    assert forged.text == "У вас нет прав на это действие."
    invite = await press(admin, card, "Пригласить судью стола", "судьи стола")
    judge = fake_telegram.user(900, "Судья")
    await answer(judge, f"/start {payload_in(invite)}", "судья (ведущий) стола")
    roster = await press(admin, card, "Игроки", "все: 63")
    assert "Капитан &lt;0&gt;" not in (roster.text or "") and "Капитан <0>" in (roster.text or "")
    person = await press(admin, roster, "Капитан <0>", "Капитан <0>")
    no_show_forged = await judge.press(person, button_text="Не пришёл").answer()
    assert no_show_forged.text == "У вас нет прав на это действие."
    roster = await press(admin, person, "« К списку", "все: 63")
    card = await press(admin, roster, "« К карточке турнира", "Ссылка регистрации")

    # The tournament day: everyone but one checks in; the missing one is replaced.
    card = await press(admin, card, "Закрыть регистрацию", "регистрация закрыта")
    called = await admin.press(card, button_text="Позвать отметиться").answer()
    assert called.text == "Позвали отметиться: 60."
    missing = teams[4][0][1]
    for crew, _ in teams:
        for player in crew:
            if player is not missing and player is not leaver:
                call = await player.wait_for(containing("подтвердите, что вы на месте"))
                await press(player, call, "Я на месте", "Отметка о прибытии принята")
    call = await spares[0].wait_for(containing("подтвердите, что вы на месте"))
    await press(spares[0], call, "Я на месте", "Отметка о прибытии принята")

    screen = await press(admin, card, "Отметка о прибытии", "не отметились: 1")
    person = await press(admin, screen, "Игрок 4-1", "Игрок 4-1")
    person = await press(admin, person, "Не пришёл", "не пришёл")
    roster = await press(admin, person, "« К списку", "все: 63")
    card = await press(admin, roster, "« К карточке турнира", "Ссылка регистрации")
    # A team short of a player: the card does not offer the start and says why.
    assert "Начать следующий этап" not in str(card.buttons)
    assert "пока недоступен: Неполные команды (в команде 3 игрока): Команда 4." in (card.text or "")
    screen = await press(admin, card, "Отметка о прибытии", "места для замены: 1")
    person = await press(admin, screen, "Игрок 4-1", "Игрок 4-1")
    choose = await press(admin, person, "Замена", "Кто заменит")
    await press(admin, choose, "Запасной 1", "Запасной 1 — замена")
    await spares[1].wait_for(containing("Вы — замена за Игрок 4-1"))

    card = await answer(admin, "/tournaments", "Ваши турниры")
    card = await press(admin, card, "Кубок <Сибири> · регистрация закрыта", "Ссылка регистрации")
    started = await press(admin, card, "Начать следующий этап", "идёт этап 1")
    assert "полных: 20" in (started.text or "")

    # After the start a team may not withdraw.
    captain, view = teams[7]
    sure = await press(captain[0], view, "Снять команду с турнира", "Снять команду?")
    after_start = await captain[0].press(sure, button_text="Да, снять команду").answer()
    assert after_start.text == "По регламенту команда не может сняться после начала турнира."
