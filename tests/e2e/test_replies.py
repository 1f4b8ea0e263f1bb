"""Direct replies under Telegram's flood limits and faults: every reply delivered, in order; a
wizard moves on only once its question was delivered; an apology never answers a press twice."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Router
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup

from bot.app import Application
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import WAIT, answer, current, press
from tests.e2e.lifecycle_screens import ADMIN_ID, consulted_first


def _settings(fake: FakeTelegram, tmp_path):  # type: ignore[no-untyped-def]
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    return sandbox_settings(fake, url, admin_ids=frozenset({ADMIN_ID}))


@pytest.fixture
async def limited() -> AsyncIterator[FakeTelegram]:
    """A fake Telegram enforcing the real flood limits (one message a second per person)."""
    fake = FakeTelegram(enforce_limits=True)
    await fake.start()
    yield fake
    await fake.stop()


# The one end-to-end test at Telegram's own pace (the others' bots keep wider limits: see
# tests/conftest.py's FAST_PACE).
@pytest.mark.telegram_pace
async def test_eight_messages_within_a_second_get_eight_replies_in_order_within_the_limits(
    limited: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    async with running_bot(_settings(limited, tmp_path)):
        anna = limited.user(301, "Анна")
        for _ in range(4):
            anna.send("/start")
            anna.send("/lang")
        replies = [await anna.wait_for(timeout=WAIT) for _ in range(8)]
        await limited.wait_idle(timeout=WAIT)
    assert [("Привет" in (r.text or ""), bool(r.buttons)) for r in replies] == [
        (True, False),
        (False, True),
    ] * 4
    assert len([m for m in anna.messages if m.from_bot]) == 8
    # Eight replies to one person within a second would break the limit of one a second:
    # the bot keeps it itself (the outbox's limiter), so Telegram never refused one.
    assert not [r for r in limited.stats.requests if r.status == 429]


async def test_a_wizard_question_lost_to_a_429_or_a_5xx_is_sent_again(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    asked = await answer(admin, "/new", "Новый турнир")
    fake_telegram.inject(ADMIN_ID, 429, retry_after=1)
    await press(admin, asked, "Кубок Чёрного Ворона", "Название турнира")
    fake_telegram.inject(ADMIN_ID, 502, description="Bad Gateway", times=2)
    await answer(admin, "Ворон", "Город")
    # The next answer lands on the step whose question the person saw.
    await answer(admin, "Омск", "Место")
    statuses = [r.status for r in fake_telegram.stats.requests]
    assert (statuses.count(429), statuses.count(502)) == (1, 2)


async def test_a_wizard_does_not_move_on_when_its_question_was_not_delivered(
    admin_app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    asked = await answer(admin, "/new", "Новый турнир")
    await press(admin, asked, "Кубок Чёрного Ворона", "Название турнира")
    # The city question and the apology both fail for good (not a fault worth retrying).
    fake_telegram.inject(ADMIN_ID, 400, description="Bad Request: chat not found", times=2)
    admin.send("Ворон")
    # The apology waits for its place in the person's limit (a second after the question).
    await fake_telegram.wait_idle(quiet=1.5, timeout=WAIT)
    # Still on the title: the retyped title is taken and the city asked.
    await answer(admin, "Ворон", "Город")
    await answer(admin, "Омск", "Место")


def _answering_then_failing() -> Router:
    router = Router(name="fails-after-answering")

    @router.callback_query()
    async def fail(callback: CallbackQuery) -> None:
        await callback.answer("принято")
        raise RuntimeError("a fault after the press was answered")

    return router


@pytest.fixture
def failing_app(admin_app: Application) -> Application:
    return consulted_first(admin_app, _answering_then_failing())


async def test_the_apology_after_an_answered_press_comes_as_a_message(
    failing_app: Application, fake_telegram: FakeTelegram
) -> None:
    anna = fake_telegram.user(301, "Анна")
    anna.send("/start")
    await anna.wait_for(timeout=WAIT)
    markup = InlineKeyboardMarkup(
        inline_keyboard=[[InlineKeyboardButton(text="Жми", callback_data="x:1")]]
    )
    shown = await failing_app.bot.send_message(anna.id, "Кнопка", reply_markup=markup)
    message = next(m for m in anna.messages if m.message_id == shown.message_id)
    pressed = await anna.press(message, button_text="Жми").answer(WAIT)
    apology = await anna.wait_for(lambda m: "Что-то пошло не так" in (m.text or ""), WAIT)
    assert pressed.text == "принято"
    assert apology.from_bot
    failed_answers = [
        r for r in fake_telegram.stats.requests if r.method.lower() == "answercallbackquery"
    ]
    assert [r.status for r in failed_answers] == [200]


async def test_a_press_whose_screen_waits_out_a_429_is_answered_before_it_waits(
    fake_telegram: FakeTelegram, cup_card: ChatMessage
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    seen = len(fake_telegram.stats.requests)
    fake_telegram.inject(ADMIN_ID, 429, retry_after=3)
    await admin.press(cup_card, button_text="Игроки").answer(WAIT)
    await fake_telegram.wait_idle(timeout=WAIT)
    calls = [
        (r.method.lower(), r.status)
        for r in fake_telegram.stats.requests[seen:]
        if r.method.lower() in ("editmessagetext", "answercallbackquery")
    ]
    # The spinner stopped at once; the screen came once Telegram's pause was over.
    assert calls == [
        ("editmessagetext", 429),
        ("answercallbackquery", 200),
        ("editmessagetext", 200),
    ]
    assert "все: 0" in (current(admin, cup_card).text or "")


def _open_client_sessions() -> list[aiohttp.ClientSession]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, aiohttp.ClientSession) and not o.closed]


async def test_a_stop_lets_the_update_being_handled_finish_and_leaves_no_session_open(
    fake_telegram: FakeTelegram, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    async with running_bot(_settings(fake_telegram, tmp_path)):
        anna = fake_telegram.user(301, "Анна")
        anna.send("/start")
        await anna.wait_for(timeout=WAIT)
        fake_telegram.inject(301, 429, retry_after=2)
        anna.send("/help")
        async with asyncio.timeout(WAIT):  # the reply met the 429 and waits it out
            while not [r for r in fake_telegram.stats.requests if r.status == 429]:
                await asyncio.sleep(0.05)
    # The stop waited for the reply: it came through the bot's own session, now closed (a
    # call after the close would have opened another that nobody closes).
    await anna.wait_for(timeout=WAIT)
    assert len([m for m in anna.messages if m.from_bot]) == 2
    assert _open_client_sessions() == []
