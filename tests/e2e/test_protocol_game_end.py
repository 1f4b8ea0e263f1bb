"""How a game ended, and when: the judge records a special end (three misses) and corrects the
end time by buttons; the protest window, the channel's result post and the player's /me
follow."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.clock import FixedClock
from domain.game_end import GameEnd
from harness.fake_telegram import FakeTelegram
from harness.simulation.screens import ProtocolScreen
from tests.e2e.test_protocol import (  # noqa: F401
    Table,
    open_correction,
    open_from_round_message,
    published_table,
    table,
)
from tests.factories import NOW

ENDED = re.compile(r"Конец игры: (\d\d:\d\d)")
UNTIL = re.compile(r"Протест по результату — до (\d\d:\d\d)")


def clock_time(pattern: re.Pattern[str], text: str) -> datetime:
    match = pattern.search(text)
    assert match is not None, text
    return datetime.strptime(match.group(1), "%H:%M")


async def three_misses(screen: ProtocolScreen) -> None:
    """Roles by buttons, no kill at all, then the end: black missed three nights in a row."""
    for seat in ("10", "7", "8", "9"):
        await screen.tap(seat)
    await screen.tap("ПУ")
    await screen.tap("Промахи — никого не убили")
    await screen.tap("Победа")
    # The ends by elimination and the cup's own (10.2, 9.1); not the team tournament's rule.
    assert screen.find("Красные: все чёрные выбыли")
    assert screen.find("Чёрные: чёрных столько же, сколько красных")
    assert screen.find("Красные: чёрным присуждено поражение")
    assert "четыре игрока" not in str(screen.buttons())
    await screen.tap("Красные: три промаха чёрных подряд")


async def test_the_judge_records_three_misses_and_everyone_reads_it(table: Table) -> None:  # noqa: F811
    screen = await open_from_round_message(table)
    await three_misses(screen)
    assert "Сводка" in screen.text
    assert "Победа: красных (мирных)" in screen.text
    assert "Как закончилась игра: три промаха чёрных подряд" in screen.text
    confirmed = await screen.tap("✅ Подтвердить протокол")
    assert confirmed.text == "Протокол подтверждён."
    assert "Как закончилась игра: три промаха чёрных подряд" in screen.text
    post = await table.channel.wait_for(lambda m: "три промаха чёрных подряд" in (m.text or ""))
    assert "тур 1 · стол 1: победа красных (мирных) · три промаха чёрных подряд" in (
        post.text or ""
    )
    standings = await table.app.services.standings.current_standings(table.seeded.tournament.id)
    assert sorted(row.points for row in standings.players)[-7:] == [2] * 7  # red won
    # A player of the table reads it in /me, under his stage's games.
    player = next(p for p in table.seeded.players if p.id == table.players[0])
    assert player.user_id is not None
    person = table.fake.user(player.user_id, "Игрок")
    person.send("/me")
    card = await person.wait_for(lambda m: "Тур 1, стол 1:" in (m.text or ""))
    assert "Тур 1, стол 1: три промаха чёрных подряд" in (card.text or "")


async def test_the_judge_corrects_the_end_time_and_the_protest_window_follows(
    timed_table: Table,
) -> None:
    played = timed_table
    screen = await open_from_round_message(played)
    await three_misses(screen)
    entered = clock_time(ENDED, screen.text)
    await screen.tap("−5 мин")
    corrected = clock_time(ENDED, screen.text)
    assert corrected == entered - timedelta(minutes=5)
    # Forward past now is refused with the reason, and the end stays where it was.
    await screen.tap("+5 мин")
    assert clock_time(ENDED, screen.text) == entered
    refused = await screen.tap("+5 мин")
    assert refused.show_alert and "не может быть позже текущего" in (refused.text or "")
    assert clock_time(ENDED, screen.text) == entered
    await screen.tap("−5 мин")
    await screen.tap("✅ Подтвердить протокол")
    # black-raven-cup 11.3: ten minutes from the end of the game, the corrected one.
    assert clock_time(UNTIL, screen.text) == corrected + timedelta(minutes=10)
    assert clock_time(ENDED, screen.text) == corrected
    game = await _game(played)
    assert game.protest_until is not None


async def _game(played: Table):  # type: ignore[no-untyped-def]
    async with played.app.uow_factory() as uow:
        found = await uow.rounds.game(played.game_id)
        assert found is not None
        stored = await uow.protocols.protocol(played.game_id)
        assert stored is not None and stored.end is GameEnd.MISSED_NIGHTS
        return found.game


@pytest.fixture
def clock() -> FixedClock:
    """Seven minutes after round 1 was published (at NOW), when the game ends."""
    return FixedClock(NOW + timedelta(minutes=7))


@pytest.fixture
async def timed_table(
    fake_telegram: FakeTelegram, tmp_path: Path, clock: FixedClock
) -> AsyncIterator[Table]:
    async with published_table(fake_telegram, tmp_path, clock) as published:
        yield published


async def test_the_end_cannot_be_moved_before_the_round_was_published(
    timed_table: Table,
) -> None:
    screen = await open_from_round_message(timed_table)
    await three_misses(screen)
    entered = clock_time(ENDED, screen.text)
    await screen.tap("−5 мин")
    assert clock_time(ENDED, screen.text) == entered - timedelta(minutes=5)
    # Two minutes after the publication: five more would end the game before it was seated.
    refused = await screen.tap("−5 мин")
    assert refused.show_alert
    assert "раньше, чем опубликована рассадка тура" in (refused.text or "")
    assert clock_time(ENDED, screen.text) == entered - timedelta(minutes=5)
    await screen.tap("−1 мин")
    await screen.tap("−1 мин")
    assert clock_time(ENDED, screen.text) == entered - timedelta(minutes=7)
    refused = await screen.tap("−1 мин")
    assert "раньше, чем опубликована рассадка тура" in (refused.text or "")


async def test_the_chief_judges_later_end_moves_an_open_window_and_the_players_hear_it(
    timed_table: Table, clock: FixedClock
) -> None:
    """black-raven-cup: ten minutes from the end of the game. The chief judge finds the game
    ended three minutes later than entered: the window still open runs from the corrected
    end, and each player's result message says the new time."""
    player = next(p for p in timed_table.seeded.players if p.id == timed_table.players[0])
    assert player.user_id is not None
    person = timed_table.fake.user(player.user_id, "Игрок")
    person.send("/start")
    await person.wait_for()
    screen = await open_from_round_message(timed_table)
    await three_misses(screen)
    await screen.tap("✅ Подтвердить протокол")
    entered = clock_time(ENDED, screen.text)
    assert clock_time(UNTIL, screen.text) == entered + timedelta(minutes=10)
    first = entered + timedelta(minutes=10)
    await person.wait_for(lambda m: f"можно подать до {first:%H:%M}" in (m.text or ""))
    # Five minutes later (the window still open) the chief judge corrects the end.
    clock.moment += timedelta(minutes=5)
    chief = await open_correction(timed_table)
    await chief.tap("Сводка")
    await chief.tap("+1 мин")
    await chief.tap("+1 мин")
    await chief.tap("+1 мин")
    saved = await chief.tap("✅ Подтвердить протокол")
    assert saved.text == "Исправление сохранено."
    moved = entered + timedelta(minutes=13)
    assert clock_time(UNTIL, chief.text) == moved
    await person.wait_for(lambda m: f"можно подать до {moved:%H:%M}" in (m.text or ""))
    game = await _game(timed_table)
    assert game.protest_until == NOW + timedelta(minutes=20)


async def test_the_chief_judges_earlier_end_keeps_the_announced_window(
    timed_table: Table, clock: FixedClock
) -> None:
    """Moving the end earlier would close the window before the time the players were told:
    the announced time stands."""
    screen = await open_from_round_message(timed_table)
    await three_misses(screen)
    await screen.tap("✅ Подтвердить протокол")
    announced = clock_time(UNTIL, screen.text)
    chief = await open_correction(timed_table)
    await chief.tap("Сводка")
    await chief.tap("−5 мин")
    await chief.tap("✅ Подтвердить протокол")
    assert clock_time(ENDED, chief.text) == clock_time(ENDED, screen.text) - timedelta(minutes=5)
    assert clock_time(UNTIL, chief.text) == announced
    game = await _game(timed_table)
    assert game.protest_until == NOW + timedelta(minutes=17)
