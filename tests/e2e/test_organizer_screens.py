"""The organizer's wizard, card and guarded moves through the real bot and the fake Telegram."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import Application
from domain.lifecycle import Move
from handlers.callbacks import MoveChoice
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import current
from tests.e2e.lifecycle_screens import (
    ADMIN_ID,
    answer,
    containing,
    create_tournament,
    payload_in,
    press,
)


@pytest.fixture
async def app(fake_telegram: FakeTelegram, tmp_path) -> AsyncIterator[Application]:  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = sandbox_settings(fake_telegram, url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings) as application:
        yield application


async def test_wizard_refuses_bad_answers_and_a_channel_without_rights(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    asked = await answer(admin, "/new", "Новый турнир")
    await press(admin, asked, "Кубок Чёрного Ворона", "Название турнира")
    await answer(admin, "x", "от 2 до 128 символов")
    await answer(admin, "Ворон", "Город")
    await answer(admin, "Омск", "Место")
    await answer(admin, "Клуб", "Даты")
    await answer(admin, "01.01.2020", "уже прошла")
    zones = await answer(admin, "31.12.2099", "Часовой пояс")
    await answer(admin, "Mars/Base", "Не знаю такого")
    # The zone by a button with the city's name; a forged zone changes nothing.
    labels = [label for row in zones.buttons for label, _ in row]
    assert "Калининград (МСК−1)" in labels and "Владивосток (МСК+7)" in labels
    forged = await admin.forge_press(zones, "wk:timezone:mars").answer(120)
    assert "устарела" in (forged.text or "")
    asked = await press(admin, zones, "Омск (МСК+3)", "Расписание")
    # The regulation's timetable in the reader's words, no internal names.
    assert "игра, Отборочные игры" in (asked.text or "")
    assert "game" not in (asked.text or "") and "qualifying" not in (asked.text or "")
    asked = await press(admin, asked, "Оставить расписание регламента", "Сколько игроков")
    await answer(admin, "5", "Нужно целое число от 10")
    asked = await answer(admin, "20", "До какого момента")
    asked = await press(admin, asked, "Без срока (закрою сам)", "отмечаются о прибытии")
    await answer(admin, "в полдень", "ДД.ММ.ГГГГ")
    await answer(admin, "01.01.2100 10:00", "не позже дня турнира")
    await answer(admin, "31.12.2099 10:00", "Взнос")
    await answer(admin, "-3", "не меньше 0")
    asked = await answer(admin, "0", "Квота")
    asked = await press(admin, asked, "Без квоты", "Канал")
    await answer(admin, "@nowhere", "Не нашёл канал")
    fake_telegram.channel(-1009, "Без прав", username="muted_cup", can_post=False)
    await answer(admin, "@muted_cup", "нет права публиковать")
    fake_telegram.channel(-1008, "Чужой", username="foreign_cup", bot_is_admin=False)
    await answer(admin, "@foreign_cup", "не администратор")
    fake_telegram.channel(-1007, "Ворон", username="raven_cup")
    summary = await answer(admin, "@raven_cup", "Проверьте турнир")
    # The channel posts in the organizer's language unless he switches it here.
    assert "язык канала: Русский" in (summary.text or "")
    assert "(Омск (МСК+3))" in (summary.text or "") and "Asia/Omsk" not in (summary.text or "")
    await admin.press(summary, button_text="Канал на языке: English").answer(60)
    summary = current(admin, summary)
    assert "язык канала: English" in (summary.text or "")
    card = await press(admin, summary, "Создать турнир", "Ссылка регистрации")
    assert "черновик" in (card.text or "")
    # The card names the channel by its @username, not its number.
    assert "канал: @raven_cup" in (card.text or "") and "-1007" not in (card.text or "")
    async with app.uow_factory() as uow:
        (tournament,) = await uow.tournaments.of_person(ADMIN_ID)
    assert (tournament.locale, tournament.channel_name) == ("en", "@raven_cup")
    assert tournament.timezone == "Asia/Omsk"
    assert "отметка о прибытии до: 31.12.2099 10:00" in (card.text or "")


async def test_a_stranger_can_neither_create_nor_move_a_tournament(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    card = await create_tournament(fake_telegram, admin)
    assert "&lt;Сибири&gt;" not in (card.text or "") and "Кубок <Сибири>" in (card.text or "")
    stranger = fake_telegram.user(66, "Чужой")
    await answer(stranger, "/new", "Попросите администратора бота ссылку /organizer")
    answer_ = await stranger.press(card, button_text="Открыть регистрацию").answer()
    assert answer_.text == "У вас нет прав на это действие."
    opened = await press(admin, card, "Открыть регистрацию", "регистрация открыта")
    assert payload_in(opened).startswith("r")
    stale = await admin.press(card, button_text="Открыть регистрацию").answer()
    assert stale.text == "Сейчас (регистрация открыта) так нельзя."
    closed = await press(admin, opened, "Закрыть регистрацию", "регистрация закрыта")
    # No players: the card does not offer the first stage and says why; a forged or old press
    # is refused with the same reason.
    assert "Начать следующий этап" not in str(closed.buttons)
    reason = "Игроков 0, а нужно 60: 6 столов по 10 игроков."  # 6 tables in siberia-ural-teams
    assert reason in (closed.text or "")
    async with app.uow_factory() as uow:
        (tournament,) = await uow.tournaments.of_person(ADMIN_ID)
    start = MoveChoice(tournament_id=tournament.id, move=Move.START_STAGE).pack()
    too_few = await admin.forge_press(closed, start).answer()
    assert too_few.text == reason
    assert containing("Игроки: 0")(closed)


async def test_the_english_wizard_names_zones_and_events_in_english(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Org", language_code="en")
    asked = await answer(admin, "/new", "New tournament")
    await press(admin, asked, "Black Raven Cup", "tournament's name")
    await answer(admin, "Raven", "City")
    await answer(admin, "Omsk", "Venue")
    await answer(admin, "Club", "Dates")
    zones = await answer(admin, "31.12.2099", "time zone")
    labels = [label for row in zones.buttons for label, _ in row]
    assert "Moscow (MSK)" in labels and "Kaliningrad (MSK−1)" in labels
    asked = await press(admin, zones, "Novosibirsk (MSK+4)", "timetable")
    assert "game, Qualifying" in (asked.text or "")
    assert "qualifying" not in (asked.text or "")
