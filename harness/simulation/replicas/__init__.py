"""A whole tournament played on several bot processes behind one webhook, as a federation would
run it for availability: N `mafiatour run` processes in webhook mode on one PostgreSQL and one
Redis, the fake Telegram delivering the updates round-robin to their webhooks (the load
balancer), optionally one of them killed with SIGKILL in the middle and started again.

The one killed is the holder of the scheduler's lease, at a round whose players the scheduler
must remind: once the round is published, the organizer moves its game in the timetable (on
his screen, through whichever replica the update reaches) so that its players' reminders fall
due a little later, the holder is killed before they do, and the round is played once every
player has his reminder (another replica took the lease over and sent them).

`play_on_replicas` returns the run's figures and what the delivery promise is checked against:
the outbox's statuses, the possible duplicates it recorded, and the duplicates the fake saw;
and the reminded round's players, the reminders each received and how long the takeover took.

The benchmarks run metered replicas (`harness.simulation.metered`: the same bot with the
simulation's meter); their records are joined with what the fake saw by update id, so each
update's kind (the phase it came in, its sender, its button) goes with the transactions and
CPU the replica measured. bench_simulation.py plays on one such process polling the fake
Telegram, without Redis, as a single server runs.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo

from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.clock import ScaledClock
from bot.db.engine import SQLITE_BUSY_TIMEOUT_MS, create_engine, create_session_factory, is_sqlite
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from harness.fake_telegram import FakeTelegram, RateLimits
from harness.simulation import TELEGRAM_LIMITS, entry_of, players_for
from harness.simulation.figures import Figures, message_kinds, percentile
from harness.simulation.measure import pictures_line
from harness.simulation.metered import read_records
from harness.simulation.people import ORGANIZER_ID, Cast, cast_of
from harness.simulation.progress import Progress
from harness.simulation.replicas.delivery import (
    DELIVERY_WAIT,
    Delivered,
    delivered,
    delivery_check,
)
from harness.simulation.replicas.phases import Phases
from harness.simulation.replicas.process import Replica, free_port, memory
from harness.simulation.replicas.takeover import (
    TIMEZONE,
    KillAtReminders,
    Reminded,
    received,
)
from harness.simulation.report import Outcome, read_outcome, windows_closed
from harness.simulation.roles import Pace, people
from harness.simulation.scenario import Entry, Played, Tournament, stage_tables

__all__ = ["Delivered", "Reminded", "ReplicaRun", "play_on_replicas"]

SECRET = "replicas-webhook-secret"
# The replicas' leases (the LEASE_SECONDS setting; 30 s by default): a third of the default,
# still several renewals (every 3.3 s) beyond a loaded machine's pauses.
LEASE_SECONDS = 10.0


async def _reader(url: str) -> AsyncEngine:
    """The database migrated, and an engine for this process's reads: the bot's processes
    write. On SQLite the bot's engine begins every transaction IMMEDIATE (the write lock up
    front); these reads run without one, each statement on its own snapshot (WAL), so a poll
    of this busy process never holds up the bot's writes."""
    engine = create_engine(url)
    await upgrade(engine)
    if not is_sqlite(url):
        return engine
    await engine.dispose()
    return create_async_engine(url, connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000})


async def _transactions(engine: AsyncEngine) -> int | None:
    """PostgreSQL's count of the transactions on the database so far; None on SQLite."""
    if engine.dialect.name != "postgresql":
        return None
    async with engine.connect() as connection:
        done = await connection.scalar(
            text(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database "
                "WHERE datname = current_database()"
            )
        )
    return int(done or 0)


@dataclass(frozen=True)
class ReplicaRun:
    outcome: Outcome
    figures: Figures
    delivered: Delivered
    killed: bool
    restarts: int
    reminded: Reminded | None
    phases: Phases
    # What the scripted people noted (the protest, the lots drawn).
    notes: tuple[str, ...] = ()
    # Games the judges ran live in the Mini App: its requests go to the bot's web
    # application (in the bot's process CPU), they are no updates.
    live_games: int = 0

    def lines(self) -> list[str]:
        """The figures bench_simulation.py prints for one process, then by stage, the
        memory, the standings pictures' CPU and the garbage collector's pauses (from metered
        replicas)."""
        messages = sum(self.delivered.statuses.values())
        lines = [*self.figures.lines(), *self.phases.lines(self.figures.updates, messages)]
        measured = self.phases.measured
        if measured is not None:
            if pictures := pictures_line(measured.pictures):
                lines.append(pictures)
            lines.append(measured.collector.line())
            lines += measured.stalls.lines()
        if self.live_games:
            lines.append(
                f"games run live in the Mini App: {self.live_games} (its requests are in the "
                "bot's process CPU, not among the updates)"
            )
        return lines


@dataclass
class _Options:
    regulation: str
    players: int | None
    seed: int
    speed: float
    table_speed: float | None
    registration_in_order: bool
    replicas: int
    kill_after_updates: int | None
    database_url: str
    redis_url: str | None
    folder: Path
    out: TextIO
    metered: bool
    webhook: bool
    live: bool


async def play_on_replicas(
    *,
    database_url: str,
    redis_url: str | None,
    folder: Path,
    out: TextIO,
    regulation: str = "black-raven-cup",
    players: int | None = None,
    seed: int = 1,
    speed: float = 50.0,
    table_speed: float | None = None,
    registration_in_order: bool = True,
    replicas: int = 3,
    kill_after_updates: int | None = None,
    metered: bool = False,
    webhook: bool = True,
    live: bool = False,
) -> ReplicaRun:
    """Play a whole tournament on `replicas` processes (on `database_url`, and a Redis
    database `redis_url` that is emptied first, or none: one process on SQLite or PostgreSQL
    alone, as a single server runs it); with `kill_after_updates`, at the first round
    published once that many updates were delivered, the scheduler's lease holder is killed
    before the round's reminders fall due, and started again (see the module's doc).

    `metered` runs `harness.simulation.metered` instead of `mafiatour run` (the same bot with the
    simulation's meter: each update's transactions and CPU); without `webhook`, the one
    process polls the fake Telegram (as a single server without WEBHOOK_URL does); `live`
    has some judges run their games live in the Mini App its web application serves;
    `table_speed` is the judges' pace at their tables when not `speed` (`roles.Pace`); not
    `registration_in_order`, players confirm their registrations as they come (`roles.Turns`)."""
    if not webhook and replicas != 1:
        raise ValueError("only one process polls Telegram: several replicas take webhooks")
    options = _Options(
        regulation,
        players,
        seed,
        speed,
        table_speed,
        registration_in_order,
        replicas,
        kill_after_updates,
        database_url,
        redis_url,
        folder,
        out,
        metered,
        webhook,
        live,
    )
    return await _play(options)


@dataclass
class _Stage:
    """What a run plays on: the fake Telegram, the bot's processes, this harness's reads of
    the database and the bot's clock."""

    fake: FakeTelegram
    group: list[Replica]
    engine: AsyncEngine
    uow_factory: SqlUnitOfWorkFactory
    clock: ScaledClock


async def _play(options: _Options) -> ReplicaRun:
    started = time.perf_counter()
    entry = entry_of(options.regulation)
    count = players_for(entry.regulation, options.players)
    cast = cast_of(
        options.seed, count, max(stage_tables(entry.regulation, count)), entry.regulation.team_size
    )
    scale = max(1, round(options.speed))
    total, private, channel = (limit * scale for limit in TELEGRAM_LIMITS)
    # A bot of its own: the Redis keys of earlier runs never meet this one's.
    token = f"{random.randrange(10**8, 10**9)}:REPLICAS-TEST-TOKEN"
    fake = FakeTelegram(token=token, enforce_limits=RateLimits(total, private, channel))
    await fake.start()
    engine = await _reader(options.database_url)
    clock = ScaledClock.shared(time.time(), options.speed)
    # The judges' Mini App opens on the bot's time (its launch data expires after 24 hours).
    fake.world.web_app_clock = lambda: clock.now().timestamp()
    await _empty_redis(options.redis_url)
    env = bot_env(
        fake,
        clock,
        (total, private, channel),
        database_url=options.database_url,
        redis_url=options.redis_url,
        webhook=options.webhook,
    )
    group = [_replica(number, env, options) for number in range(1, options.replicas + 1)]
    stage = _Stage(fake, group, engine, SqlUnitOfWorkFactory(create_session_factory(engine)), clock)
    if options.webhook:
        fake.deliver_webhooks([replica.webhook for replica in group])
    try:
        await asyncio.gather(*(replica.start() for replica in group))
        phases = Phases(fake, group)
        phases.idle = [memory(replica, "VmRSS") for replica in group]
        options.out.write(
            f"{entry.regulation.name.ru}: {count} игроков на {options.replicas} процессах, "
            f"seed {options.seed}, скорость ×{options.speed:g}\n"
        )
        played, killing, outcome, delivered = await _tournament(options, stage, phases, entry, cast)
    finally:
        await asyncio.gather(*(replica.stop() for replica in group))
        await fake.stop()
        await engine.dispose()
    if options.metered:
        phases.measured = read_records(replica.records for replica in group)
    return ReplicaRun(
        outcome,
        _figures(fake, group, started),
        delivered,
        killing.reminded is not None,
        sum(replica.starts - 1 for replica in group),
        killing.reminded,
        phases,
        played.notes,
        played.live_games,
    )


async def _empty_redis(url: str | None) -> None:
    """Conversation states of earlier runs would meet this run's."""
    if url is None:
        return
    redis = Redis.from_url(url)
    try:
        await redis.flushdb()
    finally:
        await redis.aclose()


def bot_env(
    fake: FakeTelegram,
    clock: ScaledClock,
    limits: tuple[int, int, int],
    *,
    database_url: str,
    redis_url: str | None,
    webhook: bool,
) -> dict[str, str]:
    """The bot processes' environment: this run's fake Telegram, database, limits and clock."""
    total, private, channel = limits
    own = ("WEBHOOK_", "WEB_", "REDIS_URL", "DATABASE_URL")
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(own)},
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.base_url,
        "DATABASE_URL": database_url,
        **({"REDIS_URL": redis_url} if redis_url is not None else {}),
        # The public address a load balancer would have; the fake calls each replica.
        **({"WEBHOOK_URL": "http://127.0.0.1:9/hook", "WEBHOOK_SECRET": SECRET} if webhook else {}),
        "WEB_HOST": "127.0.0.1",
        "ADMIN_IDS": str(ORGANIZER_ID),
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "json",
        "DELIVERY_MESSAGES_PER_SECOND": str(total),
        "DELIVERY_PRIVATE_CHAT_PER_SECOND": str(private),
        "DELIVERY_GROUP_PER_MINUTE": str(channel),
        # A killed replica's duties (the scheduler, the messages it had claimed) pass to another
        # within LEASE_SECONDS (30 s in production): the runs wait seconds for it, not a minute.
        "LEASE_SECONDS": str(LEASE_SECONDS),
        # The bot's time runs as fast as its people act, the same in every replica.
        "CLOCK_RATE": str(clock.rate),
        "CLOCK_ORIGIN": repr(clock.start.timestamp()),
    }


async def _tournament(
    options: _Options, stage: _Stage, phases: Phases, entry: Entry, cast: Cast
) -> tuple[Played, KillAtReminders, Outcome, Delivered]:
    """The tournament played to its end on the started processes, everything delivered; what
    it came to and what the outbox and the fake say of its delivery."""
    fake, uow_factory, clock = stage.fake, stage.uow_factory, stage.clock
    transactions_before = await _transactions(stage.engine)
    users = people(fake, cast)
    killing = KillAtReminders(
        fake,
        stage.group,
        uow_factory,
        clock,
        users[cast.organizer.telegram_id],
        options.kill_after_updates,
        options.speed,
    )
    script = Tournament(
        fake,
        cast,
        users,
        entry,
        options.seed,
        Pace(options.speed, options.table_speed),
        Progress(options.out, on_stage=phases.enter),
        delivered=functools.partial(delivered, uow_factory),
        live=options.live,
        registration_in_order=options.registration_in_order,
        created=killing.created,
        published=killing.published,
        # Today, on the bot's clock: the reminders fall due within the run.
        starts_on=clock.now().astimezone(ZoneInfo(TIMEZONE)).date(),
    )
    try:
        played = await script.run()
    finally:
        await killing.restarted()
    await windows_closed(uow_factory, played.tournament_id, DELIVERY_WAIT)
    await delivered(uow_factory)
    await fake.wait_idle(quiet=0.5, timeout=DELIVERY_WAIT)
    transactions_after = await _transactions(stage.engine)
    if transactions_after is not None and transactions_before is not None:
        phases.transactions = transactions_after - transactions_before
    phases.end()
    outcome = await read_outcome(uow_factory, played.tournament_id, clock.now())
    checked = await delivery_check(uow_factory, fake)
    reminded = killing.reminded
    if reminded is not None:
        reminded.received = {
            player: received(fake, player, reminded.phrase) for player in reminded.players
        }
    return played, killing, outcome, checked


def _figures(fake: FakeTelegram, group: list[Replica], started: float) -> Figures:
    return Figures(
        updates=fake.world.delivered_update_id,
        messages=message_kinds(fake),
        button_answers=fake.stats.calls["answerCallbackQuery"],
        latency_p50=percentile(fake.stats.handling_latencies, 0.50),
        latency_p95=percentile(fake.stats.handling_latencies, 0.95),
        too_many_requests=fake.stats.too_many_requests,
        errors=tuple(error for replica in group for error in replica.errors()),
        wall_seconds=time.perf_counter() - started,
    )


def _replica(number: int, env: dict[str, str], options: _Options) -> Replica:
    """A bot process on a port of its own (serving the Mini App there for live games)."""
    port = free_port()
    env = {**env, "WEB_PORT": str(port)}
    if options.live:
        env["WEB_BASE_URL"] = f"http://127.0.0.1:{port}"
    replica = Replica(number, env, options.folder)
    if options.metered:
        replica.command = (
            "-m",
            "harness.simulation.metered",
            str(replica.records),
            "--seed",
            str(options.seed),
        )
    return replica
