"""The public web pages: the standings page of a 300-player tournament, and 1,000 open live
connections in one process (targets: page p95 under 50 ms; every connection told of a change
within 2 s).

Run: .venv/bin/python bench/bench_web.py [--players 300] [--connections 1000]

The tournament (300 players, 10 rounds of 30 tables, every game confirmed) is built in
memory and served by the real page code on a local port; requests go over HTTP. Figures: the
page drawn anew (the first request after a change: the view's rendering) and served from the
cache, then the time from a change until the last of the open Server-Sent Events streams
heard of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import statistics
import time
from datetime import UTC, datetime
from decimal import Decimal
from types import SimpleNamespace

import aiohttp
from aiohttp import web

from bot.web import pages
from domain.cards import Role, Side
from domain.protocol import Protocol, SeatRecord
from domain.public_view import PublicHeader, PublicTournament
from domain.regulation import load_preset
from domain.standings import GameRecord, PlayerEntry
from domain.standings_board import PlayedGame, standings_board
from domain.tournament import TournamentState, WebVisibility

ROLES = [Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON]
NOW = datetime(2026, 12, 1, tzinfo=UTC)
REQUESTS = 200


def tournament(players: int, rng: random.Random) -> PublicTournament:
    regulation = load_preset("black-raven-cup")
    entries = [PlayerEntry(str(n), f"Игрок {n:03d}") for n in range(1, players + 1)]
    games = []
    for round_ in range(1, 11):
        order = rng.sample(entries, len(entries))
        for table in range(len(entries) // 10):
            seated = order[table * 10 : table * 10 + 10]
            roles = rng.sample(ROLES, 10)
            seats = tuple(
                SeatRecord(p.id, role, rng.randint(0, 2), None, Decimal(rng.choice([0, 0, 0.5])))
                for p, role in zip(seated, roles, strict=True)
            )
            protocol = Protocol(seats, rng.choice(list(Side)), rng.randint(1, 10), 1, ())
            games.append(PlayedGame(GameRecord("qualifying", round_, table + 1, protocol)))
    board = standings_board("Кубок", regulation, entries, [], games, None, "qualifying", NOW)
    header = PublicHeader(
        1,
        "Кубок",
        TournamentState.RUNNING,
        "ru",
        "Омск",
        None,
        None,
        None,
        regulation,
        "qualifying",
    )
    return PublicTournament(header, board, (), (), WebVisibility.PUBLIC, None)


async def _serve(view: PublicTournament, port: int) -> tuple[web.AppRunner, pages.PageCache]:
    async def read(_tournament_id: int) -> PublicTournament:
        return view

    app = web.Application()
    settings = SimpleNamespace(web_base_url=None)
    cache = pages.install(
        app,
        None,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        settings,  # type: ignore[arg-type]
        lambda _listener: None,
        reader=read,
    )
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner, cache


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[18]


async def page_figures(url: str, cache: pages.PageCache) -> tuple[list[float], list[float]]:
    drawn: list[float] = []
    cached: list[float] = []
    async with aiohttp.ClientSession() as http:
        for number in range(REQUESTS):
            fresh = number % 2 == 0
            if fresh:
                cache.changed([1])
            started = time.perf_counter()
            async with http.get(url) as response:
                body = await response.text()
                assert response.status == 200 and "Игрок" in body
            (drawn if fresh else cached).append((time.perf_counter() - started) * 1000)
    return drawn, cached


async def live_figures(base: str, cache: pages.PageCache, connections: int) -> tuple[float, int]:
    told = 0
    all_told = asyncio.Event()
    ready = 0
    all_ready = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout()) as http:

        async def listen() -> None:
            nonlocal told, ready
            async with http.get(base + "/t/1/events") as response:
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
        started = time.perf_counter()
        cache.changed([1])
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(all_told.wait(), 30)
        elapsed = time.perf_counter() - started
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return elapsed, told


async def main(players: int, connections: int) -> None:
    view = tournament(players, random.Random(1))
    port = 18_000 + os.getpid() % 1000
    runner, cache = await _serve(view, port)
    base = f"http://127.0.0.1:{port}"
    try:
        drawn, cached = await page_figures(base + "/t/1", cache)
        print(
            f"standings page, {players} players, {view.board.games} games: "
            f"p95 {p95(drawn):.1f} ms drawn anew after a change (median "
            f"{statistics.median(drawn):.1f}), p95 {p95(cached):.1f} ms from the cache "
            f"(median {statistics.median(cached):.1f}); target p95 < 50 ms"
        )
        elapsed, told = await live_figures(base, cache, connections)
        print(
            f"live: {told} of {connections} open event streams told of a change within "
            f"{elapsed:.2f} s; target all within 2 s"
        )
    finally:
        await runner.cleanup()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--connections", type=int, default=1000)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.players, arguments.connections))
