"""The channel's standings follow the judges' buttons: after each confirmed protocol the pinned
live table is edited once, and the last protocol of a round brings a post closing it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import Application
from bot.delivery.worker import wait_until_delivered
from domain.actor import Actor
from domain.outgoing import DeliveryStatus
from domain.rounds import TableGame
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.people import FakeChannel, FakeUser
from harness.fake_telegram.state import WAIT_LIMIT, ChatMessage
from harness.sandbox import running_bot, sandbox_settings
from tests.e2e.test_protocol import Screen, fill_red_win
from tests.factories import CHANNEL, NOW, ORGANIZER, seed_tournament


@pytest.fixture
async def app(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[Application]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    async with running_bot(sandbox_settings(fake_telegram, url)) as application:
        yield application


async def published_round(
    app: Application, fake: FakeTelegram
) -> tuple[int, tuple[TableGame, ...]]:
    """Twenty players seated for the qualifying; round 1 (two tables) published: the
    tournament's id and the round's games."""
    seeded = await seed_tournament(app.uow_factory)
    preview = await app.services.rounds_seating.start_stage(
        Actor(ORGANIZER, NOW), seeded.tournament.id, seed=3, swaps=20_000
    )
    games = preview.stage.rounds[0].games
    for game in games:
        assert game.judge_id is not None
        judge = fake.user(game.judge_id, "Судья")
        judge.send("/start")
        await judge.wait_for()
    await app.services.rounds_publication.publish_round(
        Actor(ORGANIZER, NOW), seeded.tournament.id, 1
    )
    return seeded.tournament.id, games


async def _protocol_of(judge: FakeUser, table: int) -> Screen:
    def is_round_message(message: ChatMessage) -> bool:
        return "Открыть протокол" in str(message.buttons)

    shown = [m for m in judge.messages if is_round_message(m)]
    round_message = shown[0] if shown else await judge.wait_for(is_round_message)
    await judge.press(round_message, button_text="Открыть протокол")
    title = f"Протокол · тур 1 · стол {table}"
    return Screen(judge, await judge.wait_for(lambda m: title in (m.text or "")))


async def _confirm_red_win(judge: FakeUser, table: int) -> None:
    screen = await _protocol_of(judge, table)
    await fill_red_win(screen)
    await screen.tap("Сводка")
    confirmed = await screen.tap("✅ Подтвердить протокол")
    assert confirmed.text == "Протокол подтверждён."


def _live_edits(fake: FakeTelegram, message_id: int) -> int:
    return sum(
        1
        for r in fake.stats.requests
        if r.method == "editMessageText" and r.message_id == message_id and r.status == 200
    )


async def pinned_live_table(fake: FakeTelegram) -> ChatMessage:
    """The channel's one pinned message, once the bot has pinned it (a moment after sending)."""
    async with asyncio.timeout(WAIT_LIMIT):
        while not (pinned := [m for m in fake.messages(CHANNEL) if m.pinned]):
            await asyncio.sleep(0.05)
    (live,) = pinned
    return live


async def _live(channel: FakeChannel, games: int) -> ChatMessage:
    return await channel.wait_for(lambda m: f"сыграно игр: {games}" in (m.text or ""))


async def test_each_confirmed_protocol_edits_the_pinned_table_and_the_round_closes(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    _tournament, (first, second) = await published_round(app, fake_telegram)
    assert first.judge_id is not None and second.judge_id is not None
    await _confirm_red_win(fake_telegram.user(first.judge_id, "Судья"), 1)
    live = await _live(channel, 1)
    assert not live.edited
    # Red won at table 1: its sheriff leads with 2.3 (the win and his best move).
    assert "2,3*" in (live.text or "")
    # One table of two played: the round is not closed yet.
    assert not any("завершён" in (m.text or "") for m in channel.messages)
    await _confirm_red_win(fake_telegram.user(second.judge_id, "Судья"), 2)
    edited = await _live(channel, 2)
    assert edited.message_id == live.message_id and edited.edited
    picture = await channel.wait_for(lambda m: m.photo is not None)
    assert "тур 1 завершён" in (picture.text or "") and not picture.pinned
    table = await channel.wait_for(lambda m: (m.text or "").startswith("Кубок Ворона: тур 1"))
    assert "Ник" in (table.text or "")
    # One pinned message for the whole round: sent with the first protocol, edited once after.
    assert _live_edits(fake_telegram, live.message_id) == 1
    pinned = [m for m in channel.messages if m.pinned]
    assert [m.message_id for m in pinned] == [live.message_id]


async def test_an_edit_of_the_pinned_table_that_would_change_nothing_is_not_sent(
    app: Application, fake_telegram: FakeTelegram
) -> None:
    """Both results are in before the channel's table goes out (its posts held back, as the
    channel's limits may): the table posted shows both games, and the second result's edit,
    which would show the same, is not sent (Telegram refuses it: "message is not modified")."""
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    _tournament, (first, second) = await published_round(app, fake_telegram)
    assert first.judge_id is not None and second.judge_id is not None
    await wait_until_delivered(app.uow_factory, WAIT_LIMIT)  # the judges' round messages
    await app.delivery.stop()
    await _confirm_red_win(fake_telegram.user(first.judge_id, "Судья"), 1)
    await _confirm_red_win(fake_telegram.user(second.judge_id, "Судья"), 2)
    await app.delivery.start()
    live = await _live(channel, 2)
    await channel.wait_for(lambda m: (m.text or "").startswith("Кубок Ворона: тур 1"))
    counts = await wait_until_delivered(app.uow_factory, WAIT_LIMIT)
    edits = [r for r in fake_telegram.stats.requests if r.method == "editMessageText"]
    assert not [r for r in edits if r.status != 200]  # none "message is not modified"
    assert _live_edits(fake_telegram, live.message_id) == 0 and not live.edited
    pinned = await pinned_live_table(fake_telegram)
    assert pinned.message_id == live.message_id and "2,3*" in (live.text or "")
    assert not counts.get(DeliveryStatus.FAILED)


async def test_with_a_web_address_the_pinned_table_links_the_tournament_page(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    settings = sandbox_settings(fake_telegram, url, web_base_url="https://cup.example.org/")
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(settings) as app:
        tournament_id, (first, _second) = await published_round(app, fake_telegram)
        assert first.judge_id is not None
        await _confirm_red_win(fake_telegram.user(first.judge_id, "Судья"), 1)
        await _live(channel, 1)
        live = await pinned_live_table(fake_telegram)
    assert "сыграно игр: 1" in (live.text or "")
    link = f"https://cup.example.org/t/{tournament_id}"
    assert (live.text or "").rstrip().endswith(f"Таблица, рассадка и игры на сайте: {link}")
