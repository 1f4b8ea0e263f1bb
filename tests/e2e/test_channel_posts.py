"""What the channel gets as a stage is played: each closing post's pictures as one album, and
one post, not two, when the stage's last round closes, within Telegram's limits."""

from __future__ import annotations

from pathlib import Path

from harness.fake_telegram import FakeTelegram
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing
from tests.e2e.stage_play import play_stage
from tests.factories import CHANNEL, NOW, seed_tournament

TIMEOUT = 120.0


async def test_a_played_stage_closes_once_with_albums_and_no_flood(tmp_path: Path) -> None:
    fake = FakeTelegram(enforce_limits=True)
    await fake.start()
    try:
        channel = fake.channel(CHANNEL, "Кубок Ворона")
        url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
        async with running_bot(sandbox_settings(fake, url)) as app:
            seeded = await seed_tournament(app.uow_factory, players=20, judges=2)
            stage = await play_stage(app.uow_factory, seeded.tournament.id, NOW)
            await channel.wait_for(containing("этап «Отборочный тур» завершён"), TIMEOUT)
            await fake.wait_idle(timeout=TIMEOUT)
        texts = [m.text or "" for m in channel.messages]
        last = len(stage.rounds)
        # Rounds before the last close with a post each; the last one's post is the stage's.
        for number in range(1, last):
            assert sum(f"тур {number} завершён" in text for text in texts) == 2  # album, table
        assert not any(f"тур {last} завершён" in text for text in texts)
        assert sum("этап «Отборочный тур» завершён" in text for text in texts) == 2
        # 20 players take two pictures: each closing sends them as one album.
        assert fake.stats.calls["sendMediaGroup"] == last
        pictures = [m for m in channel.messages if m.photo is not None]
        assert len(pictures) == 2 * last
        assert fake.stats.too_many_requests == 0
    finally:
        await fake.stop()
