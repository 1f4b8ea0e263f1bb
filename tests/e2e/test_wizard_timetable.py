"""The creation wizard's timetable step by buttons: an event's time changed, an event removed,
a new one added by its day, kind, stage and time, a timetable that breaks the regulation's
games per stage refused with the reason, and the timetable chosen stored with the tournament."""

from __future__ import annotations

from bot.app import Application
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.fake_telegram.people import FakeUser
from harness.simulation.screens import current
from tests.e2e.lifecycle_screens import ADMIN_ID, answer, press

TIMEOUT = 60.0


def labels(message: ChatMessage) -> list[str]:
    return [label for row in message.buttons for label, _ in row]


async def tap(user: FakeUser, message: ChatMessage, button: str) -> ChatMessage:
    """Press a button of the step's screen; the screen as it is then edited."""
    answered = await user.press(message, button_text=button).answer(TIMEOUT)
    assert not answered.show_alert, answered.text
    return current(user, message)


async def test_the_wizard_s_timetable_is_chosen_by_buttons(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    asked = await answer(admin, "/new", "Новый турнир")
    await press(admin, asked, "Кубок Чёрного Ворона", "Название турнира")
    await answer(admin, "Ворон", "Город")
    await answer(admin, "Омск", "Место")
    await answer(admin, "Клуб", "Даты")
    zones = await answer(admin, "31.12.2099", "Часовой пояс")
    step = await press(admin, zones, "Омск (МСК+3)", "Расписание")
    assert "день 1 · — · регистрация" in labels(step)
    assert "qualifying" not in (step.text or "") and "game" not in (step.text or "")

    # An event's time: the hour, then the quarter.
    screen = await tap(admin, step, "день 1 · — · регистрация")
    assert "Событие: день 1 · — · регистрация" in (screen.text or "")
    screen = await tap(admin, screen, "10:…")
    screen = await tap(admin, screen, "10:30")
    assert "день 1 · 10:30 · регистрация" in labels(screen)
    assert labels(screen).index("день 1 · 10:30 · регистрация") == 0  # kept in its place

    # An event removed, then a new one added by buttons: day, kind, time.
    screen = await tap(admin, screen, "день 2 · — · обед")
    screen = await tap(admin, screen, "Удалить событие")
    assert "день 2 · — · обед" not in labels(screen)
    screen = await tap(admin, screen, "➕ Добавить событие")
    screen = await tap(admin, screen, "День 2")
    assert "Новое событие, день 2" in (screen.text or "")
    screen = await tap(admin, screen, "обед")
    screen = await tap(admin, screen, "14:…")
    screen = await tap(admin, screen, "14:15")
    assert "день 2 · 14:15 · обед" in labels(screen)

    # One qualifying game less: "done" is refused with the reason, and nothing moves on.
    screen = await tap(admin, screen, "день 1 · — · игра, Отборочные игры")
    screen = await tap(admin, screen, "Удалить событие")
    refused = await admin.press(screen, button_text="✅ Готово").answer(TIMEOUT)
    assert (
        refused.show_alert
        and "Этап «Отборочные игры»: по регламенту 6 игр на игрока, а в расписании 5"
        in (refused.text or "")
    ), refused.text
    # The game back: its stage by name, no time.
    screen = await tap(admin, current(admin, screen), "➕ Добавить событие")
    screen = await tap(admin, screen, "День 1")
    screen = await tap(admin, screen, "игра")
    assert "Игры какого этапа?" in (screen.text or "")
    screen = await tap(admin, screen, "Отборочные игры")
    screen = await tap(admin, screen, "Без времени")
    asked = await press(admin, screen, "✅ Готово", "Сколько игроков")
    assert asked.message_id != screen.message_id

    asked = await answer(admin, "20", "До какого момента")
    asked = await press(admin, asked, "Без срока (закрою сам)", "отмечаются о прибытии")
    asked = await press(admin, asked, "Без срока (неявки отмечу сам)", "Взнос")
    asked = await answer(admin, "0", "Квота")
    asked = await press(admin, asked, "Без квоты", "Канал")
    summary = await press(admin, asked, "Без канала", "Проверьте турнир")
    await press(admin, summary, "Создать турнир", "Ссылка регистрации")
    async with admin_app.uow_factory() as uow:
        (tournament,) = await uow.tournaments.of_person(ADMIN_ID)
    plan = [(d.day, e.time, e.kind, e.stage) for d in tournament.timetable for e in d.events]
    assert plan[0] == (1, "10:30", "registration", None)
    assert (2, "14:15", "lunch", None) in plan and (2, None, "lunch", None) not in plan
    assert sum(1 for p in plan if p[3] == "qualifying" and p[2] == "game") == 6


async def test_an_english_organizer_picks_the_timetable_in_his_words(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Org", language_code="en")
    asked = await answer(admin, "/new", "tournament")
    await press(admin, asked, "Black Raven Cup", "name")
    await answer(admin, "Raven", "City")
    await answer(admin, "Omsk", "Venue")
    await answer(admin, "Club", "Dates")
    zones = await answer(admin, "31.12.2099", "time zone")
    step = await press(admin, zones, "Omsk (MSK+3)", "timetable")
    assert "day 1 · — · registration" in labels(step), labels(step)
    screen = await tap(admin, step, "➕ Add an event")
    screen = await tap(admin, screen, "Day 3")
    screen = await tap(admin, screen, "game")
    assert "Games of which stage?" in (screen.text or "")
    assert labels(screen)[:3] == ["Qualifying", "Semifinal", "Final"]
    screen = await tap(admin, screen, "Final")
    screen = await tap(admin, screen, "18:…")
    screen = await tap(admin, screen, "18:45")
    assert "day 3 · 18:45 · game, Final" in labels(screen), labels(screen)
    refused = await admin.press(screen, button_text="✅ Done").answer(TIMEOUT)
    assert refused.show_alert and "per player, the timetable plans 4" in (refused.text or "")
