"""A published round reaches the channel at any number of tables, and a message the outbox
cannot put together reaches the organizer as an error, not only the log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain.actor import Actor
from domain.outgoing import OutgoingMessage, Phrase
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing
from tests.factories import (
    CHANNEL,
    NOW,
    ORGANIZER,
    long_nicknames,
    seed_tournament,
)

# Enough of the seating search for a fair stage in a fraction of a second.
SWAPS = 200
TIMEOUT = 120.0
_SEAT = re.compile(r"^\d+\. (.+)$")
_TABLE = re.compile(r"^Стол (\d+) · ")
_ROUND_1 = re.compile(r"^Рассадка · .+ · тур 1\b")


@pytest.mark.parametrize("tables", [30, 50])
async def test_a_round_of_many_tables_is_posted_whole_to_the_channel(
    fake_telegram: FakeTelegram, tmp_path: Path, tables: int
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    organizer.send("/start")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory, players=tables * 10, judges=tables)
        tournament = seeded.tournament.id
        await long_nicknames(app.uow_factory, tournament)
        await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), tournament, seed=3, swaps=SWAPS
        )
        await app.services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tournament, 1)
        last = await channel.wait_for(containing(f"\nСтол {tables} · "), TIMEOUT)
        posts = [m.text or "" for m in channel.messages if _ROUND_1.match(m.text or "")]
        assert last.text in posts and len(posts) > 1
        # Every table once, in order, with its ten seats; nobody is told of a failure.
        lines = [line for text in posts for line in text.splitlines()]
        numbers = [int(m.group(1)) for line in lines if (m := _TABLE.match(line))]
        assert numbers == list(range(1, tables + 1))
        seats = [m.group(1) for line in lines if (m := _SEAT.match(line))]
        assert len(seats) == tables * 10 == len(set(seats))
        assert not [m for m in organizer.messages if "не отправлено" in (m.text or "")]


async def test_a_message_that_cannot_be_put_together_is_reported_to_the_organizer(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    organizer.send("/start")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory, players=10, judges=1)
        async with app.uow_factory() as uow:
            # A phrase without one of its arguments: Fluent cannot render it.
            broken = Phrase.of("delivery-failed", tournament="Кубок Ворона")
            await uow.outbox.add(
                OutgoingMessage(chat_id=CHANNEL, phrase=broken, tournament_id=seeded.tournament.id)
            )
            await uow.commit()
        told = await organizer.wait_for(containing("не отправлено"), TIMEOUT)
        assert "в канал турнира" in (told.text or "") and "Причина:" in (told.text or "")
        assert not [m for m in channel.messages if m.from_bot]
