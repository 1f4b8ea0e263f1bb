"""The judge's protocol screen through the real bot and the fake Telegram: button presses only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path

import pytest

from bot.app import Application
from domain.actor import Actor
from domain.cards import Side
from domain.services.ports import Clock
from harness.fake_telegram import FakeTelegram
from harness.fake_telegram.people import FakeChannel, FakeUser
from harness.fake_telegram.state import ChatMessage
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import ProtocolScreen as Screen
from tests.factories import (
    CHANNEL,
    CHIEF_JUDGE,
    FIRST_PLAYER,
    NOW,
    ORGANIZER,
    Seeded,
    seed_tournament,
)


@dataclass
class Table:
    """A published round 1: its first game and the people around it."""

    app: Application
    fake: FakeTelegram
    seeded: Seeded
    game_id: int
    judge: FakeUser
    players: tuple[int, ...]
    channel: FakeChannel


@asynccontextmanager
async def published_table(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: Clock | None = None
) -> AsyncIterator[Table]:
    """The bot (on `clock`, the system's by default) with round 1 published at NOW."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, url), clock=clock) as app:
        seeded = await seed_tournament(app.uow_factory)
        preview = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), seeded.tournament.id, seed=3, swaps=20_000
        )
        game = preview.stage.rounds[0].games[0]
        assert game.judge_id is not None
        judge = fake_telegram.user(game.judge_id, "Судья")
        judge.send("/start")
        await judge.wait_for()
        await app.services.rounds_publication.publish_round(
            Actor(ORGANIZER, NOW), seeded.tournament.id, 1
        )
        yield Table(app, fake_telegram, seeded, game.id, judge, game.players, channel)


@pytest.fixture
async def table(fake_telegram: FakeTelegram, tmp_path: Path) -> AsyncIterator[Table]:
    async with published_table(fake_telegram, tmp_path) as published:
        yield published


async def open_from_round_message(table: Table) -> Screen:
    def is_round_message(message: ChatMessage) -> bool:
        return "Открыть протокол" in str(message.buttons)

    shown = [m for m in table.judge.messages if is_round_message(m)]
    round_message = shown[0] if shown else await table.judge.wait_for(is_round_message)
    assert "судья стола 1, тур 1" in (round_message.text or "")
    await table.judge.press(round_message, button_text="Открыть протокол")
    protocol = await table.judge.wait_for(lambda m: "Протокол · тур 1 · стол 1" in (m.text or ""))
    return Screen(table.judge, protocol)


async def fill_red_win(screen: Screen, don_entered: bool = False) -> None:
    """Don 10, sheriff 7, mafia 8 and 9, seat 1 killed first night naming 8 9 10; red wins.

    The screen moves on by itself: the role tool from don to sheriff to mafia, the rest become
    civilians; the kill opens the best move, three names the extra points, the winner the
    summary."""
    if not don_entered:
        await screen.tap("10")
    for seat in ("7", "8", "9"):
        await screen.tap(seat)
    assert "Фолы: нажмите место" in screen.text
    await screen.tap("ПУ")
    await screen.tap("1")
    assert "Лучший ход: отметьте места" in screen.text
    for seat in ("8", "9", "10"):
        await screen.tap(seat)
    await screen.tap("Победа красных")
    assert "Сводка" in screen.text and screen.find("✅ Подтвердить протокол")


async def test_a_judge_fills_and_confirms_a_protocol_by_buttons(table: Table) -> None:
    screen = await open_from_round_message(table)
    assert "Осталось заполнить" in screen.text
    await screen.tap("10")
    # A second don is refused with the reason, and the seat keeps no role.
    await screen.tap("Дон")
    refused = await screen.tap("3")
    assert refused.show_alert and "ровно 1" in (refused.text or "")
    assert "ровно 1" in screen.text
    assert screen.find("3").endswith(":r:3:1")
    await screen.tap("Шериф")
    await fill_red_win(screen, don_entered=True)
    # A double tap on the same foul button gives one foul, not two.
    await screen.tap("Фолы")
    foul = screen.find("2")
    taps = [table.judge.press(screen.message, callback_data=foul) for _ in range(2)]
    await asyncio.gather(*(tap.answer() for tap in taps))
    assert "фолы: 1" in screen.text and "фолы: 2" not in screen.text
    await screen.tap("Сводка")
    assert "Всё заполнено" not in screen.text
    assert f"1. {table.seeded.nickname(table.players[0])}: 2,3" in screen.text
    # A black player's loss is worth nothing: his line says "0", not "0 (поражение 0)".
    assert f"8. {table.seeded.nickname(table.players[7])}: 0\n" in screen.text
    assert "поражение 0" not in screen.text
    confirmed = await screen.tap("✅ Подтвердить протокол")
    assert confirmed.text == "Протокол подтверждён."
    assert "Протест по результату — до" in screen.text
    assert screen.buttons() == []
    result = await table.channel.wait_for(lambda m: "стол 1: победа красных" in (m.text or ""))
    assert table.seeded.nickname(table.players[0]) in (result.text or "")
    # The judge pressed only the winner: the channel claims nothing of how the game ended.
    assert "выбыли" not in (result.text or "")
    standings = await table.app.services.standings.current_standings(table.seeded.tournament.id)
    assert standings.players[0].points == Decimal("2.3")


async def test_presses_after_confirmation_and_from_strangers_change_nothing(table: Table) -> None:
    screen = await open_from_round_message(table)
    await fill_red_win(screen)
    await screen.tap("Победа")
    stranger = table.fake.user(FIRST_PLAYER, "Игрок")
    refused = await stranger.press(screen.message, callback_data=screen.find("Победа чёрных"))
    assert refused.show_alert and "судья стола или главный судья" in (refused.text or "")
    assert "Победа: красных" in screen.text
    # The same protocol opened again (another device) shows the stored draft.
    other_device = await open_from_round_message(table)
    assert other_device.message_id != screen.message_id
    assert "Победа: красных" in other_device.text
    await screen.tap("Сводка")
    await screen.tap("✅ Подтвердить протокол")
    late = await other_device.tap("Победа чёрных")
    assert "уже подтверждён" in (late.text or "")
    assert "Протокол подтверждён" in other_device.text
    view = await table.app.services.protocols.open_protocol(Actor(CHIEF_JUDGE, NOW), table.game_id)
    assert view.confirmed is not None and view.confirmed.winner is Side.RED


async def test_the_chief_judge_corrects_a_confirmed_protocol_by_buttons(table: Table) -> None:
    screen = await open_from_round_message(table)
    await fill_red_win(screen)
    await screen.tap("Сводка")
    await screen.tap("✅ Подтвердить протокол")
    correction = await open_correction(table)
    assert "Исправление подтверждённого протокола" in correction.text
    await correction.tap("Победа")
    await correction.tap("Победа чёрных")
    await correction.tap("Сводка")
    saved = await correction.tap("✅ Подтвердить протокол")
    assert saved.text == "Исправление сохранено."
    audit = await table.app.services.protocols.corrections(Actor(CHIEF_JUDGE, NOW), table.game_id)
    assert [(c.corrected_by, c.before.winner, c.after.winner) for c in audit] == [
        (CHIEF_JUDGE, Side.RED, Side.BLACK)
    ]
    corrected = "Исправлен результат · Отборочные игры · тур 1"
    await table.channel.wait_for(lambda m: corrected in (m.text or ""))


async def open_correction(table: Table) -> Screen:
    """The chief judge opens the confirmed protocol of table 1 by /protocol and starts a
    correction."""
    chief = table.fake.user(CHIEF_JUDGE, "Главный судья")
    chief.send("/protocol")
    choice = await chief.wait_for(lambda m: "Выберите протокол" in (m.text or ""))
    await chief.press(choice, button_text="Тур 1 · стол 1 ✓")
    shown = await chief.wait_for(lambda m: "Протокол подтверждён" in (m.text or ""))
    correction = Screen(chief, shown)
    await correction.tap("Исправить протокол")
    return correction


async def test_two_judges_confirming_at_once_store_one_result(table: Table) -> None:
    screen = await open_from_round_message(table)
    await fill_red_win(screen)
    await screen.tap("Сводка")
    chief = table.fake.user(CHIEF_JUDGE, "Главный судья")
    confirm = screen.find("✅ Подтвердить протокол")
    answers = await asyncio.gather(
        table.judge.press(screen.message, callback_data=confirm).answer(),
        chief.press(screen.message, callback_data=confirm).answer(),
    )
    assert sorted(answer.text or "" for answer in answers) == [
        "Протокол подтверждён.",
        "Протокол уже подтверждён: исправить его может только главный судья.",
    ]
    standings = await table.app.services.standings.current_standings(table.seeded.tournament.id)
    assert sum(row.figures.games for row in standings.players) == 10
    await table.fake.wait_idle()
    assert _refused(table.fake) == []


async def test_a_double_tap_on_confirm_makes_no_edit_telegram_refuses(table: Table) -> None:
    screen = await open_from_round_message(table)
    await fill_red_win(screen)
    await screen.tap("Сводка")
    confirm = screen.find("✅ Подтвердить протокол")
    # Both presses carry the screen from before the confirmation, as a double tap does.
    first = table.judge.press(screen.message, callback_data=confirm)
    second = table.judge.press(screen.message, callback_data=confirm)
    assert (await first.answer()).text == "Протокол подтверждён."
    assert "уже подтверждён" in ((await second.answer()).text or "")
    await table.fake.wait_idle()
    assert "Протокол подтверждён" in screen.text
    assert _refused(table.fake) == []


def _refused(fake: FakeTelegram) -> list[tuple[str, int, str | None]]:
    """The edits Telegram refused (the seat messages to players who never started the bot
    are refused too, as they would be: the outbox records them unreachable)."""
    return [
        (r.method, r.status, r.description)
        for r in fake.stats.requests
        if r.status >= 400 and r.method.lower().startswith("edit")
    ]


async def test_a_typical_game_takes_at_most_18_taps(table: Table) -> None:
    """Roles, two fouls, the first killed naming three seats, extra points to two players, the
    winner and confirm: counted press by press through the fake Telegram."""
    screen = await open_from_round_message(table)
    taps = 1  # "Открыть протокол" under the round's message opened the screen

    async def tap(name: str) -> None:
        nonlocal taps
        taps += 1
        answered = await screen.tap(name)
        assert not answered.show_alert, f"{name}: {answered.text}"

    for seat in ("10", "7", "8", "9"):  # don, sheriff, two mafia; the rest are civilians
        await tap(seat)
    for seat in ("2", "3"):  # the fouls come up by themselves
        await tap(seat)
    await tap("ПУ")
    await tap("1")  # night 1 is preselected; the best move comes up
    for seat in ("8", "9", "10"):
        await tap(seat)
    for seat in ("5", "6"):  # the extra points come up: a seat, then its value
        await tap(seat)
        await tap("0,5")
    await tap("Победа красных")
    await tap("✅ Подтвердить протокол")
    print(f"\ntaps for a typical game (open, roles, 2 fouls, kill, best move, 2 extras): {taps}")
    assert taps <= 18
    assert "Протокол подтверждён" in screen.text
    standings = await table.app.services.standings.current_standings(table.seeded.tournament.id)
    points = {row.id: row.points for row in standings.players}
    assert points[str(table.players[4])] == Decimal("2.5")  # a red win and 0.5 extra
    assert points[str(table.players[0])] == Decimal("2.3")  # a red win and three black named


async def test_an_english_tournaments_channel_gets_the_result_and_live_table_in_english(
    table: Table,
) -> None:
    """The tournament's language (chosen in /new) is its channel's; the judge still reads his
    own screen in Russian."""
    async with table.app.uow_factory() as uow:
        stored = await uow.tournaments.get(table.seeded.tournament.id)
        assert stored is not None
        await uow.tournaments.save(replace(stored, locale="en"))
        await uow.commit()
    screen = await open_from_round_message(table)
    await fill_red_win(screen)
    await screen.tap("✅ Подтвердить протокол")
    heading = "Qualifying · round 1 · table 1: red (civilians) win"
    result = await table.channel.wait_for(lambda m: heading in (m.text or ""))
    assert "BM 0.3" in (result.text or "") and "победа" not in (result.text or "")
    live = await table.channel.wait_for(lambda m: "Standings: Кубок Ворона" in (m.text or ""))
    assert "games played: 1" in (live.text or "") and "Турнирная" not in (live.text or "")
