"""The organizer's card updates itself when the last protest window of the stage closes: the
card he opened while the window was open (saying until when) is edited in place at that
moment, with nobody pressing anything, and offers what the stage's end allows."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.clock import FixedClock
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.stage_play import play_stage
from tests.e2e.test_stage_guard import CARD, HELD, START, TIMEOUT, _card, _registration_closed
from tests.factories import CHANNEL, NOW, ORGANIZER, seed_tournament

WINDOW = "окно протестов последних игр этапа открыто до 18:10"


async def test_the_held_card_is_edited_when_the_last_window_closes(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    fake_telegram.channel(CHANNEL, "Кубок Ворона")
    clock = FixedClock(NOW)
    organizer = fake_telegram.user(ORGANIZER, "Организатор")
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory, players=20, judges=2)
        tid = seeded.tournament.id
        await _registration_closed(app.uow_factory, tid)
        first = await _card(organizer, tid)
        labels = [label for row in first.buttons for label, _ in row]
        assert START in labels
        organizer.press(first, button_text=START)
        await organizer.wait_for(lambda m: "идёт этап 1" in (m.text or ""), TIMEOUT)
        await play_stage(app.services, tid, NOW)

        held = await _card(organizer, tid)
        assert HELD in (held.text or "") and WINDOW in (held.text or ""), held.text
        assert "карточка обновится сама" in (held.text or "")
        assert START not in [label for row in held.buttons for label, _ in row]

        # Time passes to the windows' close; nobody presses anything.
        clock.moment = NOW + timedelta(minutes=10)
        edited = await organizer.wait_for(
            lambda m: m.message_id == held.message_id and m.edited, TIMEOUT
        )
        text = edited.text or ""
        assert CARD in text and "окно протестов" not in text, text
        labels = [label for row in edited.buttons for label, _ in row]
        # The move is offered, unless a tie at the cut line waits for the chief judge's lot.
        assert START in labels or "жребий" in text, (text, labels)
        assert labels[-1] == "Обновить"
