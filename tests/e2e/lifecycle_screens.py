"""Helpers (no tests here) driving the lifecycle screens through the fake Telegram."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from bot.fake_telegram import ChatMessage, FakeTelegram, FakeUser

ADMIN_ID = 1
LINK = re.compile(r"https://t\.me/[A-Za-z0-9_]+\?start=([A-Za-z0-9_-]+)")


def payload_in(message: ChatMessage) -> str:
    """The `/start` payload of the first deep link a message shows."""
    match = LINK.search(message.text or "")
    assert match is not None, message.text
    return match.group(1)


def containing(text: str):  # type: ignore[no-untyped-def]
    """A predicate: the message shows `text`."""
    return lambda message: text in (message.text or "")


async def answer(user: FakeUser, text: str, expect: str | None = None) -> ChatMessage:
    """Send a text and wait for the bot's reply (the one showing `expect`, if given)."""
    user.send(text)
    return await user.wait_for(containing(expect) if expect else None)


async def press(
    user: FakeUser, message: ChatMessage, button: str, expect: str | None = None
) -> ChatMessage:
    """Press a button and wait for the screen it leads to."""
    await user.press(message, button_text=button)
    return await user.wait_for(containing(expect) if expect else None)


async def create_tournament(
    fake: FakeTelegram,
    organizer: FakeUser,
    preset_button: str = "Командный турнир Сибири и Урала",
    capacity: int = 60,
    quota: str | None = None,
) -> ChatMessage:
    """Walk the creation wizard by buttons and typed answers; return the tournament card."""
    asked = await answer(organizer, "/new", "Новый турнир")
    asked = await press(organizer, asked, preset_button, "Название турнира")
    await answer(organizer, "Кубок <Сибири>", "Город")
    await answer(organizer, "Омск", "Место проведения")
    await answer(organizer, "Клуб «Ворон»", "Даты")
    start = (datetime.now(UTC) + timedelta(days=30)).date()
    end = start + timedelta(days=1)
    asked = await answer(organizer, f"{start:%d.%m.%Y}-{end:%d.%m.%Y}", "Часовой пояс")
    asked = await press(organizer, asked, "Оставить Europe/Moscow", "Расписание")
    asked = await press(organizer, asked, "Оставить расписание регламента", "Сколько игроков")
    asked = await answer(organizer, str(capacity), "До какого момента")
    asked = await press(organizer, asked, "Без срока (закрою сам)", "отмечаются о прибытии")
    asked = await press(organizer, asked, "Без срока (неявки отмечу сам)", "Взнос")
    asked = await press(organizer, asked, "Как в регламенте: 500", "Квота")
    if quota is None:
        asked = await press(organizer, asked, "Без квоты", "Канал турнира")
    else:
        asked = await answer(organizer, quota, "Канал турнира")
    fake.channel(-1001234567, "Кубок", username="cup_channel")
    summary = await answer(organizer, "@cup_channel", "Проверьте турнир")
    return await press(organizer, summary, "Создать турнир", "Ссылка регистрации")
