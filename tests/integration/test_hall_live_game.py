"""The hall screen shows a final's one table live (its section reads the game's live page on
each of its events); a round of several tables shows their seating only, each game being
played linked to its live page."""

from __future__ import annotations

import random
from dataclasses import replace

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bench.bench_web import tournament
from bot.config import Settings
from bot.web import pages
from domain.public_view import PublicRound, PublicSeat, PublicTable, PublicTournament


def _round(tables: int) -> PublicRound:
    seats = tuple(PublicSeat(seat, str(seat), f"Игрок {seat:03d}") for seat in range(1, 11))
    return PublicRound(
        "qualifying",
        1,
        tuple(
            PublicTable(table, None, seats, False, game_id=40 + table, live=True)
            for table in range(1, tables + 1)
        ),
        (),
    )


async def _hall(view: PublicTournament) -> str:
    async def read(_tournament_id: int) -> PublicTournament:
        return view

    app = web.Application()
    settings = Settings(bot_token="1:x", _env_file=None)  # type: ignore[call-arg]
    pages.install(
        app,
        None,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        settings,
        lambda _listener: None,
        reader=read,
    )
    async with TestClient(TestServer(app)) as client:
        response = await client.get("/t/1/hall")
        assert response.status == 200
        return await response.text()


async def test_a_finals_one_table_is_shown_live_on_the_hall_screen() -> None:
    view = tournament(10, random.Random(1))
    final = await _hall(replace(view, rounds=(_round(1),)))
    assert 'id="hall-game"' in final
    assert 'data-events="/t/1/games/41/live/events?lang=ru"' in final
    assert "game_feed.js" in final
    several = await _hall(replace(view, rounds=(_round(2),)))
    assert 'id="hall-game"' not in several
    assert several.count("/games/41/live?lang=ru") == 1
    assert several.count("/games/42/live?lang=ru") == 1
