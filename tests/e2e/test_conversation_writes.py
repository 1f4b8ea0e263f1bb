"""A wizard's step through the real Dispatcher, on SQLite and on PostgreSQL: what it writes to
the conversation costs one transaction at the update's end, and the next update reads it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiogram.types import Update

from bot.app import Application
from bot.db.transactions import counting
from bot.fake_telegram import FakeTelegram
from bot.sandbox import running_bot, sandbox_settings
from bot.simulation.screens import register_player
from tests.e2e.lifecycle_screens import ADMIN_ID, create_tournament, payload_in, press


@pytest.fixture
async def app(fake_telegram: FakeTelegram, database_url: str) -> AsyncIterator[Application]:
    settings = sandbox_settings(fake_telegram, database_url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings) as application:
        yield application


def typed_answers(app: Application) -> list[tuple[str, int]]:
    """From now on, each typed answer (a message that is no command) the bot handles and the
    transactions its handling began, in order."""
    answers: list[tuple[str, int]] = []
    feed_update = app.dispatcher.feed_update

    async def counted(bot: Any, update: Update, **kwargs: Any) -> Any:
        with counting() as tally:
            try:
                return await feed_update(bot, update, **kwargs)
            finally:
                text = update.message.text if update.message else None
                if text is not None and not text.startswith("/"):
                    answers.append((text, tally.transactions))

    app.dispatcher.feed_update = counted  # type: ignore[method-assign]
    return answers


async def test_a_wizards_step_reads_the_state_and_stores_its_answer_in_two_transactions(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    answers = typed_answers(app)
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    card = await create_tournament(fake_telegram, admin)
    card = await press(admin, card, "Открыть регистрацию", "регистрация открыта")
    player = fake_telegram.user(501, "Анна")
    done = await register_player(player, payload_in(card), "Ворон", "Клуб «Ворон»", "Томск")
    # Each step read the answers the step before stored: the summary and the registration
    # show them all.
    assert "Ворон" in (done.text or "")
    async with app.uow_factory() as uow:
        (participant,) = await uow.participants.of_tournament(1)
    assert (participant.nickname, participant.club, participant.city) == (
        "Ворон",
        "Клуб «Ворон»",
        "Томск",
    )
    # The organizer's wizard (title, city, venue, dates, capacity, channel) and the player's
    # (nickname, club, city): the state's read (with the sender) and the answer's store.
    assert len(answers) == 9
    assert all(transactions <= 2 for _, transactions in answers), answers
