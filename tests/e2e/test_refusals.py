"""A refused request is answered with its reason by the one refusal handler, whichever handler
raised it: a typed message gets a message, a press an alert, a press answered already a
message under it; the press is answered once and no traceback is logged."""

from __future__ import annotations

import logging

import pytest
from aiogram import F, Router
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.app import Application
from domain.permissions import Action, Forbidden
from domain.services.access import NotFound
from domain.validation import Invalid
from harness.fake_telegram import FakeTelegram, FakeUser
from harness.simulation.screens import WAIT
from tests.e2e.lifecycle_screens import consulted_first


def _refusing() -> Router:
    router = Router(name="refusing")

    @router.message(F.text == "имя")
    async def refuse_text(message: Message) -> None:
        raise Invalid("team-name-taken", name="<Вороны>")

    @router.callback_query(F.data == "x:gone")
    async def refuse_press(callback: CallbackQuery) -> None:
        raise NotFound("game")

    @router.callback_query(F.data == "x:late")
    async def refuse_after_answering(callback: CallbackQuery) -> None:
        await callback.answer("принято")
        raise Forbidden(Action.EDIT_SETTINGS)

    return router


@pytest.fixture
def refusing_app(admin_app: Application) -> Application:
    return consulted_first(admin_app, _refusing())


async def _button(app: Application, person: FakeUser, data: str):  # type: ignore[no-untyped-def]
    person.send("/start")  # the bot may write to her from now on
    await person.wait_for(timeout=WAIT)
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Жми", callback_data=data)]]
    )
    shown = await app.bot.send_message(person.id, "Кнопка", reply_markup=markup)
    return next(m for m in person.messages if m.message_id == shown.message_id)


def _answers(fake: FakeTelegram) -> list[int]:
    return [r.status for r in fake.stats.requests if r.method.lower() == "answercallbackquery"]


async def test_a_typed_message_refused_gets_the_reason_with_the_typed_value_escaped(
    refusing_app: Application, fake_telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    anna = fake_telegram.user(301, "Анна")
    anna.send("имя")
    refused = await anna.wait_for(lambda m: "Вороны" in (m.text or ""), WAIT)
    assert "<Вороны>" in (refused.text or "")  # shown as typed, not taken for a tag
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_refused_press_gets_one_alert_with_the_reason(
    refusing_app: Application, fake_telegram: FakeTelegram, caplog: pytest.LogCaptureFixture
) -> None:
    anna = fake_telegram.user(301, "Анна")
    answer = await anna.press(await _button(refusing_app, anna, "x:gone"), "Жми").answer(WAIT)
    assert answer.show_alert
    assert "больше недоступно" in (answer.text or "")
    await fake_telegram.wait_idle(quiet=0.5, timeout=WAIT)
    assert _answers(fake_telegram) == [200]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_press_refused_after_it_was_answered_gets_the_reason_as_a_message(
    refusing_app: Application, fake_telegram: FakeTelegram
) -> None:
    anna = fake_telegram.user(301, "Анна")
    answer = await anna.press(await _button(refusing_app, anna, "x:late"), "Жми").answer(WAIT)
    refused = await anna.wait_for(lambda m: "нет прав" in (m.text or ""), WAIT)
    assert answer.text == "принято"
    assert refused.from_bot
    assert _answers(fake_telegram) == [200]
