"""A wizard's step through the real Dispatcher, on SQLite and on PostgreSQL: what it writes to
the conversation costs one transaction at the update's end, and the next update reads it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from aiogram.types import Update
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.app import Application
from bot.db.transactions import Tally, counting
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import register_player
from tests.e2e.lifecycle_screens import ADMIN_ID, create_tournament, payload_in, press


@pytest.fixture
async def app(
    fake_telegram: FakeTelegram, database_url: str, engine: AsyncEngine
) -> AsyncIterator[Application]:
    """The bot on SQLite and on PostgreSQL, on a copy of the migrated template (`engine`'s
    database): it finds nothing to migrate at its start."""
    settings = sandbox_settings(fake_telegram, database_url, admin_ids=frozenset({ADMIN_ID}))
    async with running_bot(settings) as application:
        yield application


def count_updates(app: Application, handled: Callable[[Update, Tally], None]) -> None:
    """From now on, `handled(update, tally)` after the bot handled each update to its end (its
    replies come before that), with the transactions its handling began and its statements."""
    feed_update = app.dispatcher.feed_update

    async def counted(bot: Any, update: Update, **kwargs: Any) -> Any:
        with counting() as tally:
            try:
                return await feed_update(bot, update, **kwargs)
            finally:
                handled(update, tally)

    app.dispatcher.feed_update = counted  # type: ignore[method-assign]


def typed_answers(app: Application) -> list[tuple[str, int]]:
    """From now on, each typed answer (a message that is no command) the bot handles and the
    transactions its handling began, in order."""
    answers: list[tuple[str, int]] = []

    def handled(update: Update, tally: Tally) -> None:
        text = update.message.text if update.message else None
        if text is not None and not text.startswith("/"):
            answers.append((text, tally.transactions))

    count_updates(app, handled)
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


class ConfirmPresses:
    """From now on, the transactions each press of a registration summary's "Всё верно" began."""

    def __init__(self, app: Application) -> None:
        self.transactions: list[int] = []
        self._handled = asyncio.Event()
        count_updates(app, self._count)

    def _count(self, update: Update, tally: Tally) -> None:
        query = update.callback_query
        if query is not None and (query.data or "").endswith(":confirm"):
            self.transactions.append(tally.transactions)
            self._handled.set()

    async def handled(self) -> list[int]:
        """The presses counted, once one was handled to its end."""
        await asyncio.wait_for(self._handled.wait(), timeout=60)
        return self.transactions


async def test_the_confirm_press_registers_and_shows_the_registration_in_three_transactions(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    admin = fake_telegram.user(ADMIN_ID, "Орг")
    card = await create_tournament(fake_telegram, admin)
    card = await press(admin, card, "Открыть регистрацию", "регистрация открыта")
    presses = ConfirmPresses(app)
    player = fake_telegram.user(502, "Борис")
    done = await register_player(player, payload_in(card), "Сокол", "Клуб «Сокол»", "Омск")
    assert "Сокол" in (done.text or "") and "зарегистрирован" in (done.text or "")
    # The state's read (with the sender), the registration (it reads back what the screen
    # shows) and the conversation's clearing at the update's end.
    (transactions,) = await presses.handled()
    assert transactions <= 3


async def test_a_help_reads_the_state_the_sender_his_roles_and_his_menu_in_one_statement(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    """Once a person is stored and his menu set (his first /help does both), a /help reads in
    one statement (no BEGIN: `bot.db.engine.one_read`) the conversation state aiogram
    reads, the sender, what his roles are made of and the digest of the menu his chat shows."""
    helps: list[tuple[int, int]] = []

    def handled(update: Update, tally: Tally) -> None:
        if update.message is not None and update.message.text == "/help":
            helps.append((tally.transactions, tally.statements))

    admin = fake_telegram.user(ADMIN_ID, "Орг")
    await create_tournament(fake_telegram, admin)
    count_updates(app, handled)
    newcomer = fake_telegram.user(503, "Вера")
    shown = []
    for person in (admin, newcomer):
        for _ in range(2):
            person.send("/help")
            shown.append((await person.wait_for()).text or "")
    async with asyncio.timeout(60):
        while len(helps) < 4:
            await asyncio.sleep(0.01)
    # Each /help still shows the person's own roles.
    assert "Администратор" in shown[1] and "/new — создать турнир" in shown[1]
    assert "Ваш Telegram id: 503" in shown[3] and "/new — создать турнир" not in shown[3]
    for transactions, statements in (helps[1], helps[3]):
        assert transactions == 1 and statements == 1, helps
