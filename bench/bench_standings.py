"""Recompute standings for 1,000 players and 2,000 games (target: under 0.2 s).

Run: .venv/bin/python bench/bench_standings.py
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time
from decimal import Decimal

from domain.cards import Role, Side
from domain.protocol import Protocol, SeatRecord
from domain.regulation import load_preset
from domain.standings import GameRecord, PlayerEntry, TeamEntry, compute_standings

PLAYERS = 1000
GAMES = 2000
RUNS = 5
ROLES = [Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON]


def tournament(rng: random.Random) -> tuple[list[PlayerEntry], list[TeamEntry], list[GameRecord]]:
    """A team tournament of 1,000 players (teams of 3 and one of 1) and 2,000 valid games."""
    players = [PlayerEntry(f"p{n:04d}", f"Player {n}", f"t{n // 3:03d}") for n in range(PLAYERS)]
    teams = [TeamEntry(f"t{n:03d}", f"Team {n}") for n in range((PLAYERS + 2) // 3)]
    games = []
    for number in range(GAMES):
        seated = rng.sample(players, 10)
        roles = rng.sample(ROLES, 10)
        victim = rng.randint(1, 10)
        best_move = tuple(rng.sample([s for s in range(1, 11) if s != victim], 3))
        extra = {rng.choice([s for s in range(1, 11) if s != victim]): Decimal("1.0")}
        seats = tuple(
            SeatRecord(p.id, role, rng.randint(0, 3), None, extra.get(seat, Decimal(0)))
            for seat, (p, role) in enumerate(zip(seated, roles, strict=True), start=1)
        )
        protocol = Protocol(seats, rng.choice(list(Side)), victim, rng.randint(1, 2), best_move)
        stage = "qualifying" if number < GAMES * 3 // 4 else "final"
        games.append(GameRecord(stage, number // 100 + 1, number % 100 + 1, protocol))
    return players, teams, games


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def load_average() -> str:
    """The machine's load average (1, 5, 15 minutes), as `uptime` prints it: on a shared
    machine a wall-clock figure means little without it."""
    return "load average " + ", ".join(f"{load:.2f}" for load in os.getloadavg())


def main() -> None:
    regulation = load_preset("siberia-ural-teams")
    players, teams, games = tournament(random.Random(2015))
    walls, cpus = [], []
    for _ in range(RUNS):
        wall, cpu = time.perf_counter(), time.process_time()
        standings = compute_standings(regulation, players, teams, games)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(f"standings: {PLAYERS} players, {len(teams)} teams, {GAMES} games, {RUNS} runs")
    print(f"wall: median {statistics.median(walls):.3f} s, best {min(walls):.3f} s")
    print(f"cpu:  median {statistics.median(cpus):.3f} s, best {min(cpus):.3f} s (target < 0.2 s)")
    print(f"leader: {standings.players[0].id} with {standings.players[0].points} points")
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
