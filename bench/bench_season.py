"""The season at scale on PostgreSQL: one series of 50 rated tournaments, 5,000 players and
20,000 games. Prints (never asserts) the figures of issue #28:
- a full recompute of every rating (target: within 10 s of CPU);
- one confirmation's rating update, the last game in the order (target: within 20 ms);
- a profile and the series' table, p95 over repeated reads (target: under 50 ms); the table
  is kept by what it was built from, so its rebuild after a change is printed as well.

The data goes straight into a fresh database with COPY (persons, tournaments, participants,
stages, rounds, games, seats, protocols), then the use cases run on it.

Run: .venv/bin/python bench/bench_season.py   (MAFIATOUR_BENCH_POSTGRES_URL to point elsewhere;
default postgresql+asyncpg://postgres@127.0.0.1:5432/test; a database is created and dropped)
"""

from __future__ import annotations

import asyncio
import os
import platform
import random
import statistics
import time
import uuid
from datetime import UTC, date, datetime, timedelta

import asyncpg
from sqlalchemy.engine import make_url

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.repositories.protocols import protocol_json
from bot.db.uow import SqlUnitOfWorkFactory
from domain.cards import Role, Side
from domain.protocol import Protocol, SeatRecord
from domain.services.catalog import build_services
from domain.services.rating_sync import after_game

TOURNAMENTS = 50
PLAYERS = 5000
GAMES = 20_000
PER_TOURNAMENT = 200  # players registered for each tournament
TABLES = 20  # games per round
CONFIRMATIONS = 30
READS = 40
REBUILDS = 10
ROLES = [Role.CIVILIAN] * 6 + [Role.SHERIFF, Role.MAFIA, Role.MAFIA, Role.DON]
AT = datetime(2026, 1, 1, 10, 0, tzinfo=UTC)
URL = os.environ.get(
    "MAFIATOUR_BENCH_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)


def _dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _protocol(rng: random.Random, participants: list[int]) -> str:
    roles = rng.sample(ROLES, 10)
    seats = tuple(
        SeatRecord(str(p), role, rng.randint(0, 2))
        for p, role in zip(participants, roles, strict=True)
    )
    victim = rng.randint(1, 10)
    best = tuple(rng.sample([s for s in range(1, 11) if s != victim], 3))
    red_victim = roles[victim - 1].side is Side.RED
    return protocol_json(
        Protocol(seats, rng.choice(list(Side)), victim, 1, best if red_victim else ())
    )


class Ids:
    """Row ids handed out as the data is generated."""

    def __init__(self) -> None:
        self.participant = self.round = self.game = 0


async def _copy(
    connection: asyncpg.Connection, table: str, columns: tuple[str, ...], rows: list
) -> None:
    await connection.copy_records_to_table(table, records=rows, columns=columns)


async def _tournament(
    connection: asyncpg.Connection, rng: random.Random, number: int, ids: Ids
) -> None:
    """One finished, rated tournament of 200 players and 400 games in one stage."""
    tid = number + 1
    day = date(2026, 1, 4) + timedelta(days=7 * number)
    state = "running" if tid == TOURNAMENTS else "finished"
    await connection.execute(
        "INSERT INTO tournaments (id, title, regulation_id, state, timezone, created_by, "
        "created_at, starts_on, current_stage, series_id, rated, category_stars) VALUES "
        "($1, $2, 'black-raven-cup', $3, 'UTC', 7, $4, $5, 'qualifying', 1, true, 2)",
        tid,
        f"Tournament {tid}",
        state,
        AT,
        day,
    )
    persons = rng.sample(range(1, PLAYERS + 1), PER_TOURNAMENT)
    participants = []
    for person in persons:
        ids.participant += 1
        participants.append(
            (
                ids.participant,
                tid,
                None,
                f"P{person}",
                f"Club {person % 60}",
                "City",
                "registered",
                AT,
                False,
                False,
                person,
            )
        )
    await _copy(
        connection,
        "participants",
        (
            "id",
            "tournament_id",
            "user_id",
            "nickname",
            "club",
            "city",
            "status",
            "registered_at",
            "paid",
            "checked_in",
            "person_id",
        ),
        participants,
    )
    await connection.execute(
        "INSERT INTO stages (id, tournament_id, stage, seed, created_at) "
        "VALUES ($1, $1, 'qualifying', 0, $2)",
        tid,
        AT,
    )
    await connection.execute("INSERT INTO standings (tournament_id, version) VALUES ($1, 1)", tid)
    games = GAMES // TOURNAMENTS
    rounds: list[tuple[object, ...]] = []
    game_rows: list[tuple[object, ...]] = []
    seats: list[tuple[object, ...]] = []
    protocols: list[tuple[object, ...]] = []
    pool = [int(row[0]) for row in participants]
    for number_in in range(games // TABLES):
        ids.round += 1
        rounds.append((ids.round, tid, number_in + 1, "[]", AT))
        rng.shuffle(pool)
        for table in range(TABLES):
            ids.game += 1
            at_table = pool[table * 10 : table * 10 + 10]
            game_rows.append((ids.game, ids.round, table + 1, "confirmed", 1))
            seats.extend((ids.game, seat, p) for seat, p in enumerate(at_table, start=1))
            protocols.append((ids.game, _protocol(rng, at_table), 7, AT))
    await _copy(
        connection, "rounds", ("id", "stage_id", "number", "sit_outs", "published_at"), rounds
    )
    await _copy(
        connection, "games", ("id", "round_id", "table_number", "state", "version"), game_rows
    )
    await _copy(connection, "game_seats", ("game_id", "seat", "participant_id"), seats)
    await _copy(
        connection, "protocols", ("game_id", "body", "confirmed_by", "confirmed_at"), protocols
    )


async def _generate(url: str) -> Ids:
    connection = await asyncpg.connect(_dsn(url))
    rng = random.Random(28)
    ids = Ids()
    try:
        async with connection.transaction():
            await connection.execute(
                "INSERT INTO users (telegram_id, first_name, locale) VALUES (7, 'Org', 'ru')"
            )
            await connection.execute(
                "INSERT INTO series (id, title, created_by, created_at, locale) "
                "VALUES (1, 'Season', 7, $1, 'ru')",
                AT,
            )
            await _copy(
                connection,
                "persons",
                ("id", "telegram_id", "nickname", "club", "city", "hidden", "created_at"),
                [
                    (p, None, f"P{p}", f"Club {p % 60}", "City", False, AT)
                    for p in range(1, PLAYERS + 1)
                ],
            )
            for number in range(TOURNAMENTS):
                await _tournament(connection, rng, number, ids)
            for table in (
                "persons",
                "participants",
                "stages",
                "rounds",
                "games",
                "tournaments",
                "series",
            ):
                await connection.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
    finally:
        await connection.close()
    return ids


async def _new_game(url: str, rng: random.Random, ids: Ids) -> int:
    """One more confirmed game at the end of the last tournament (a new round)."""
    connection = await asyncpg.connect(_dsn(url))
    try:
        ids.round += 1
        ids.game += 1
        await connection.execute(
            "INSERT INTO rounds (id, stage_id, number, sit_outs, published_at) "
            "VALUES ($1, $2, $3, '[]', $4)",
            ids.round,
            TOURNAMENTS,
            ids.round,
            AT,
        )
        await connection.execute(
            "INSERT INTO games (id, round_id, table_number, state, version) "
            "VALUES ($1, $2, 1, 'confirmed', 1)",
            ids.game,
            ids.round,
        )
        players = [
            row["id"]
            for row in await connection.fetch(
                "SELECT id FROM participants WHERE tournament_id = $1", TOURNAMENTS
            )
        ]
        at_table = rng.sample(players, 10)
        await connection.execute(
            "INSERT INTO protocols (game_id, body, confirmed_by, confirmed_at) "
            "VALUES ($1, $2, 7, $3)",
            ids.game,
            _protocol(rng, at_table),
            AT,
        )
    finally:
        await connection.close()
    return ids.game


def _p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


def _ms(values: list[float]) -> str:
    return (
        f"median {statistics.median(values) * 1000:.1f} ms, p95 {_p95(values) * 1000:.1f} ms, "
        f"max {max(values) * 1000:.1f} ms"
    )


async def _measure(url: str, ids: Ids) -> None:
    engine = create_engine(url)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    services = build_services(uow_factory)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        games = await services.series.recompute_ratings()
        print(
            f"full recompute: {games} games in {time.perf_counter() - wall:.2f} s wall, "
            f"{time.process_time() - cpu:.2f} s CPU (target: within 10 s of CPU)"
        )
        rng = random.Random(7)
        updates, cpus = [], []
        for _ in range(CONFIRMATIONS):
            game_id = await _new_game(url, rng, ids)
            start, cpu_start = time.perf_counter(), time.process_time()
            async with uow_factory() as uow:
                await after_game(uow, TOURNAMENTS, game_id)
                await uow.commit()
            updates.append(time.perf_counter() - start)
            cpus.append(time.process_time() - cpu_start)
        print(
            f"one confirmation's rating update ({CONFIRMATIONS} games): {_ms(updates)} "
            "(target: within 20 ms)"
        )
        print(f"  of it the bot's own CPU: {_ms(cpus)}")
        await services.series.series_view(1)  # the first read computes the 50 standings
        tables = []
        for _ in range(READS):
            start = time.perf_counter()
            view = await services.series.series_view(1)
            tables.append(time.perf_counter() - start)
        print(
            f"series table read again ({len(view.players)} players, {len(view.clubs)} clubs): "
            f"{_ms(tables)} (target: p95 under 50 ms)"
        )
        rebuilt = []
        for _ in range(REBUILDS):
            game_id = await _new_game(url, rng, ids)
            async with uow_factory() as uow:
                await after_game(uow, TOURNAMENTS, game_id)
                await uow.commit()
            start = time.perf_counter()
            await services.series.series_view(1)
            rebuilt.append(time.perf_counter() - start)
        print(f"series table rebuilt after a confirmation ({REBUILDS} times): {_ms(rebuilt)}")
        profiles, profile_cpus = [], []
        for person in rng.sample(range(1, PLAYERS + 1), READS):
            start, cpu_start = time.perf_counter(), time.process_time()
            await services.profiles.profile(person)
            profiles.append(time.perf_counter() - start)
            profile_cpus.append(time.process_time() - cpu_start)
        print(f"profile ({READS} players): {_ms(profiles)} (target: p95 under 50 ms)")
        print(f"  of it the bot's own CPU: {_ms(profile_cpus)}")
    finally:
        await engine.dispose()


async def main() -> None:
    name = f"mt_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(_dsn(URL))
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = make_url(URL).set(database=name).render_as_string(hide_password=False)
    try:
        engine = create_engine(url)
        await upgrade(engine)
        await engine.dispose()
        start = time.perf_counter()
        ids = await _generate(url)
        print(
            f"season: {TOURNAMENTS} tournaments, {PLAYERS} players, {ids.game} games "
            f"(generated in {time.perf_counter() - start:.1f} s)"
        )
        await _measure(url, ids)
    finally:
        if os.environ.get("MAFIATOUR_BENCH_KEEP"):
            print(f"kept: {url}")
        else:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    cpu = platform.processor() or "unknown CPU"
    print(
        f"machine: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        "load average " + ", ".join(f"{load:.2f}" for load in os.getloadavg())
    )


if __name__ == "__main__":
    asyncio.run(main())
