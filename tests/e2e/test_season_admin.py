"""The season's admin and organizer screens through the running bot and the fake Telegram: a
series' points table sent as a file (an invalid one refused clearly, nothing changed), two
spellings of a club joined, /rating choosing among series by buttons, /help and the command
menus following the roles, and bad input answered without a change."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from bot.app import Application
from harness.fake_telegram import FakeTelegram
from tests.e2e.lifecycle_screens import ADMIN_ID, answer, containing, press
from tests.e2e.test_season import OUTSIDER, PLAYERS, RAVEN, add_cup, app, in_series, play

pytestmark = pytest.mark.e2e
__all__ = ["app"]  # the fixture, shared with the season's other screens

FIIM = Path(__file__).parents[2] / "domain" / "presets" / "series_points" / "fiim.json"


async def _series(fake: FakeTelegram, title: str) -> None:
    admin = fake.user(ADMIN_ID, "Админ", language_code="ru")
    await answer(admin, f"/series {title}", expect="создана")
    await admin.wait_for(containing("Турниров: 0"))


async def test_a_series_points_table_as_a_file_and_an_invalid_one_refused(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Админ", language_code="ru")
    await _series(fake_telegram, "Сезон 2026")
    listed = await answer(admin, "/series", expect="Серии турниров")
    screen = await press(admin, listed, "Сезон 2026", expect="Турниров: 0")
    asked = await press(admin, screen, "Загрузить таблицу баллов (файл)", expect="JSON")
    assert "/cancel" in (asked.text or "")
    # Not a file, then a file that is not a points table: refused, nothing stored.
    said = await answer(admin, "таблица", expect="Нужен файл")
    assert "документом" in (said.text or "")
    bad = {**json.loads(FIIM.read_text(encoding="utf-8")), "places": [10, 20, "много"]}
    admin.send_document("points.json", json.dumps(bad).encode())
    refused = await admin.wait_for(containing("не подходит"))
    assert "Таблица не изменена." in (refused.text or "")
    admin.send_document("points.bin", b"\xff\xfe\x00")
    await admin.wait_for(containing("не читается"))
    async with app.uow_factory() as uow:
        (series,) = await uow.season.all_series()
    assert series.points_table is None
    # The valid file is saved; the upload is over.
    admin.send_document("fiim.json", FIIM.read_bytes())
    saved = await admin.wait_for(containing("сохранена"))
    assert "«Сезон 2026»" in (saved.text or "")
    async with app.uow_factory() as uow:
        (series,) = await uow.season.all_series()
    assert series.points_table is not None


async def test_only_an_admin_creates_series_and_a_long_title_is_refused(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    outsider = fake_telegram.user(OUTSIDER, "Гость", language_code="ru")
    refused = await answer(outsider, "/series Мой сезон")
    assert refused.text == "У вас нет прав на это действие."
    admin = fake_telegram.user(ADMIN_ID, "Админ", language_code="ru")
    too_long = await answer(admin, "/series " + "Я" * 101, expect="не длиннее")
    assert "100" in (too_long.text or "")
    async with app.uow_factory() as uow:
        assert await uow.season.all_series() == []
    empty = await answer(admin, "/series", expect="Серий турниров пока нет")
    assert "/series Название" in (empty.text or "")


async def test_rating_picks_a_series_by_buttons_and_clubs_are_joined(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Админ", language_code="ru")
    await _series(fake_telegram, "Сезон 2026")
    await _series(fake_telegram, "Кубки клуба")
    cup = await add_cup(app, "Кубок Весны", date(2026, 3, 1))
    await in_series(admin, "Кубок Весны", "Сезон 2026")
    await play(app, cup, 0, "red")
    raven = fake_telegram.user(RAVEN, "Ворон", language_code="ru")
    choice = await answer(raven, "/rating", expect="Какой серии")
    assert [b for row in choice.buttons for b, _ in row] == ["Сезон 2026", "Кубки клуба"]
    table = await press(raven, choice, "Сезон 2026", expect="Рейтинг серии")
    assert "Ваше место:" in (table.text or "")
    clubs = await press(raven, table, "Клубы", expect="Клубы серии")
    assert "Ворон" in (clubs.text or "")
    # A spelling of the club joined to it by an organizer; a player may not.
    refused = await answer(raven, "/joinclubs Ворон = ВОРОН Омск")
    assert refused.text == "У вас нет прав на это действие."
    usage = await answer(admin, "/joinclubs Ворон", expect="Объединить написания")
    assert "=" in (usage.text or "")
    joined = await answer(admin, "/joinclubs Ворон = ВОРОН Омск", expect="Готово")
    assert "«ВОРОН Омск» теперь считается клубом «Ворон»" in (joined.text or "")
    view = await app.services.series.series_view(1)
    assert view.clubs[0].members == len(PLAYERS)


async def test_help_and_menus_follow_the_roles(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    outsider = fake_telegram.user(OUTSIDER, "Гость", language_code="ru")
    shown = await answer(outsider, "/help", expect="Сезон")
    assert "/profile" in (shown.text or "") and "/merge" not in (shown.text or "")
    admin = fake_telegram.user(ADMIN_ID, "Админ", language_code="ru")
    shown = await answer(admin, "/help", expect="Сезон")
    text = shown.text or ""
    assert "/merge" in text and "/joinclubs" in text and "/series Название" in text
    await fake_telegram.wait_idle()
    admins = fake_telegram.commands(scope={"type": "chat", "chat_id": ADMIN_ID})
    assert {"profile", "rating", "series", "merge", "joinclubs"} <= set(admins)
    everyone = fake_telegram.commands(scope={"type": "chat", "chat_id": OUTSIDER})
    assert {"profile", "rating"} <= set(everyone) and "merge" not in everyone
