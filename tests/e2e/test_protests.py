"""Protests through the real bot and the fake Telegram: the player's button and reason, the
chief judge's decision after a restart, a stranger's press and a late press on a test clock."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import FixedClock
from domain.actor import Actor
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.people import FakeUser
from harness.sandbox import running_bot, sandbox_settings
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    NOW,
    ORGANIZER,
    seed_tournament,
)
from tests.integration.test_protocols import Judge

CLOSES = NOW + timedelta(minutes=10)


async def _started(fake: FakeTelegram, telegram_id: int, name: str) -> FakeUser:
    person = fake.user(telegram_id, name)
    person.send("/start")
    await person.wait_for()
    return person


@pytest.fixture
def clock() -> FixedClock:
    """The bot's clock, standing at the last second of the game's protest window."""
    return FixedClock(CLOSES - timedelta(seconds=1))


async def test_a_protest_filed_by_buttons_survives_a_restart_and_is_rejected(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: FixedClock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory)
        preview = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), seeded.tournament.id, seed=3, swaps=20_000
        )
        game = preview.stage.rounds[0].games[0]
        assert game.judge_id is not None
        protester = await _started(fake_telegram, seeded.user_of(game.players[0]), "Игрок")
        latecomer = await _started(fake_telegram, seeded.user_of(game.players[1]), "Второй")
        chief = await _started(fake_telegram, CHIEF_JUDGE, "Главный судья")
        await app.services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1
        )
        judge = Judge(app.services, game.id, game.judge_id)
        await judge.fill_red_win()
        await judge.confirm()
        offer = await protester.wait_for(lambda m: "Протест" in str(m.buttons))
        assert "до 18:10" in (offer.text or "") and "Ваши баллы: 2,3" in (offer.text or "")
        # A stranger pressing the player's button is refused and files nothing.
        stranger = fake_telegram.user(seeded.judges[1], "Судья")
        refused = await stranger.press(offer, button_text="Протест")
        assert refused.show_alert and "только игрок этой игры" in (refused.text or "")
        # At the window's last second the protest is taken.
        await protester.press(offer, button_text="Протест")
        await protester.wait_for(lambda m: "Напишите, в чём суть протеста" in (m.text or ""))
        protester.send("Судья не засчитал фол игроку 3")
        await protester.wait_for(lambda m: "Протест принят" in (m.text or ""))
        card = await chief.wait_for(lambda m: "Протест · Кубок Ворона" in (m.text or ""))
        assert "Суть: Судья не засчитал фол игроку 3" in (card.text or "")
        assert "победа красных" in (card.text or "")
        # Each seat's points the Russian way: the first killed's 2,3, no "2.3".
        assert " — 2,3\n" in (card.text or "") and "2.3" not in (card.text or "")
        # One second later the second player's press is refused with the closing time.
        late_offer = await latecomer.wait_for(lambda m: "Протест" in str(m.buttons))
        clock.moment = CLOSES
        late = await latecomer.press(late_offer, button_text="Протест")
        assert late.show_alert and "истекло в 18:10" in (late.text or "")
        latecomer.send("/protest")
        await latecomer.wait_for(lambda m: "нет игр" in (m.text or ""))

    # A restart while the protest is pending: a new application on the same database.
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        board = await app.services.protests_organizer.audit_log(
            Actor(ORGANIZER, CLOSES), seeded.tournament.id
        )
        assert len(board.entries) == 1
        await chief.press(card, button_text="Отклонить")
        await chief.wait_for(lambda m: "решение об отклонении" in (m.text or ""))
        chief.send("Фол зафиксирован верно")
        await chief.wait_for(lambda m: "Протест отклонён" in (m.text or ""))
        told = await protester.wait_for(lambda m: "отклонил протест" in (m.text or ""))
        assert "Фол зафиксирован верно" in (told.text or "")
        # A second press on the decided protest changes nothing and says why.
        again = await chief.press(card, button_text="Удовлетворить и исправить протокол")
        assert again.show_alert and "решение уже принято" in (again.text or "")


async def test_the_organizer_reads_the_audit_log_and_switches_protests_off(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: FixedClock
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory, channel=None)
        organizer = await _started(fake_telegram, ORGANIZER, "Организатор")
        organizer.send("/audit")
        screen = await organizer.wait_for(lambda m: "Журнал турнира" in (m.text or ""))
        assert "в течение 10 мин" in (screen.text or "")
        await organizer.press(screen, button_text="Протесты: выкл")
        switched = await organizer.wait_for(lambda m: "не принимаются" in (m.text or ""))
        assert "настройка протестов" in (switched.text or "")
        await organizer.press(switched, button_text="Выгрузить журнал (CSV)")
        document = await organizer.wait_for(lambda m: m.document is not None)
        assert document.document is not None
        settings = await app.services.protests_organizer.protest_settings(
            Actor(ORGANIZER, NOW), seeded.tournament.id
        )
        assert settings.minutes is None
