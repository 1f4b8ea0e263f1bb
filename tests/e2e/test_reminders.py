"""Reminders through the real bot and the fake Telegram on a test clock: the organizer sets the
timetable on its screen, a round reminder reaches each player once across restarts, and a
deadline closes registration with nobody touching the tournament."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import FixedClock
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.lifecycle import Move, Refusal
from domain.tournament import TournamentState
from handlers.callbacks import CardOpen
from harness.fake_telegram import ChatMessage, FakeTelegram
from harness.fake_telegram.people import FakeUser
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import current
from tests.factories import NOW, ORGANIZER, Seeded, seed_tournament
from tests.integration.test_reminders import GAME_DAY, timetable_text

# Game 1 at 12:00 in Omsk on the game day: its players hear of it at 05:45 UTC.
REMINDED = datetime(2026, 12, 21, 5, 45, tzinfo=UTC)


@pytest.fixture
def clock() -> FixedClock:
    """The bot's clock (its handlers' and its reminder scheduler's), moved by the test."""
    return FixedClock(NOW)


async def _started(fake: FakeTelegram, telegram_id: int, name: str) -> FakeUser:
    person = fake.user(telegram_id, name)
    person.send("/start")
    await person.wait_for()
    return person


async def _on_game_day(
    uow_factory: SqlUnitOfWorkFactory, seeded: Seeded, **changes: object
) -> None:
    async with uow_factory() as uow:
        tournament = await uow.tournaments.get(seeded.tournament.id)
        assert tournament is not None
        await uow.tournaments.save(replace(tournament, starts_on=GAME_DAY, **changes))  # type: ignore[arg-type]
        await uow.commit()


async def _timetable_screen(
    uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram
) -> tuple[Seeded, FakeUser, ChatMessage]:
    """A tournament on its game day, and its organizer on its timetable screen."""
    seeded = await seed_tournament(uow_factory, channel=None)
    await _on_game_day(uow_factory, seeded)
    organizer = await _started(fake, ORGANIZER, "Организатор")
    organizer.send("/tournaments")
    listed = await organizer.wait_for(lambda m: "Ваши турниры" in (m.text or ""))
    await organizer.press(listed, callback_data=CardOpen(tournament_id=seeded.tournament.id).pack())
    card = await organizer.wait_for(lambda m: "Расписание и напоминания" in str(m.buttons))
    await organizer.press(card, button_text="Расписание и напоминания")
    screen = await organizer.wait_for(lambda m: "Расписание · Кубок Ворона" in (m.text or ""))
    return seeded, organizer, screen


def _reminders(fake: FakeTelegram, chat_id: int) -> list[str]:
    return [
        message.text or ""
        for message in fake.messages(chat_id)
        if message.from_bot and "тур 1 в" in (message.text or "")
    ]


async def test_a_round_reminder_reaches_each_player_once_across_restarts(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: FixedClock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded, organizer, screen = await _timetable_screen(app.uow_factory, fake_telegram)
        assert "как в регламенте" in (screen.text or "")
        assert "Напоминаний в очереди нет" in (screen.text or "")
        organizer.send(timetable_text().replace("12:00 game", "25:00 game", 1))
        refused = await organizer.wait_for()
        assert "не подходит к регламенту" in (refused.text or "")
        assert "HH:MM" in (refused.text or "")
        organizer.send(timetable_text())
        saved = await organizer.wait_for(lambda m: "Расписание сохранено" in (m.text or ""))
        assert "день 1 · 12:00 · игра, Отборочные игры" in (saved.text or "")

        players = {
            p.id: await _started(fake_telegram, p.user_id or 0, p.nickname) for p in seeded.players
        }
        tid = seeded.tournament.id
        await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), tid, seed=5, swaps=20_000
        )
        preview = await app.services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, 1)
        first = preview.stage.rounds[0]
        for game in first.games:
            for player in game.players:
                await players[player].wait_for(lambda m: "Тур 1 (12:00)" in (m.text or ""))
        assert all(_reminders(fake_telegram, p.user_id or 0) == [] for p in seeded.players)

    # The bot is down when the reminders fall due; the next one sends them at start-up.
    clock.moment = REMINDED + timedelta(minutes=1)
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        for game in first.games:
            judge = f"U{game.judge_id}"
            for seat, player in enumerate(game.players, start=1):
                expected = f"тур 1 в 12:00, стол {game.table}, место {seat}, судья {judge}."
                message = await players[player].wait_for(lambda m: "тур 1 в" in (m.text or ""))
                assert (message.text or "").endswith(expected)

    # Restarted again: nothing is waiting and nobody hears it twice.
    async with (
        running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app,
        app.uow_factory() as uow,
    ):
        assert await uow.outbox.waiting(100) == []
    for player in seeded.players:
        assert len(_reminders(fake_telegram, player.user_id or 0)) == 1


async def test_the_deadline_closes_registration_with_nobody_touching_the_tournament(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: FixedClock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    first_deadline = NOW + timedelta(hours=1)
    second_deadline = NOW + timedelta(hours=2)
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        organizer = await _started(fake_telegram, ORGANIZER, "Организатор")
        tournaments = []
        for deadline in (first_deadline, second_deadline):
            seeded = await seed_tournament(app.uow_factory, players=0, channel=None)
            await _on_game_day(
                app.uow_factory,
                seeded,
                state=TournamentState.DRAFT,
                current_stage=None,
                venue="Клуб",
                capacity=30,
                registration_deadline=deadline,
            )
            tournaments.append(seeded.tournament.id)
        clock.moment = first_deadline - timedelta(seconds=1)
        for tid in tournaments:
            opened = await app.services.tournaments.move_tournament(
                Actor(ORGANIZER, clock.now()), tid, Move.OPEN_REGISTRATION
            )
            assert not isinstance(opened, Refusal)
        # Time passes; nobody presses anything.
        clock.moment = first_deadline
        told = await organizer.wait_for(lambda m: "срок регистрации истёк" in (m.text or ""))
        assert "регистрация закрыта" in (told.text or "")
        states = await _states(app.uow_factory, tournaments)
        assert states == [TournamentState.REGISTRATION_CLOSED, TournamentState.REGISTRATION_OPEN]

    # The second deadline passes while the bot is down: it closes at start-up.
    clock.moment = second_deadline + timedelta(minutes=5)
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        await organizer.wait_for(lambda m: "срок регистрации истёк" in (m.text or ""))
        assert await _states(app.uow_factory, tournaments) == [
            TournamentState.REGISTRATION_CLOSED,
            TournamentState.REGISTRATION_CLOSED,
        ]


async def _states(
    uow_factory: SqlUnitOfWorkFactory, tournament_ids: list[int]
) -> list[TournamentState]:
    # Read as stored: loading a tournament through a use case would close it on the way.
    async with uow_factory() as uow:
        stored = [await uow.tournaments.get(tid) for tid in tournament_ids]
    return [tournament.state for tournament in stored if tournament is not None]


async def test_the_organizer_sets_an_events_time_by_buttons(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: FixedClock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        _, organizer, screen = await _timetable_screen(app.uow_factory, fake_telegram)
        # The cup's timetable has no times: the first game gets one in three taps.
        event = next(label for row in screen.buttons for label, _ in row if "игра" in label)
        await organizer.press(screen, button_text=event).answer(120)
        picking = current(organizer, screen)
        assert "выберите час" in (picking.text or "")
        await organizer.press(picking, button_text="12:…").answer(120)
        quarters = current(organizer, screen)
        await organizer.press(quarters, button_text="12:30").answer(120)
        saved = current(organizer, screen)
        # A double tap (the quarters' copy pressed again) saves the same and edits nothing.
        twice = next(data for row in quarters.buttons for label, data in row if label == "12:30")
        again = await organizer.forge_press(quarters, twice).answer(120)
        assert again.text == "Расписание сохранено, напоминания пересчитаны."
        # Another event's index, an hour off the picker, an unknown act: out of date.
        tid = twice.split(":")[1]
        for forged in (f"tt:{tid}:ev:99:0", f"tt:{tid}:hr:0:3", f"tt:{tid}:zz:0:0"):
            stale = await organizer.forge_press(saved, forged).answer(120)
            assert stale.text == "Эта кнопка устарела: экран уже изменился. Откройте его заново."
        await fake_telegram.wait_idle()
        assert current(organizer, screen) == saved
        edits = [r for r in fake_telegram.stats.requests if r.method.lower().startswith("edit")]
        assert [r.status for r in edits if r.status != 200] == []
        assert "Расписание сохранено" in (saved.text or "")
        assert "изменено организатором" in (saved.text or "")
        day = event.split(" · ")[0]
        assert f"{day} · 12:30 · игра" in (saved.text or "")
