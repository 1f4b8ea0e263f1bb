"""The live game's page: its drawing after a tap, and 1,000 spectators' open event streams of
one game told of the judge's tap (the target: all within a second), served in one process
from a game built in memory (the log read through a stand-in for the database)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import statistics
import time
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace, TracebackType
from typing import Any

import aiohttp
from aiohttp import web

from bot.clock import FixedClock
from bot.web import pages
from bot.web.pages.games import WATCH
from domain.cards import Side
from domain.game_log import Entry, Foul, Phase, replay
from domain.live_table import StreamLink
from domain.public_view import (
    PublicHeader,
    PublicRound,
    PublicSeat,
    PublicTable,
    PublicTournament,
)
from domain.regulation import load_preset
from domain.services.catalog import build_services
from domain.standings import PlayerEntry
from domain.standings_board import standings_board
from domain.tournament import TournamentState, WebVisibility
from harness.simulation.games import GamePlan
from harness.simulation.live_game import live_actions

GAME = 41
NOW = datetime(2026, 12, 1, tzinfo=UTC)
CUP = load_preset("black-raven-cup")
PLAN = GamePlan(10, 7, (8, 9), ((2, 2),), (), 1, 1, (8, 9, 10), ((3, 3),), Side.RED)


class StoredLog:
    """The game's log and stream link as the database would give them."""

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries
        self.game_logs = self
        self.stream_links = self

    def __call__(self) -> StoredLog:
        return self

    async def __aenter__(self) -> StoredLog:
        return self

    async def __aexit__(
        self, *_exc: type[BaseException] | BaseException | TracebackType | None
    ) -> None:
        return None

    async def log(self, _game_id: int) -> tuple[tuple[Entry, ...], int]:
        return tuple(self.entries), len(self.entries)

    async def get(self, game_id: int) -> StreamLink:
        return StreamLink(game_id, "bench", 0)


def _view() -> PublicTournament:
    """A running tournament whose one published table is being played live."""
    entries = [PlayerEntry(str(n), f"Игрок {n:03d}") for n in range(1, 11)]
    board = standings_board("Кубок", CUP, entries, [], [], None, "qualifying", NOW)
    header = PublicHeader(
        1, "Кубок", TournamentState.RUNNING, "ru", None, None, None, None, CUP, "qualifying"
    )
    seats = tuple(PublicSeat(n, e.id, e.nickname) for n, e in enumerate(entries, start=1))
    table = PublicTable(1, None, seats, False, game_id=GAME, live=True)
    rounds = (PublicRound("qualifying", 1, (table,), ()),)
    return PublicTournament(header, board, rounds, (), WebVisibility.PUBLIC, None)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


def third_day_log() -> list[Entry]:
    actions = live_actions(PLAN, CUP)
    # A game in its third day: most of the log is there to replay.
    count = next(n for n in range(len(actions)) if replay(actions[:n], CUP).day == 3)
    return [Entry(a, NOW + timedelta(seconds=10 * i), 1) for i, a in enumerate(actions[:count])]


async def serve(port: int, log: StoredLog) -> tuple[web.AppRunner, Any]:
    view = _view()

    async def read(_tournament_id: int) -> PublicTournament:
        return view

    app = web.Application()
    settings = SimpleNamespace(web_base_url=None)
    listeners: list[Any] = []
    clock = FixedClock(NOW + timedelta(hours=1))
    pages.install(
        app,
        build_services(log),  # type: ignore[arg-type]
        clock,
        settings,  # type: ignore[arg-type]
        lambda _l: None,
        reader=read,
        add_game_listener=listeners.append,
    )
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, app[WATCH]


async def page_figures(url: str, log: StoredLog, watch: Any, requests: int) -> list[float]:
    figures = []
    async with aiohttp.ClientSession() as http:
        for _ in range(requests):
            watch.changed([GAME])
            started = time.perf_counter()
            async with http.get(url) as response:
                assert response.status == 200 and "Игрок 001" in await response.text()
            figures.append((time.perf_counter() - started) * 1000)
    return figures


async def live_figures(url: str, log: StoredLog, watch: Any, connections: int) -> tuple[float, int]:
    told = ready = 0
    all_told, all_ready = asyncio.Event(), asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout()) as http:

        async def listen() -> None:
            nonlocal told, ready
            async with http.get(url) as response:
                async for line in response.content:
                    if line.startswith(b"event: ready"):
                        ready += 1
                        if ready == connections:
                            all_ready.set()
                    elif line.startswith(b"event: change"):
                        told += 1
                        if told == connections:
                            all_told.set()
                        return

        tasks = [asyncio.create_task(listen()) for _ in range(connections)]
        await asyncio.wait_for(all_ready.wait(), 120)
        # The judge's tap: a foul (every spectator sees it), stored, then the commit's mark.
        last = log.entries[-1]
        log.entries.append(Entry(Foul(3), last.at + timedelta(seconds=1), 1))
        started = time.perf_counter()
        watch.changed([GAME])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(all_told.wait(), 30)
        elapsed = time.perf_counter() - started
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return elapsed, told


async def main(connections: int, requests: int) -> None:
    log = StoredLog(third_day_log())
    assert replay((e.action for e in log.entries), CUP).phase is not Phase.FINISHED
    port = 18_000 + os.getpid() % 1000
    runner, watch = await serve(port, log)
    base = f"http://127.0.0.1:{port}/t/1/games/{GAME}"
    try:
        for name, path in (("live page", "/live"), ("stream overlay", "/stream/bench")):
            figures = await page_figures(base + path, log, watch, requests)
            print(
                f"{name}, {len(log.entries)} actions replayed: p95 {p95(figures):.1f} ms after "
                f"a change (median {statistics.median(figures):.1f})"
            )
        elapsed, told = await live_figures(base + "/live/events", log, watch, connections)
        print(
            f"live: {told} of {connections} spectators' event streams told of a tap within "
            f"{elapsed:.2f} s; target all within 1 s"
        )
    finally:
        await runner.cleanup()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=100)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.connections, arguments.requests))
