"""A whole tournament played on several bot processes behind one webhook, as a federation would
run it for availability: N `mafiatour run` processes in webhook mode on one PostgreSQL and one
Redis, the fake Telegram delivering the updates round-robin to their webhooks (the load
balancer), optionally one of them killed with SIGKILL in the middle and started again.

`play_on_replicas` returns the run's figures and what the delivery promise is checked against:
the outbox's statuses, the possible duplicates it recorded, and the duplicates the fake saw.
"""

from __future__ import annotations

import asyncio
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
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

import aiohttp
from redis.asyncio import Redis
from sqlalchemy import select

from bot.clock import ScaledClock
from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.models import OutboxRow
from bot.db.uow import SqlUnitOfWorkFactory
from bot.delivery.worker import wait_until_delivered
from bot.fake_telegram import FakeTelegram, RateLimits
from bot.simulation import TELEGRAM_LIMITS, entry_of, players_for
from bot.simulation.figures import Figures, message_kinds, percentile
from bot.simulation.people import ORGANIZER_ID, cast_of
from bot.simulation.progress import Progress
from bot.simulation.report import Outcome, read_outcome, windows_closed
from bot.simulation.roles import Pace, people
from bot.simulation.scenario import Tournament, stage_tables
from domain.outgoing import DeliveryStatus

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

    async def start(self) -> None:
        self.starts += 1
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                "run",
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
    maybe_duplicates: int
    duplicates: int  # messages the fake shows twice
    duplicates_beyond_promise: int  # of those, the ones the outbox did not record as possible
    lost: int  # sent according to the outbox, missing from the chat
    reminders: int  # scheduled pushes moved into the outbox
    reminders_twice: int  # scheduled pushes moved into the outbox more than once


@dataclass(frozen=True)
class ReplicaRun:
    outcome: Outcome
    figures: Figures
    delivered: Delivered
    killed: bool
    restarts: int


@dataclass
class _Options:
    regulation: str
    players: int | None
    seed: int
    speed: float
    replicas: int
    kill_after_updates: int | None
    database_url: str
    redis_url: str
    folder: Path
    out: TextIO
    tasks: list[asyncio.Task[None]] = field(default_factory=list)


async def play_on_replicas(
    *,
    database_url: str,
    redis_url: str,
    folder: Path,
    out: TextIO,
    regulation: str = "black-raven-cup",
    players: int | None = None,
    seed: int = 1,
    speed: float = 50.0,
    replicas: int = 3,
    kill_after_updates: int | None = None,
) -> ReplicaRun:
    """Play a whole tournament on `replicas` processes (PostgreSQL `database_url`, and a Redis
    database `redis_url` that is emptied first); with `kill_after_updates`, the second replica
    is killed once that many updates were delivered, and started again."""
    options = _Options(
        regulation,
        players,
        seed,
        speed,
        replicas,
        kill_after_updates,
        database_url,
        redis_url,
        folder,
        out,
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
    engine = create_engine(options.database_url)
    await upgrade(engine)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    clock = ScaledClock.shared(time.time(), options.speed)
    redis = Redis.from_url(options.redis_url)
    try:
        await redis.flushdb()  # conversation states of earlier runs would meet this one's people
    finally:
        await redis.aclose()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("WEBHOOK_", "WEB_"))},
        "BOT_TOKEN": token,
        "TELEGRAM_API_BASE": fake.base_url,
        "DATABASE_URL": options.database_url,
        "REDIS_URL": options.redis_url,
        # The public address a load balancer would have; the fake calls each replica itself.
        "WEBHOOK_URL": "http://127.0.0.1:9/hook",
        "WEBHOOK_SECRET": SECRET,
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
    group = [
        Replica(number, {**env, "WEB_PORT": str(free_port())}, options.folder)
        for number in range(1, options.replicas + 1)
    ]
    fake.deliver_webhooks([replica.webhook for replica in group])
    killed = False
    try:
        await asyncio.gather(*(replica.start() for replica in group))
        options.out.write(
            f"{entry.regulation.name.ru}: {count} игроков на {options.replicas} процессах, "
            f"seed {options.seed}, скорость ×{options.speed:g}\n"
        )
        async with _killing(fake, group, options.kill_after_updates) as kill:
            script = Tournament(
                fake,
                cast,
                people(fake, cast),
                entry,
                options.seed,
                Pace(options.speed),
                Progress(options.out),
                delivered=functools.partial(_delivered, uow_factory),
            )
            played = await script.run()
            await windows_closed(uow_factory, played.tournament_id, DELIVERY_WAIT)
            await _delivered(uow_factory)
            await fake.wait_idle(quiet=0.5, timeout=DELIVERY_WAIT)
            killed = kill.done() and not kill.cancelled() and kill.result()
        outcome = await read_outcome(uow_factory, played.tournament_id, clock.now())
        delivered = await _delivery_check(uow_factory, fake)
    finally:
        await asyncio.gather(*(replica.stop() for replica in group))
        await fake.stop()
        await engine.dispose()
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
    return ReplicaRun(outcome, figures, delivered, killed, restarts)


@contextlib.asynccontextmanager
async def _killing(
    fake: FakeTelegram, group: list[Replica], after_updates: int | None
) -> AsyncIterator[asyncio.Task[bool]]:
    async def kill_and_restart() -> bool:
        if after_updates is None or len(group) < 2:
            return False
        while fake.world.delivered_update_id < after_updates:
            await asyncio.sleep(0.05)
        victim = group[1]
        victim.kill()
        assert victim.process is not None
        await victim.process.wait()
        await asyncio.sleep(2.0)
        await victim.start()
        return True

    task = asyncio.create_task(kill_and_restart())
    try:
        yield task
    finally:
        if not task.done():
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _delivered(uow_factory: SqlUnitOfWorkFactory) -> None:
    """Wait until the outbox has sent everything recorded (a killed replica's messages are
    settled by another once its lease runs out)."""
    await wait_until_delivered(uow_factory, DELIVERY_WAIT, poll_seconds=0.2)


SENDS = frozenset({"sendMessage", "sendPhoto", "sendDocument"})


async def _delivery_check(uow_factory: SqlUnitOfWorkFactory, fake: FakeTelegram) -> Delivered:
    async with uow_factory() as uow:
        statuses = await uow.outbox.status_counts()
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
        maybe_duplicates=len(maybe),
        duplicates=duplicates,
        duplicates_beyond_promise=beyond,
        lost=lost,
        reminders=reminders,
        reminders_twice=sum(count - 1 for count in bodies.values() if count > 1),
    )
