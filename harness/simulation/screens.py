"""Driving the bot's screens as a person does: typing, pressing buttons, reading the answers.

The simulation's scripted people and the end-to-end tests share these helpers; every step goes
through the fake Telegram over HTTP, exactly as a person's client would.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from harness.fake_telegram import CallbackAnswer, ChatMessage, FakeTelegram, FakeUser

# How long a scripted person waits for the bot: generous, as a loaded run answers slower.
WAIT = 120.0
LINK = re.compile(r"https://t\.me/[A-Za-z0-9_]+\?start=([A-Za-z0-9_-]+)")

Predicate = Callable[[ChatMessage], bool]


def payload_in(message: ChatMessage) -> str:
    """The `/start` payload of the first deep link a message shows."""
    match = LINK.search(message.text or "")
    if match is None:
        raise LookupError(f"no deep link in {message.text!r}")
    return match.group(1)


def containing(text: str) -> Predicate:
    """A predicate: the message shows `text`."""
    return lambda message: text in (message.text or "")


def with_button(text: str) -> Predicate:
    """A predicate: the message has a button labelled `text`."""
    return lambda message: any(label == text for row in message.buttons for label, _ in row)


async def answer(
    user: FakeUser, text: str, expect: str | None = None, timeout: float = WAIT
) -> ChatMessage:
    """Send a text and wait for the bot's reply (the one showing `expect`, if given)."""
    user.send(text)
    return await user.wait_for(containing(expect) if expect else None, timeout)


async def press(
    user: FakeUser,
    message: ChatMessage,
    button: str,
    expect: str | None = None,
    timeout: float = WAIT,
) -> ChatMessage:
    """Press a button and wait for the screen it leads to."""
    await user.press(message, button_text=button).answer(timeout)
    return await user.wait_for(containing(expect) if expect else None, timeout)


def current(user: FakeUser, message: ChatMessage) -> ChatMessage:
    """The message as the person's chat shows it now (after the bot's edits)."""
    return next(m for m in user.messages if m.message_id == message.message_id)


async def create_tournament(
    fake: FakeTelegram,
    organizer: FakeUser,
    title: str,
    capacity: int,
    channel_username: str,
    channel_id: int,
    preset_button: str | None = None,
    regulation_file: bytes | None = None,
    quota: str | None = None,
    create: bool = True,
    starts_on: date | None = None,
) -> ChatMessage:
    """Walk the creation wizard by buttons and typed answers; return the tournament card (or,
    not to `create` it, the wizard's summary).

    The regulation is a preset's button or an uploaded file; the channel is created in the fake
    Telegram with the bot as its admin before the organizer names it. The tournament's first
    day is `starts_on` (a month ahead of today by default).
    """
    asked = await answer(organizer, "/new", "Новый турнир")
    if regulation_file is not None:
        organizer.send_document("regulation.json", regulation_file, mime_type="application/json")
        await organizer.wait_for(containing("Название турнира"), WAIT)
    else:
        await press(organizer, asked, preset_button or "", "Название турнира")
    await answer(organizer, title, "Город")
    await answer(organizer, "Омск", "Место проведения")
    await answer(organizer, "Клуб «Ворон»", "Даты")
    # The wizard refuses past dates: the tournament is planned a month ahead of today.
    start = starts_on or (datetime.now(UTC) + timedelta(days=30)).date()
    end = start + timedelta(days=1)
    asked = await answer(organizer, f"{start:%d.%m.%Y}-{end:%d.%m.%Y}", "Часовой пояс")
    asked = await press(organizer, asked, "Москва (МСК)", "Расписание")
    asked = await press(organizer, asked, "Оставить расписание регламента", "Сколько игроков")
    asked = await answer(organizer, str(capacity), "До какого момента")
    asked = await press(organizer, asked, "Без срока (закрою сам)", "отмечаются о прибытии")
    asked = await press(organizer, asked, "Без срока (неявки отмечу сам)", "Взнос")
    fee = next(label for row in asked.buttons for label, _ in row)
    asked = await press(organizer, asked, fee, "Квота")
    if quota is None:
        asked = await press(organizer, asked, "Без квоты", "Канал турнира")
    else:
        asked = await answer(organizer, quota, "Канал турнира")
    fake.channel(channel_id, title, username=channel_username)
    summary = await answer(organizer, f"@{channel_username}", "Проверьте турнир")
    if not create:
        return summary
    return await press(organizer, summary, "Создать турнир", "Ссылка регистрации")


async def register_player(
    player: FakeUser,
    payload: str,
    nickname: str,
    club: str,
    city: str = "Омск",
    expect: str = "Вы зарегистрированы",
) -> ChatMessage:
    """Open a registration link, type nickname, club and city, confirm by button."""
    summary = await registration_summary(player, payload, nickname, club, city)
    return await press(player, summary, "Всё верно", expect)


async def registration_summary(
    player: FakeUser, payload: str, nickname: str, club: str, city: str
) -> ChatMessage:
    """Open a registration link and type nickname, club and city; the summary to confirm."""
    await answer(player, f"/start {payload}", "игровой ник")
    await answer(player, nickname, "Ваш клуб")
    await answer(player, club, "Ваш город")
    return await answer(player, city, "Проверьте")


class ProtocolScreen:
    """The protocol message in someone's chat, pressed button by button."""

    def __init__(self, user: FakeUser, message: ChatMessage) -> None:
        self.user, self.chat_id, self.message_id = user, message.chat_id, message.message_id

    @property
    def message(self) -> ChatMessage:
        return next(m for m in self.user.messages if m.message_id == self.message_id)

    @property
    def text(self) -> str:
        return self.message.text or ""

    def buttons(self) -> list[tuple[str, str | None]]:
        return [button for row in self.message.buttons for button in row]

    def find(self, name: str) -> str:
        """The callback data of the button named `name` (a seat number names its seat)."""
        buttons = [(text, data) for text, data in self.buttons() if data is not None]
        # An exact label first: "Победа" is the mode, not the tool "Победа красных".
        for text, data in buttons:
            if text in (name, f"• {name} •"):
                return data
        for text, data in buttons:
            if text.startswith(f"{name} "):
                return data
        raise LookupError(f"no button {name!r}: {self.buttons()}")

    async def tap(
        self, name: str, by: FakeUser | None = None, timeout: float = WAIT
    ) -> CallbackAnswer:
        presser = by or self.user
        return await presser.press(self.message, callback_data=self.find(name)).answer(timeout)
