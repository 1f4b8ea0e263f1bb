"""An accepted protest through the real bot and the fake Telegram: the chief judge accepts,
corrects the protocol on the same protocol screen, the protester and the table judge are
told, the channel says the result changed and its live table is edited."""

from __future__ import annotations

from pathlib import Path

from domain.actor import Actor
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.people import FakeUser
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.test_protocol import Screen
from tests.e2e.test_standings_push import _confirm_red_win, _live_edits
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    NOW,
    ORGANIZER,
    seed_tournament,
)


async def _started(fake: FakeTelegram, telegram_id: int, name: str) -> FakeUser:
    person = fake.user(telegram_id, name)
    person.send("/start")
    await person.wait_for()
    return person


async def test_an_accepted_protest_corrects_the_protocol_and_the_channel_follows(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory)
        preview = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), seeded.tournament.id, seed=3, swaps=20_000
        )
        game = preview.stage.rounds[0].games[0]
        assert game.judge_id is not None
        judge = await _started(fake_telegram, game.judge_id, "Судья")
        protester = await _started(fake_telegram, seeded.user_of(game.players[0]), "Игрок")
        chief = await _started(fake_telegram, CHIEF_JUDGE, "Главный судья")
        await app.services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1
        )
        await _confirm_red_win(judge, 1)
        live = await channel.wait_for(lambda m: "сыграно игр: 1" in (m.text or ""))
        assert "2,3*" in (live.text or "")

        offer = await protester.wait_for(lambda m: "Протест" in str(m.buttons))
        await protester.press(offer, button_text="Протест")
        await protester.wait_for(lambda m: "Напишите, в чём суть протеста" in (m.text or ""))
        protester.send("Победили чёрные: судья перепутал итог")
        await protester.wait_for(lambda m: "Протест принят" in (m.text or ""))
        card = await chief.wait_for(lambda m: "Протест · Кубок Ворона" in (m.text or ""))
        await chief.press(card, button_text="Удовлетворить и исправить протокол")
        await chief.wait_for(lambda m: "решение об удовлетворении" in (m.text or ""))
        chief.send("Итог игры записан неверно")
        await chief.wait_for(lambda m: "Протест удовлетворён" in (m.text or ""))
        accepted = await protester.wait_for(lambda m: "удовлетворил протест" in (m.text or ""))
        assert "Итог игры записан неверно" in (accepted.text or "")

        shown = await chief.wait_for(
            lambda m: "Исправление подтверждённого протокола" in (m.text or "")
        )
        correction = Screen(chief, shown)
        await correction.tap("Победа")
        await correction.tap("Победа чёрных")
        await correction.tap("Сводка")
        saved = await correction.tap("✅ Подтвердить протокол")
        assert saved.text == "Исправление сохранено."

        for person in (protester, judge):
            told = await person.wait_for(lambda m: "исправлен по протесту" in (m.text or ""))
            assert "Итог игры записан неверно" in (told.text or "")
        corrected = "Исправлен результат · Отборочные игры · тур 1"
        await channel.wait_for(lambda m: corrected in (m.text or ""))
        edited = await channel.wait_for(lambda m: "сыграно игр: 1" in (m.text or ""))
        assert edited.message_id == live.message_id and edited.edited
        # Black won after all: the red sheriff's 2.3 is gone from the table.
        assert "2,3" not in (edited.text or "")
        assert _live_edits(fake_telegram, live.message_id) == 1
