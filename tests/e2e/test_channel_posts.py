"""What the channel gets as a stage is played: each closing post's pictures as one album, and
one post, not two, when the stage's last round closes, within Telegram's limits."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text as sql

from bot.app import Application
from domain.actor import Actor
from domain.lifecycle import Move, Refusal
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.limits import FloodControl, RateLimits
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing
from tests.e2e.stage_play import draw_every_lot, play_stage
from tests.factories import CHANNEL, NOW, ORGANIZER, seed_tournament

# The fake Telegram enforces Telegram's limits here: the bot keeps its real pace.
pytestmark = pytest.mark.telegram_pace

TIMEOUT = 120.0


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


async def test_a_played_stage_closes_once_with_albums_and_no_flood(tmp_path: Path) -> None:
    # A channel allowed ten times Telegram's pace, on both sides: the stage's posts are what
    # this test is about; the final's burst below keeps Telegram's own pace.
    fake = FakeTelegram(enforce_limits=RateLimits(group_per_minute=200))
    await fake.start()
    try:
        channel = fake.channel(CHANNEL, "Кубок Ворона")
        url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
        settings = sandbox_settings(fake, url).model_copy(update={"delivery_group_per_minute": 200})
        async with running_bot(settings) as app:
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
    finally:
        await fake.stop()


async def test_a_finished_tournament_announces_its_podium_and_final_table(
    tmp_path: Path,
) -> None:
    # A whole tournament's posts: a channel allowed ten times Telegram's pace, on both sides.
    fake = FakeTelegram(enforce_limits=RateLimits(group_per_minute=200))
    await fake.start()
    try:
        channel = fake.channel(CHANNEL, "Кубок Ворона")
        url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
        settings = sandbox_settings(fake, url).model_copy(update={"delivery_group_per_minute": 200})
        async with running_bot(settings) as app:
            seeded = await seed_tournament(app.uow_factory, players=20, judges=2)
            tournament = seeded.tournament.id
            moment = NOW
            for move in (Move.START_STAGE, Move.START_STAGE, Move.FINISH):
                await play_stage(app.services, tournament, moment)
                moment += timedelta(days=1)  # every protest window has closed
                await draw_every_lot(app.uow_factory, tournament, moment)
                moved = await app.services.tournaments.move_tournament(
                    Actor(ORGANIZER, moment), tournament, move
                )
                assert not isinstance(moved, Refusal), moved
            results = await channel.wait_for(containing("турнир завершён"), TIMEOUT)
            await channel.wait_for(lambda m: m.photo is not None and "итоговая" in (m.text or ""))
            await fake.wait_idle(timeout=TIMEOUT)
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
        final_table = [
            m.text or "" for m in channel.messages if "итоговая таблица" in (m.text or "")
        ]
        assert final_table and all("*" not in page for page in final_table)
        assert fake.stats.too_many_requests == 0
    finally:
        await fake.stop()


async def test_the_final_s_closing_burst_and_the_results_post_draw_no_429(tmp_path: Path) -> None:
    """The final played and the tournament finished at Telegram's own pace (20 messages a
    minute to a channel): the final's round posts, live table edits, the closing albums and
    tables, then the results post and its album, all spaced by the bot so that none is
    refused. The stages before are played with a channel allowed ten times that."""
    fake = FakeTelegram(enforce_limits=RateLimits(group_per_minute=200))
    await fake.start()
    try:
        channel = fake.channel(CHANNEL, "Кубок Ворона")
        url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
        fast = sandbox_settings(fake, url).model_copy(update={"delivery_group_per_minute": 200})
        moment = NOW
        async with running_bot(fast) as app:
            seeded = await seed_tournament(app.uow_factory, players=20, judges=2)
            tournament = seeded.tournament.id
            for _ in ("semifinal", "final"):
                await play_stage(app.services, tournament, moment)
                moment += timedelta(days=1)
                await draw_every_lot(app.uow_factory, tournament, moment)
                moved = await app.services.tournaments.move_tournament(
                    Actor(ORGANIZER, moment), tournament, Move.START_STAGE
                )
                assert not isinstance(moved, Refusal), moved
            await drained(app, fake)
        # From here on Telegram's real limits, on both sides.
        fake.api.flood_control = FloodControl(RateLimits())
        posted = len(channel.messages)
        async with running_bot(sandbox_settings(fake, url)) as app:
            await play_stage(app.services, tournament, moment)
            moment += timedelta(days=1)
            await draw_every_lot(app.uow_factory, tournament, moment)
            moved = await app.services.tournaments.move_tournament(
                Actor(ORGANIZER, moment), tournament, Move.FINISH
            )
            assert not isinstance(moved, Refusal), moved
            await channel.wait_for(lambda m: m.photo is not None and "итоговая" in (m.text or ""))
            await drained(app, fake)
        burst = channel.messages[posted:]
        # A minute's worth of posts at least, with the live table's edits besides: spaced.
        assert len(burst) >= 20
        assert any("этап «Финал» завершён" in (m.text or "") for m in burst)
        assert any("турнир завершён" in (m.text or "") for m in burst)
        assert fake.stats.too_many_requests == 0
    finally:
        await fake.stop()
