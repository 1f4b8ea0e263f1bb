"""A removed player cannot be shot: the judge's protocol screen refuses a disqualified player
as the first victim (and a disqualification of the first victim), saying why."""

from __future__ import annotations

from tests.e2e.test_protocol import Table, open_from_round_message, table

__all__ = ["table"]  # the fixture, shared with the protocol screen's other tests


async def test_a_removed_player_is_refused_as_the_first_victim(table: Table) -> None:
    screen = await open_from_round_message(table)
    await screen.tap("Фолы")
    await screen.tap("Дисквалификация")
    await screen.tap("4")
    assert "дисквалифицирован" in screen.text
    await screen.tap("ПУ")
    refused = await screen.tap("4")
    assert refused.show_alert and "удалённого нельзя убить" in (refused.text or "")
    assert "Первый убитый: не указан" in screen.text
    # The other way round: the first victim cannot be disqualified afterwards either.
    await screen.tap("3")
    await screen.tap("Фолы")
    await screen.tap("Дисквалификация")
    refused = await screen.tap("3")
    assert refused.show_alert and "удалённого нельзя убить" in (refused.text or "")
