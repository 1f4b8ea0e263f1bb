"""What the channel gets as a stage is played: each closing post's pictures as one album, and
one post, not two, when the stage's last round closes; then a finished tournament's results.
All within Telegram's limits, kept by the bot and enforced by the fake Telegram."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text as sql

from bot.app import Application, delivery_limits
from bot.delivery.limits import LocalLimiter
from domain.actor import Actor
from domain.lifecycle import Move, Refusal
from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing
from tests.e2e.stage_play import draw_every_lot, play_stage
from tests.factories import CHANNEL, NOW, ORGANIZER, seed_tournament

# Telegram's own limits (20 messages a minute to a channel), kept by the bot and enforced by
# the fake Telegram: not the e2e tests' wide ones.
pytestmark = pytest.mark.telegram_pace

TIMEOUT = 120.0
# How much faster than the real clock the limits' clock runs: a channel's minute passes in six
# seconds.
PACE = 10.0


def fast_monotonic() -> Callable[[], float]:
    """A monotonic clock running `PACE` times as fast as the real one."""
    start = time.monotonic()
    return lambda: start + (time.monotonic() - start) * PACE


@dataclass
class PacedTelegram:
    """A fake Telegram enforcing Telegram's limits on a fast clock, and bots keeping the same
    limits on it: they count the same windows, so the bot's spacing is checked at Telegram's
    own figures in a tenth of the time."""

    fake: FakeTelegram
    clock: Callable[[], float]

    def bot(self, tmp_path: Path) -> AbstractAsyncContextManager[Application]:
        settings = sandbox_settings(self.fake, f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}")
        return running_bot(settings, limiter=LocalLimiter(delivery_limits(settings), self.clock))


@pytest.fixture
async def paced() -> AsyncIterator[PacedTelegram]:
    clock = fast_monotonic()
    fake = FakeTelegram(enforce_limits=True, clock=clock)
    await fake.start()
    yield PacedTelegram(fake, clock)
    await fake.stop()


async def drained(app: Application, fake: FakeTelegram, timeout: float = 300.0) -> None:
    """Wait until the outbox has sent everything: a paced channel's messages wait for their
    slots in silence, longer than `wait_idle`'s quiet moment."""
    async with asyncio.timeout(timeout):
        while True:
            async with app.uow_factory() as uow:
                left = await uow.session.scalar(
                    sql("select count(*) from outbox where status in ('pending', 'sending')")
                )
            if not left:
                break
            await asyncio.sleep(0.2)
    await fake.wait_idle(timeout=timeout)


async def test_a_played_stage_closes_once_with_albums_and_no_flood(
    paced: PacedTelegram, tmp_path: Path
) -> None:
    fake = paced.fake
    channel = fake.channel(CHANNEL, "Кубок Ворона")
    async with paced.bot(tmp_path) as app:
        seeded = await seed_tournament(app.uow_factory, players=20, judges=2)
        stage = await play_stage(app.services, seeded.tournament.id, NOW)
        await channel.wait_for(containing("этап «Отборочные игры» завершён"), TIMEOUT)
        await drained(app, fake)
    texts = [m.text or "" for m in channel.messages]
    last = len(stage.rounds)
    # Rounds before the last close with a post each; the last one's post is the stage's.
    for number in range(1, last):
        assert sum(f"тур {number} завершён" in text for text in texts) == 2  # album, table
    assert not any(f"тур {last} завершён" in text for text in texts)
    assert sum("этап «Отборочные игры» завершён" in text for text in texts) == 2
    # 20 players take two pictures: each closing sends them as one album.
    assert fake.stats.calls["sendMediaGroup"] == last
    pictures = [m for m in channel.messages if m.photo is not None]
    assert len(pictures) == 2 * last
    assert fake.stats.too_many_requests == 0


async def _played(app: Application, tournament: int, moment: datetime, move: Move) -> datetime:
    """The running stage played, and `move` made a day later (every protest window closed,
    every lot drawn); that moment."""
    await play_stage(app.services, tournament, moment)
    moment += timedelta(days=1)
    await draw_every_lot(app.uow_factory, tournament, moment)
    moved = await app.services.tournaments.move_tournament(
        Actor(ORGANIZER, moment), tournament, move
    )
    assert not isinstance(moved, Refusal), moved
    return moment


async def test_a_finished_tournament_announces_its_podium_and_final_table_with_no_429(
    paced: PacedTelegram, tmp_path: Path
) -> None:
    """A whole tournament's posts; the final's closing burst (its round posts, live table
    edits, the closing albums and tables, then the results post and its album) spaced by the
    bot so that none is refused."""
    fake = paced.fake
    channel = fake.channel(CHANNEL, "Кубок Ворона")
    async with paced.bot(tmp_path) as app:
        seeded = await seed_tournament(app.uow_factory, players=20, judges=2)
        tournament = seeded.tournament.id
        moment = NOW
        for _ in ("semifinal", "final"):
            moment = await _played(app, tournament, moment, Move.START_STAGE)
        await drained(app, fake)
        posted = len(channel.messages)
        await _played(app, tournament, moment, Move.FINISH)
        results = await channel.wait_for(containing("турнир завершён"), TIMEOUT)
        await channel.wait_for(lambda m: m.photo is not None and "итоговая" in (m.text or ""))
        await drained(app, fake)
    burst = channel.messages[posted:]
    # A minute's worth of posts at least, with the live table's edits besides: spaced.
    assert len(burst) >= 20 and any("этап «Финал» завершён" in (m.text or "") for m in burst)
    assert fake.stats.too_many_requests == 0
    standings = await app.services.standings.current_standings(tournament)
    first = standings.players[0]
    text = results.text or ""
    assert f"Победител{'ь' if standings.players[1].place > 1 else 'и'}: {first.name}" in text
    assert f"🥇 {first.name} — " in text
    assert "Призёры" in text and "Команды" not in text
    # The nominations: every game was a red win, so the sheriffs and civilians earned
    # points and the black roles nothing (nobody is named for them).
    assert "Номинации" in text and "Лучший шериф: " in text and "Лучший мирный: " in text
    assert "Лучший дон" not in text and "Лучшая мафия" not in text
    final_table = [m.text or "" for m in channel.messages if "итоговая таблица" in (m.text or "")]
    assert final_table and all("*" not in page for page in final_table)
