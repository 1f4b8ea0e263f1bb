"""The organizer's card updates itself when the last protest window of the stage closes: the
card he opened while the window was open (saying until when) is edited in place at that
moment, with nobody pressing anything, and offers what the stage's end allows; a card still
waiting when edited (a correction moved the last window later) is edited again then."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from bot.app import Application
from bot.clock import FixedClock
from domain.actor import Actor
from domain.protocol_screen import Act, Press
from domain.rounds import SeatedStage
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.stage_play import play_stage
from tests.e2e.test_stage_guard import CARD, HELD, START, TIMEOUT, _card, _registration_closed
from tests.factories import CHANNEL, CHIEF_JUDGE, NOW, ORGANIZER, seed_tournament

WINDOW = "окно протестов последних игр этапа открыто до 18:10"


@dataclass
class HeldCard:
    """A played stage whose card the organizer opened while its protest windows were open."""

    app: Application
    clock: FixedClock
    organizer: FakeUser
    stage: SeatedStage
    card: ChatMessage

    async def edited(self) -> ChatMessage:
        """The card's next edit in place, nobody pressing anything."""
        message_id = self.card.message_id
        return await self.organizer.wait_for(
            lambda m: m.message_id == message_id and m.edited, TIMEOUT
        )


@asynccontextmanager
async def held_card(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[HeldCard]:
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
        stage = await play_stage(app.services, tid, NOW)
        held = await _card(organizer, tid)
        assert HELD in (held.text or "") and WINDOW in (held.text or ""), held.text
        assert "карточка обновится сама" in (held.text or "")
        assert START not in [label for row in held.buttons for label, _ in row]
        yield HeldCard(app, clock, organizer, stage, held)


def _offers_the_move(card: ChatMessage) -> None:
    text = card.text or ""
    assert CARD in text and "окно протестов" not in text, text
    labels = [label for row in card.buttons for label, _ in row]
    # The move is offered, unless a tie at the cut line waits for the chief judge's lot.
    assert START in labels or "жребий" in text, (text, labels)
    assert labels[-1] == "Обновить"


async def test_the_held_card_is_edited_when_the_last_window_closes(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    async with held_card(fake_telegram, tmp_path) as held:
        # Time passes to the windows' close; nobody presses anything.
        held.clock.moment = NOW + timedelta(minutes=10)
        _offers_the_move(await held.edited())


async def test_a_card_still_waiting_when_edited_is_edited_again_when_the_later_window_closes(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    async with held_card(fake_telegram, tmp_path) as held:
        # Five minutes on, the chief judge corrects a game's end to now (regulation 11.3: the
        # window runs from the game's end): the stage's last window now closes at 18:15.
        later = NOW + timedelta(minutes=5)
        held.clock.moment = later
        game = held.stage.rounds[-1].games[-1].id
        chief = Actor(CHIEF_JUDGE, later)
        protocols = held.app.services.protocols
        await protocols.start_correction(chief, game)
        end = Press(Act.END_TIME, value=int(later.timestamp()) // 60)
        await protocols.press_protocol(chief, game, end)
        await protocols.confirm_protocol(chief, game)

        # At 18:10 the card is edited as it then stands: still waiting, until 18:15.
        held.clock.moment = NOW + timedelta(minutes=10)
        edited = await held.edited()
        assert "открыто до 18:15" in (edited.text or "") and START not in str(edited.buttons)
        assert "карточка обновится сама" in (edited.text or "")

        # And, as it says, again at 18:15 with nobody pressing anything: the move is offered.
        held.clock.moment = NOW + timedelta(minutes=15)
        _offers_the_move(await held.edited())
