"""Every press answered: stale and forged buttons say they are out of date and change nothing,
long work is answered at once and shows its progress, a press that changes nothing edits
nothing; an uploaded regulation nested thousands of levels deep is refused with a message."""

from __future__ import annotations

import pytest

from bot.app import Application
from harness.fake_telegram import WAIT_LIMIT, ChatMessage, FakeTelegram
from harness.simulation.screens import answer, create_tournament, current, press
from tests.e2e.lifecycle_screens import ADMIN_ID

OUT_OF_DATE = "Эта кнопка устарела: экран уже изменился. Откройте его заново."


def _failed(fake: FakeTelegram, method: str) -> list[int]:
    return [r.status for r in fake.stats.requests if r.method.lower() == method and r.status != 200]


async def test_the_wizards_old_preset_buttons_are_out_of_date_and_change_nothing(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    presets = await answer(admin, "/new", "Новый турнир")
    await press(admin, presets, "Кубок Чёрного Ворона", "Название турнира")
    stale = await admin.press(presets, button_text="Командный турнир Сибири и Урала")
    assert (stale.text, stale.show_alert) == (OUT_OF_DATE, True)
    # The wizard still waits for the title.
    await answer(admin, "Ворон", "Город")
    await answer(admin, "Омск", "Место")
    await answer(admin, "Клуб", "Даты")
    zone = await answer(admin, "30.12.2099-31.12.2099", "Часовой пояс")
    await press(admin, zone, "Москва (МСК)", "Расписание")
    again = await admin.press(zone, button_text="Москва (МСК)")
    assert again.text == OUT_OF_DATE
    # Still on the timetable: its own answer is taken.
    await answer(admin, "не расписание", "Строка 1")


@pytest.mark.parametrize(
    "data",
    [
        "tc:" + "9" * 23,
        "tc:-1",
        "mv:1:no_such_move",
        "pp:1:zz",
        "pp:1:m:0:" + "9" * 30,
        "st:1:view:0:0:" + "9" * 30,
        "rl:1:no_such_view:0",
        "?",
    ],
)
async def test_forged_buttons_are_answered_as_out_of_date(
    fake_telegram: FakeTelegram, cup_card: ChatMessage, data: str
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    before = current(admin, cup_card)
    forged = await admin.forge_press(cup_card, data).answer(WAIT_LIMIT)
    assert forged.text == OUT_OF_DATE
    await fake_telegram.wait_idle()
    assert current(admin, cup_card) == before


async def test_a_press_that_changes_nothing_edits_nothing(
    fake_telegram: FakeTelegram, cup_card: ChatMessage
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    roster = await press(admin, cup_card, "Игроки", "все: 0")
    for _ in range(2):  # the same page again, as a double tap sends it
        await admin.forge_press(roster, "rl:1:all:0").answer(WAIT_LIMIT)
    await fake_telegram.wait_idle()
    assert _failed(fake_telegram, "editmessagetext") == []
    assert not any("Что-то пошло не так" in (m.text or "") for m in admin.messages)
    # Each view of the list is a button of its own.
    await press(admin, roster, "лист ожидания", "лист ожидания: 0")


async def test_a_double_tap_on_the_wizards_language_switch_edits_the_summary_once(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    summary = await create_tournament(
        fake_telegram,
        admin,
        "Кубок",
        60,
        "cup_channel",
        -1001234567,
        preset_button="Командный турнир Сибири и Урала",
        create=False,
    )
    switch = next(data for row in summary.buttons for _, data in row if data.startswith("wl:"))
    for _ in range(2):  # the summary's first copy pressed twice
        await admin.forge_press(summary, switch).answer(WAIT_LIMIT)
    await fake_telegram.wait_idle()
    assert _failed(fake_telegram, "editmessagetext") == []
    assert not any("Что-то пошло не так" in (m.text or "") for m in admin.messages)
    switched = current(admin, summary)
    assert switched.text != summary.text
    await press(admin, switched, "Создать турнир", "Ссылка регистрации")


async def test_an_export_is_answered_at_once_and_shows_its_progress(
    fake_telegram: FakeTelegram, cup_card: ChatMessage
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    keyboard = current(admin, cup_card).buttons
    pressed = await admin.press(cup_card, button_text="Файл турнира").answer(WAIT_LIMIT)
    assert pressed.text == "⏳ Готовлю… Результат придёт следующим сообщением."
    working = await admin.wait_for(lambda m: m.message_id == cup_card.message_id)
    assert working.buttons == ((("⏳ Готовлю… Результат придёт следующим сообщением.", "wip"),),)
    sent = await admin.wait_for(lambda m: m.document is not None)
    assert sent.document is not None and sent.document.file_name == "tournament-1.json"
    await fake_telegram.wait_idle()
    assert current(admin, cup_card).buttons == keyboard


async def test_a_regulation_nested_thousands_of_levels_deep_is_refused_with_a_message(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    await answer(admin, "/new", "Новый турнир")
    admin.send_document("deep.json", b"[" * 50_000 + b"]" * 50_000, mime_type="application/json")
    refused = await admin.wait_for()
    assert "В файле регламента есть ошибки" in (refused.text or "")
    assert "nested deeper than 32 levels" in (refused.text or "")
    # Still asking for a regulation: a preset can be chosen now.
    presets = await answer(admin, "/new", "Новый турнир")
    await press(admin, presets, "Кубок Чёрного Ворона", "Название турнира")
