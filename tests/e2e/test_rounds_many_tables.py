"""A round of 30 tables with long nicknames does not fit one Telegram message: the organizer's
round view pages through it, keeps a judge button per table, and publishes from any page."""

from __future__ import annotations

import re
from pathlib import Path

from domain.actor import Actor
from harness.fake_telegram import WAIT_LIMIT, ChatMessage, FakeTelegram
from harness.fake_telegram.people import FakeUser
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.screens import containing, press
from tests.factories import (
    CHANNEL,
    NOW,
    ORGANIZER,
    long_nicknames,
    seed_tournament,
)

# 30 tables of 10 and 5 players sitting out each round.
PLAYERS = 305
# Enough of the seating search for a fair stage in a fraction of a second.
SWAPS = 1_000
# A handler that fails answers with an apology instead of the edit waited for.
TIMEOUT = WAIT_LIMIT
_PAGE = re.compile(r"Страница (\d+) из (\d+)")
_SEAT = re.compile(r"^\d+\. (.+)$")


def _buttons(message: ChatMessage) -> list[str]:
    return [text for row in message.buttons for text, _ in row]


async def _turn(organizer: FakeUser, shown: ChatMessage, button: str) -> ChatMessage:
    """Press a button of the round view; the view as the press edited it."""
    return await press(organizer, shown, button, "Тур 1", timeout=TIMEOUT)


async def _last_page(organizer: FakeUser, first: ChatMessage) -> tuple[ChatMessage, list[str]]:
    """Press "▶" from the first page to the last: the last page, and every page's text."""
    shown, texts = first, [first.text or ""]
    while forward := [b for b in _buttons(shown) if b.endswith("▶") and b.startswith("стол")]:
        shown = await _turn(organizer, shown, forward[0])
        texts.append(shown.text or "")
    return shown, texts


async def test_a_round_of_30_tables_pages_through_every_table(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"
    channel = fake_telegram.channel(CHANNEL, "Кубок Ворона")
    async with running_bot(sandbox_settings(fake_telegram, url)) as app:
        seeded = await seed_tournament(app.uow_factory, players=PLAYERS, judges=30)
        tournament = seeded.tournament.id
        await long_nicknames(app.uow_factory, tournament)
        seated = await app.services.rounds_seating.start_stage(
            Actor(ORGANIZER, NOW), tournament, seed=5, swaps=SWAPS
        )
        first_round = seated.stage.rounds[0]
        assert len(first_round.games) == 30 and len(first_round.sit_outs) == 5

        organizer = fake_telegram.user(ORGANIZER, "Организатор")
        organizer.send(f"/rounds {tournament}")
        overview = await organizer.wait_for(containing("Повторные встречи"), TIMEOUT)
        first = await press(organizer, overview, "Тур 1", "Страница 1 из", timeout=TIMEOUT)
        last, pages = await _last_page(organizer, first)

        # Every page is one message the fake Telegram accepted (it refuses over 4096
        # characters); together they show each table once with every seat, and who sits out.
        assert {int(m.group(2)) for text in pages if (m := _PAGE.search(text))} == {len(pages)}
        assert len(pages) > 1
        tables = [int(t) for text in pages for t in re.findall(r"Стол (\d+) · судья", text)]
        assert tables == list(range(1, 31))
        seats = [
            m.group(1) for text in pages for line in text.splitlines() if (m := _SEAT.match(line))
        ]
        assert len(seats) == 300 and len(set(seats)) == 300
        assert "Не играют:" in pages[-1]

        # The last page keeps its own tables' judge buttons; a press stays on that page.
        judge_button = next(b for b in _buttons(last) if b.startswith("Стол 30:"))
        assert not any(b.startswith("Стол 1:") for b in _buttons(last))
        changed = await _turn(organizer, last, judge_button)
        assert "Стол 30 · судья" in (changed.text or "")
        assert judge_button not in _buttons(changed)
        after = await app.services.rounds_preview.stage_preview(Actor(ORGANIZER, NOW), tournament)
        assert after.stage.rounds[0].games[29].judge_id != first_round.games[29].judge_id

        # Back to the first page by "◀", and the round is published from the view.
        while back := [b for b in _buttons(changed) if b.startswith("◀ стол")]:
            changed = await _turn(organizer, changed, back[0])
        assert "Страница 1 из" in (changed.text or "")
        await press(organizer, changed, "Опубликовать тур 1", "Тур 1: опубликован", TIMEOUT)
        await channel.wait_for(containing("тур 1"), TIMEOUT)
