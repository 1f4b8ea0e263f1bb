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

The benchmarks run metered replicas (`bot.simulation.metered`: the same bot with the
simulation's meter); their records are joined with what the fake saw by update id, so each
update's kind (the phase it came in, its sender, its button) goes with the transactions and
CPU the replica measured. bench_simulation.py plays on one such process polling the fake
Telegram, without Redis, as a single server runs.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import functools
import json
import os
import random
import signal
import socket
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TextIO
from zoneinfo import ZoneInfo

import aiohttp
from redis.asyncio import Redis
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bot.clock import ScaledClock
from bot.db.engine import (
    SQLITE_BUSY_TIMEOUT_MS,
    create_engine,
    create_session_factory,
    is_sqlite,
)
from bot.db.migrate import upgrade
from bot.db.models import OutboxRow
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.worker import wait_until_delivered
from bot.fake_telegram import FakeTelegram, FakeUser, RateLimits
from bot.scheduler import SCHEDULER_LEASE
from bot.simulation import TELEGRAM_LIMITS, entry_of, players_for
from bot.simulation.figures import Figures, message_kinds, percentile
from bot.simulation.measure import (
    OTHER,
    Handled,
    background_line,
    cpu_lines,
    kind_lines,
    kind_of,
    phase_of,
    pictures_line,
)
from bot.simulation.metered import Measured, read_records
from bot.simulation.people import ORGANIZER_ID, cast_of
from bot.simulation.progress import Progress
from bot.simulation.report import Outcome, read_outcome, windows_closed
from bot.simulation.roles import Pace, people
from bot.simulation.scenario import Tournament, stage_tables
from domain.outgoing import DeliveryStatus
from domain.reminder_plan import who_plays
from domain.reminders import ROUND_REMINDER_LEAD
from handlers.callbacks import CardOpen

SECRET = "replicas-webhook-secret"
START_SECONDS = 120.0
DELIVERY_WAIT = 900.0
# A possible duplicate shows within this long of its first copy (a retry, a lease taken over).
DUPLICATE_WINDOW = 180.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Replica:
    """One `mafiatour run` process in webhook mode; its log (one JSON object a line) is kept."""

    number: int
    env: dict[str, str]
    folder: Path
    # The bot's command line after the interpreter: `mafiatour run`, or the metered bot.
    command: tuple[str, ...] = ("-m", "bot", "run")
    process: asyncio.subprocess.Process | None = None
    starts: int = 0

    @property
    def port(self) -> int:
        return int(self.env["WEB_PORT"])

    @property
    def webhook(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def log(self) -> Path:
        return self.folder / f"replica-{self.number}.log"

    @property
    def records(self) -> Path:
        """Where the metered bot (`bot.simulation.metered`) writes what it measured."""
        return self.folder / f"replica-{self.number}.records"

    async def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                *self.command,
                env=self.env,
                cwd=str(self.folder),  # no developer's .env is read there
                stdout=log,
                stderr=log,
            )
        async with asyncio.timeout(START_SECONDS), aiohttp.ClientSession() as http:
            while True:
                if self.process.returncode is not None:
                    raise RuntimeError(f"replica {self.number} stopped: see {self.log}")
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(f"http://127.0.0.1:{self.port}/healthz") as answer:
                        if answer.status == 200:
                            return
                await asyncio.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL: no clean stop, no lease given up, requests cut in the middle."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        if self.process is None or self.process.returncode is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(self.process.wait(), 60)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()

    def errors(self) -> list[str]:
        """The records this replica logged at ERROR or above."""
        found = []
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if isinstance(entry, dict) and entry.get("level") in ("ERROR", "CRITICAL"):
                    # The exception's own line (the traceback's last) says why.
                    why = (entry.get("traceback") or "").strip().splitlines()[-1:]
                    found.append(
                        f"replica {self.number}: {entry['logger']}: {entry['message']}"
                        + "".join(f" ({line})" for line in why)
                    )
        return found


@dataclass(frozen=True)
class Delivered:
    """The outbox after the run, and the copies the fake saw of each message it sent."""

    statuses: dict[DeliveryStatus, int]
    failures: dict[str, int]  # why messages failed, with how many failed so
    maybe_duplicates: int
    duplicates: int  # messages the fake shows twice
    duplicates_beyond_promise: int  # of those, the ones the outbox did not record as possible
    lost: int  # sent according to the outbox, missing from the chat
    reminders: int  # scheduled pushes moved into the outbox
    reminders_twice: int  # scheduled pushes moved into the outbox more than once


@dataclass
class Reminded:
    """The round the scheduler reminded while its lease holder was killed."""

    round_number: int
    starts_at: str  # the game's time in the timetable, as the reminder says it
    players: tuple[int, ...]  # the Telegram ids of the round's players
    takeover_seconds: float = 0.0  # from the kill to another process holding the lease
    received: dict[int, int] = field(default_factory=dict)  # reminders each player received

    @property
    def phrase(self) -> str:
        return f"тур {self.round_number} в {self.starts_at}"


@dataclass
class Phases:
    """The run by phase as bench_simulation.py prints it for one process: each update's
    handling as the fake Telegram timed it (from handing it to a replica to the replica's
    first answer about it), classified by kind as the one-process meter does, and, from
    metered replicas (`bot.simulation.metered`), as the replica timed it with its
    transactions and CPU, joined by update id; the replicas' CPU time (all of them together,
    from /proc) at each stage's start and at the end; their memory idle, at each stage's
    start and at their peak, and the database's transactions over the run (PostgreSQL's
    count; None on SQLite)."""

    fake: FakeTelegram
    group: list[Replica]
    marks: list[tuple[str, float]] = field(default_factory=list)  # name, fake's clock
    idle: list[float] = field(default_factory=list)  # MB by replica, once started
    memory: list[tuple[str, list[float]]] = field(default_factory=list)  # MB by replica
    transactions: int | None = None  # committed and rolled back, by every process on it
    peaks: list[float] = field(default_factory=list)  # MB by replica, read before they stop
    measured: Measured | None = None  # what metered replicas wrote, read once they stopped
    # (stage, CPU seconds of all replicas since the first stage, fake's clock); the end last.
    cpu: list[tuple[str, float, float]] = field(default_factory=list)
    _cpu_seen: dict[int, float] = field(default_factory=dict)  # by pid, when last read
    _cpu_total: float = 0.0

    def enter(self, name: str) -> None:
        if not self.marks:
            self._cpu_used()  # from here on: the replicas' start is not the tournament's
        self.marks.append((name, time.monotonic()))
        self.memory.append((name, [_memory(replica, "VmRSS") for replica in self.group]))
        self._cpu_mark(name)

    def end(self) -> None:
        """The run is over (every message delivered): the last CPU reading, the peaks."""
        self._cpu_mark("the end")
        self.peaks = [_memory(replica, "VmHWM") for replica in self.group]

    def _cpu_mark(self, name: str) -> None:
        self._cpu_total += self._cpu_used()
        self.cpu.append((name, self._cpu_total, time.monotonic()))

    def _cpu_used(self) -> float:
        """The replicas' CPU seconds since the last reading (a restarted one's since it
        started; a killed one's after the last reading are lost with it)."""
        used = 0.0
        for replica in self.group:
            if replica.process is None or (now := _cpu_seconds(replica.process.pid)) is None:
                continue
            used += now - self._cpu_seen.get(replica.process.pid, 0.0)
            self._cpu_seen[replica.process.pid] = now
        return used

    def handled(self) -> list[tuple[int, Handled]]:
        """Every update the replicas answered (its id, its handling as the fake timed it), by
        kind (`bot.simulation.measure.KINDS`) as the phase it came in says."""
        stats = self.fake.stats
        starts = [t for _, t in self.marks]
        found = []
        for at, seconds, update in zip(
            stats.handled_at, stats.handling_latencies, stats.handled_updates, strict=True
        ):
            started = at - seconds
            stage = bisect.bisect_right(starts, started) - 1
            event = update.get("callback_query") or update.get("message") or {}
            kind = kind_of(
                phase_of(self.marks[stage][0]) if stage >= 0 else OTHER,
                (event.get("from") or {}).get("id"),
                event.get("data"),
            )
            found.append((int(update["update_id"]), Handled(kind, started, seconds, 0)))
        return found

    def metered(self, handled: list[tuple[int, Handled]]) -> list[Handled]:
        """The updates a metered replica recorded: their kind, when the fake handed them
        over, and the replica's handling time, transactions and CPU."""
        costs = self.measured.updates if self.measured is not None else {}
        return [
            Handled(h.kind, h.started, cost.seconds, cost.transactions, cost.cpu)
            for update_id, h in handled
            if (cost := costs.get(update_id)) is not None
        ]

    def lines(self, updates: int, outbox_messages: int) -> list[str]:
        identified = self.handled()
        handled = [h for _, h in identified]
        lines = []
        if self.measured is not None:
            metered = self.metered(identified)
            lines += [f"in the bot: {line}" for line in kind_lines(metered)]
            if len(metered) < len(handled):
                lines.append(
                    f"{len(handled) - len(metered)} of {len(handled)} updates handled have no "
                    "record of the bot (a replica killed with SIGKILL loses its last second's)"
                )
            lines.append(
                background_line(self.measured.background, self.measured.by_label, outbox_messages)
            )
        lines += [
            f"as the fake Telegram timed it: {line}" for line in kind_lines(handled, costs=False)
        ]
        lines += cpu_lines(
            self.cpu, [h.started for h in handled], "the bot's processes together, from /proc"
        )
        stats = self.fake.stats
        answered = list(zip(stats.handled_at, stats.handling_latencies, strict=True))
        ends = [*(at for _, at in self.marks[1:]), time.monotonic()]
        for (name, start), end in zip(self.marks, ends, strict=True):
            seconds = [latency for at, latency in answered if start <= at < end]
            if not seconds:
                continue
            lines.append(
                f"{name}: {len(seconds)} updates, p50 {percentile(seconds, 0.5) * 1000:.0f} ms, "
                f"p95 {percentile(seconds, 0.95) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} "
                f"ms, {len(seconds) / max(end - start, 1e-9):.1f} updates/s"
            )
        if self.transactions is not None:
            per_update = self.transactions / updates if updates else 0.0
            lines.append(
                f"database transactions: {self.transactions} ({per_update:.2f} per update: the "
                "bot's processes', the outbox's and the scheduler's included, and this "
                "harness's reads)"
            )
        at_start = "; ".join(
            f"{name} " + ", ".join(f"{mb:.0f}" for mb in sizes) for name, sizes in self.memory
        )
        idle, peaks = (", ".join(f"{mb:.0f}" for mb in sizes) for sizes in (self.idle, self.peaks))
        lines.append(
            f"memory (RSS of each bot process, MB): idle {idle}; at each stage's start: "
            f"{at_start}; peak at the end {peaks} (a restarted replica's since its restart)"
        )
        return lines


def _cpu_seconds(pid: int) -> float | None:
    """A process's user and system CPU seconds so far (/proc/<pid>/stat); None when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # After the command's name in parentheses: state is field 3, utime 14, stime 15.
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory(replica: Replica, field_name: str) -> float:
    """A replica's memory figure from /proc (VmRSS now, VmHWM its peak), in MB; 0 when gone."""
    if replica.process is None:
        return 0.0
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{replica.process.pid}/status").read_text().splitlines():
            if line.startswith(f"{field_name}:"):
                return int(line.split()[1]) / 1024
    return 0.0


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

    `metered` runs `bot.simulation.metered` instead of `mafiatour run` (the same bot with the
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
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    clock = ScaledClock.shared(time.time(), options.speed)
    # The judges' Mini App opens on the bot's time (its launch data expires after 24 hours).
    fake.world.web_app_clock = lambda: clock.now().timestamp()
    if options.redis_url is not None:
        redis = Redis.from_url(options.redis_url)
        try:
            await redis.flushdb()  # conversation states of earlier runs would meet this run's
        finally:
            await redis.aclose()
    own = ("WEBHOOK_", "WEB_", "REDIS_URL", "DATABASE_URL")
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(own)},
        "BOT_TOKEN": token,
        "TELEGRAM_API_BASE": fake.base_url,
        "DATABASE_URL": options.database_url,
        **({"REDIS_URL": options.redis_url} if options.redis_url is not None else {}),
        # The public address a load balancer would have; the fake calls each replica.
        **(
            {"WEBHOOK_URL": "http://127.0.0.1:9/hook", "WEBHOOK_SECRET": SECRET}
            if options.webhook
            else {}
        ),
        "WEB_HOST": "127.0.0.1",
        "ADMIN_IDS": str(ORGANIZER_ID),
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "json",
        "DELIVERY_MESSAGES_PER_SECOND": str(total),
        "DELIVERY_PRIVATE_CHAT_PER_SECOND": str(private),
        "DELIVERY_GROUP_PER_MINUTE": str(channel),
        # The bot's time runs as fast as its people act, the same in every replica.
        "CLOCK_RATE": str(options.speed),
        "CLOCK_ORIGIN": repr(clock.start.timestamp()),
    }
    group = [_replica(number, env, options) for number in range(1, options.replicas + 1)]
    if options.webhook:
        fake.deliver_webhooks([replica.webhook for replica in group])
    try:
        await asyncio.gather(*(replica.start() for replica in group))
        phases = Phases(fake, group)
        phases.idle = [_memory(replica, "VmRSS") for replica in group]
        options.out.write(
            f"{entry.regulation.name.ru}: {count} игроков на {options.replicas} процессах, "
            f"seed {options.seed}, скорость ×{options.speed:g}\n"
        )
        transactions_before = await _transactions(engine)
        users = people(fake, cast)
        killing = _KillAtReminders(
            fake, group, uow_factory, clock, users[cast.organizer.telegram_id], options
        )
        script = Tournament(
            fake,
            cast,
            users,
            entry,
            options.seed,
            Pace(options.speed, options.table_speed),
            Progress(options.out, on_stage=phases.enter),
            delivered=functools.partial(_delivered, uow_factory),
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
        await _delivered(uow_factory)
        await fake.wait_idle(quiet=0.5, timeout=DELIVERY_WAIT)
        transactions_after = await _transactions(engine)
        if transactions_after is not None and transactions_before is not None:
            phases.transactions = transactions_after - transactions_before
        phases.end()
        outcome = await read_outcome(uow_factory, played.tournament_id, clock.now())
        delivered = await _delivery_check(uow_factory, fake)
        reminded = killing.reminded
        if reminded is not None:
            reminded.received = {
                player: _received(fake, player, reminded.phrase) for player in reminded.players
            }
    finally:
        await asyncio.gather(*(replica.stop() for replica in group))
        await fake.stop()
        await engine.dispose()
    if options.metered:
        phases.measured = read_records(replica.records for replica in group)
    errors = tuple(error for replica in group for error in replica.errors())
    figures = Figures(
        updates=fake.world.delivered_update_id,
        messages=message_kinds(fake),
        button_answers=fake.stats.calls["answerCallbackQuery"],
        latency_p50=percentile(fake.stats.handling_latencies, 0.50),
        latency_p95=percentile(fake.stats.handling_latencies, 0.95),
        too_many_requests=fake.stats.too_many_requests,
        errors=errors,
        wall_seconds=time.perf_counter() - started,
    )
    restarts = sum(replica.starts - 1 for replica in group)
    killed = killing.reminded is not None
    return ReplicaRun(
        outcome,
        figures,
        delivered,
        killed,
        restarts,
        killing.reminded,
        phases,
        played.notes,
        played.live_games,
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
            "bot.simulation.metered",
            str(replica.records),
            "--seed",
            str(options.seed),
        )
    return replica


# The wizard's time zone, which the simulated organizer keeps.
TIMEZONE = "Europe/Moscow"
# How long after the timetable is saved the reminders fall due, in real seconds: time enough
# to kill the scheduler's lease holder before they do.
REMINDERS_AFTER_SECONDS = 20.0


class _KillAtReminders:
    """At the first round published once `kill_after_updates` updates were delivered: the
    organizer times its game in the timetable, the scheduler's lease holder is killed and
    started again, and the round is played once each of its players has his reminder."""

    def __init__(
        self,
        fake: FakeTelegram,
        group: list[Replica],
        uow_factory: SqlUnitOfWorkFactory,
        clock: ScaledClock,
        organizer: FakeUser,
        options: _Options,
    ) -> None:
        self._fake, self._group, self._uow_factory = fake, group, uow_factory
        self._clock, self._organizer, self._options = clock, organizer, options
        self._tournament_id = 0
        self._restart: asyncio.Task[None] | None = None
        self.reminded: Reminded | None = None

    def created(self, tournament_id: int) -> None:
        self._tournament_id = tournament_id

    async def published(self, stage_id: str, round_number: int) -> None:
        after = self._options.kill_after_updates
        if after is None or self.reminded is not None or len(self._group) < 2:
            return
        if self._fake.world.delivered_update_id < after:
            return
        text, reminded = await self._timed_round(stage_id, round_number)
        await set_timetable(self._organizer, self._tournament_id, text)
        self.reminded = reminded
        victim = await self._lease_holder()
        killed_at = time.monotonic()
        victim.kill()
        self._restart = asyncio.create_task(self._start_again(victim))
        await self._taken_over(victim)
        reminded.takeover_seconds = time.monotonic() - killed_at
        async with asyncio.timeout(DELIVERY_WAIT):
            while any(_received(self._fake, p, reminded.phrase) == 0 for p in reminded.players):
                await asyncio.sleep(0.2)

    async def restarted(self) -> None:
        if self._restart is not None:
            await self._restart

    async def _timed_round(self, stage_id: str, round_number: int) -> tuple[str, Reminded]:
        """The timetable with only this round's game timed, its players' reminders due
        `REMINDERS_AFTER_SECONDS` from now; and the round's players."""
        async with self._uow_factory() as uow:
            tournament = await uow.tournaments.get(self._tournament_id)
            stage = await uow.rounds.stage(self._tournament_id, stage_id)
            listed = await uow.participants.of_tournament(self._tournament_id)
        participants = {p.id: p for p in listed}
        assert tournament is not None and tournament.starts_on is not None and stage is not None
        round_ = next(r for r in stage.rounds if r.number == round_number)
        players = tuple(
            player.user_id
            for game in round_.games
            for seated in game.players
            if (player := who_plays(seated, participants)) is not None and player.user_id
        )
        zone = ZoneInfo(tournament.timezone)
        later = timedelta(seconds=REMINDERS_AFTER_SECONDS * self._options.speed)
        starts = (self._clock.now() + ROUND_REMINDER_LEAD + later).astimezone(zone)
        starts = starts.replace(second=0, microsecond=0) + timedelta(minutes=1)
        day = (starts.date() - tournament.starts_on).days + 1
        lines, games = [], 0
        for event in (e for d in tournament.timetable for e in d.events):
            time_ = "-"
            if event.kind == "game" and event.stage == stage_id:
                games += 1
                time_ = f"{starts:%H:%M}" if games == round_number else "-"
            lines.append(" ".join(filter(None, (str(day), time_, event.kind, event.stage))))
        return "\n".join(lines), Reminded(round_number, f"{starts:%H:%M}", players)

    async def _lease_holder(self) -> Replica:
        async with asyncio.timeout(DELIVERY_WAIT):
            while True:
                async with self._uow_factory() as uow:
                    holder = await uow.leases.holder(SCHEDULER_LEASE, datetime.now(UTC))
                for replica in self._group:
                    process = replica.process
                    if holder and process and holder.split(":")[1] == str(process.pid):
                        return replica
                await asyncio.sleep(0.2)

    async def _taken_over(self, victim: Replica) -> None:
        assert victim.process is not None
        dead = str(victim.process.pid)
        async with asyncio.timeout(DELIVERY_WAIT):
            while True:
                async with self._uow_factory() as uow:
                    holder = await uow.leases.holder(SCHEDULER_LEASE, datetime.now(UTC))
                if holder is not None and holder.split(":")[1] != dead:
                    return
                await asyncio.sleep(0.2)

    async def _start_again(self, victim: Replica) -> None:
        assert victim.process is not None
        await victim.process.wait()
        await asyncio.sleep(2.0)
        await victim.start()


async def set_timetable(organizer: FakeUser, tournament_id: int, text: str) -> None:
    """The organizer sends the timetable on its screen, from his tournament's card."""
    organizer.send("/tournaments")
    listed = await organizer.wait_for(lambda m: "Ваши турниры" in (m.text or ""))
    organizer.press(listed, callback_data=CardOpen(tid=tournament_id).pack())
    card = await organizer.wait_for(lambda m: "Расписание и напоминания" in str(m.buttons))
    organizer.press(card, button_text="Расписание и напоминания")
    await organizer.wait_for(lambda m: "Расписание ·" in (m.text or ""))
    organizer.send(text)
    saved = await organizer.wait_for(
        lambda m: any(words in (m.text or "") for words in ("Расписание сохранено", "не подходит"))
    )
    if "Расписание сохранено" not in (saved.text or ""):
        raise RuntimeError(f"the timetable was refused: {saved.text}")


def _received(fake: FakeTelegram, chat_id: int, phrase: str) -> int:
    """How many of the bot's messages in the chat say `phrase`."""
    return sum(1 for m in fake.messages(chat_id) if m.from_bot and phrase in (m.text or ""))


async def _delivered(uow_factory: SqlUnitOfWorkFactory) -> None:
    """Wait until the outbox has sent everything recorded (a killed replica's messages are
    settled by another once its lease runs out)."""
    await wait_until_delivered(uow_factory, DELIVERY_WAIT, poll_seconds=0.2)


SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup"})


async def _delivery_check(uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram) -> Delivered:
    async with uow_factory() as uow:
        statuses = await uow.outbox.status_counts()
        failures = await uow.outbox.failure_reasons()
        maybe = await uow.outbox.maybe_duplicates()
        rows = (
            await uow.session.execute(
                select(
                    OutboxRow.id,
                    OutboxRow.chat_id,
                    OutboxRow.telegram_message_id,
                    OutboxRow.body,
                    OutboxRow.status,
                )
            )
        ).all()
    # What the fake carried out: every message the bot sent, by chat and message id.
    sends: dict[int, dict[int, tuple[str | None, float]]] = defaultdict(dict)
    for record in fake.stats.requests:
        chat_id, message_id = record.chat_id, record.message_id
        sent = record.method in SENDS and record.status == 200
        if sent and message_id is not None and isinstance(chat_id, int):
            sends[chat_id][message_id] = (record.text, record.at)
    sent_rows = {
        (chat_id, telegram_id)
        for _, chat_id, telegram_id, body, status in rows
        if status == DeliveryStatus.SENT.value
    }
    lost = duplicates = beyond = reminders = 0
    bodies: dict[tuple[int, str], int] = defaultdict(int)
    for row_id, chat_id, telegram_id, body, status in rows:
        if '"key": "reminder-' in body:
            reminders += 1
            bodies[(chat_id, body)] += 1
        if status != DeliveryStatus.SENT.value or '"edit_key": null' not in body:
            continue  # an edit in place is sent again freely: editing twice shows nothing twice
        chat = sends[chat_id]
        if telegram_id not in chat:
            lost += 1
            continue
        text, at = chat[telegram_id]
        copies = [
            message_id
            for message_id, (other, other_at) in chat.items()
            if message_id != telegram_id
            and (chat_id, message_id) not in sent_rows
            and other == text
            and abs(other_at - at) < DUPLICATE_WINDOW
        ]
        duplicates += len(copies)
        if row_id not in maybe:
            beyond += len(copies)
    return Delivered(
        statuses=statuses,
        failures=failures,
        maybe_duplicates=len(maybe),
        duplicates=duplicates,
        duplicates_beyond_promise=beyond,
        lost=lost,
        reminders=reminders,
        reminders_twice=sum(count - 1 for count in bodies.values() if count > 1),
    )
