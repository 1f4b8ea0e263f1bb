"""Where the regulation counts the protest window from the end of the game (black-raven-cup
11.3), the protocol records the moment the judge entered the winner and the window runs from
there, however late the protocol is confirmed."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.clock import FixedClock
from domain.actor import Actor
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import ProtocolScreen, containing
from tests.e2e.test_protocol import fill_red_win
from tests.factories import CHANNEL, NOW, ORGANIZER, seed_tournament

TIMEOUT = 60.0


async def test_the_window_runs_from_the_winner_entered_not_from_the_confirmation(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    fake_telegram.channel(CHANNEL, "Кубок Ворона")
    clock = FixedClock(NOW)
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory)
        tid = seeded.tournament.id
        preview = await app.services.rounds_seating.start_stage(Actor(ORGANIZER, NOW), tid, seed=3)
        game = preview.stage.rounds[0].games[0]
        assert game.judge_id is not None
        judge = fake_telegram.user(game.judge_id, "Судья")
        player = fake_telegram.user(seeded.user_of(game.players[0]), "Игрок")
        for person in (judge, player):
            person.send("/start")
            await person.wait_for(None, TIMEOUT)
        await app.services.rounds_publication.publish_round(Actor(ORGANIZER, NOW), tid, 1)
        listing = await judge.wait_for(lambda m: "Открыть протокол" in str(m.buttons), TIMEOUT)
        await judge.press(listing, button_text="Открыть протокол")
        shown = await judge.wait_for(containing("Протокол · тур 1 · стол 1"), TIMEOUT)
        screen = ProtocolScreen(judge, shown)
        # The winner is entered at 18:00 Omsk time (12:00 UTC): the game ends then.
        await fill_red_win(screen)
        clock.moment = NOW + timedelta(minutes=7)
        await screen.tap("Сводка")
        await screen.tap("✅ Подтвердить протокол")
        assert "Протест по результату — до 18:10" in screen.text
        offer = await player.wait_for(lambda m: "Протест" in str(m.buttons), TIMEOUT)
        assert "до 18:10" in (offer.text or "")
        # Three minutes after the confirmation the window of the game's end has closed.
        clock.moment = NOW + timedelta(minutes=10)
        late = await player.press(offer, button_text="Протест").answer(TIMEOUT)
        assert late.show_alert and "истекло в 18:10" in (late.text or "")
