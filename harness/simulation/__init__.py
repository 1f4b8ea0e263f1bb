"""The offline simulation: a whole tournament played through the real bot against the bundled
fake Telegram, with a report of the standings, the channel and the figures.

`simulate(options, out)` starts the fake Telegram Bot API server, the real bot polling it over
HTTP (as `mafiatour run` builds it, on SQLite) and the scripted people (see `scenario`). The
same seed gives the same tournament and the same standings.
"""

from __future__ import annotations

import asyncio
import functools
import json
import socket
import time
import tracemalloc
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import TextIO

from bot.clock import ScaledClock
from bot.config import Settings
from bot.db.transactions import counting
from bot.rendering.pictures import PictureFigures
from bot.seeds import SeededSeeds
from bot.web import serving
from domain.outgoing import DeliveryStatus
from domain.presets import PRESET_IDS
from domain.regulation import Regulation, load_preset, parse_regulation
from harness.fake_telegram import FakeTelegram, RateLimits
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.figures import ErrorLog, Figures, figures_of
from harness.simulation.measure import CpuMeter, UpdateMeter, rss_mb
from harness.simulation.people import ORGANIZER_ID, Cast, cast_of
from harness.simulation.progress import Progress
from harness.simulation.report import (
    DATABASE_FILE,
    Outcome,
    Report,
    channel_feed,
    read_outcome,
    report_text,
    say,
    windows_closed,
    write_files,
)
from harness.simulation.roles import Pace, SimulationError, people
from harness.simulation.scenario import CHANNEL_ID, Entry, Played, Tournament, stage_tables
from harness.simulation.screens import WAIT

__all__ = [
    "SimulationError",
    "SimulationOptions",
    "SimulationResult",
    "entry_of",
    "players_for",
    "simulate",
]

# Telegram's flood limits (messages per second overall, per second to one person, per minute
# to a channel); a faster run scales them, the fake enforces them, the outbox keeps them.
TELEGRAM_LIMITS = (30, 1, 20)
SMALLEST_TOURNAMENT = 20
DELIVERY_WAIT = 600.0


@dataclass(frozen=True)
class SimulationOptions:
    """`regulation` is a preset id or a regulation file; `players` None takes the smallest
    tournament the regulation can run; `out` None makes a new folder in the current one."""

    regulation: str = "black-raven-cup"
    players: int | None = None
    seed: int = 1
    speed: float = 50.0
    # The judges' pace at their tables when not `speed` (see `roles.Pace`).
    table_speed: float | None = None
    # False: players confirm their registrations as they come, not in the cast's order (the
    # benchmark's burst; the seating then differs from run to run).
    registration_in_order: bool = True
    out: Path | None = None
    # None: an SQLite file in the `out` folder (the benchmark also plays on PostgreSQL).
    database_url: str | None = None
    # Trace the Python memory (tracemalloc) by part of the run: slower, for the benchmark.
    trace_memory: bool = False


@dataclass(frozen=True)
class SimulationResult:
    outcome: Outcome
    figures: Figures
    folder: Path
    # Handling time and transactions by phase, memory (see `harness.simulation.measure`).
    meter: UpdateMeter
    outbox: dict[DeliveryStatus, int]
    pictures: PictureFigures
    idle_rss_mb: float
    # The channel's posts as it shows them at the end (the live table as last edited).
    channel: tuple[str, ...] = ()
    # What the scripted people noted (the protest, the lots drawn).
    notes: tuple[str, ...] = ()
    # Why outbox messages failed, with how many failed so.
    failures: dict[str, int] = field(default_factory=dict)


def entry_of(regulation: str) -> Entry:
    """A preset by id, or a regulation file the organizer will upload in the wizard."""
    if regulation in PRESET_IDS:
        preset = load_preset(regulation)
        return Entry(preset, preset.name.ru, None)
    content = Path(regulation).read_bytes()
    parsed = parse_regulation(json.loads(content, parse_float=Decimal))
    return Entry(parsed, None, content)


def players_for(regulation: Regulation, players: int | None) -> int:
    """The players to register: as asked, or the smallest count that fills every stage.

    Raises `ValueError` saying why a count cannot run: teams must be whole and every stage
    must fill its tables.
    """
    size = regulation.team_size or 1
    count = players if players is not None else -(-SMALLEST_TOURNAMENT // size) * size
    while players is None and not _fits(regulation, count):
        count += size
    if count % size:
        raise ValueError(f"{count} players do not make whole teams of {size}")
    if not _fits(regulation, count):
        raise ValueError(f"{count} players cannot fill the tables of every stage")
    return count


def _fits(regulation: Regulation, players: int) -> bool:
    size = regulation.team_size or 1
    if players % size:
        return False
    playing = players
    for stage, tables in zip(regulation.stages, stage_tables(regulation, players), strict=True):
        if tables == 0 or tables * 10 > playing:
            return False
        if stage.advance is not None:
            unit = size if stage.advance.unit == "teams" else 1
            playing = min(playing, stage.advance.count * unit)
    return True


def new_folder(out: Path | None) -> Path:
    """The folder for the report, the tournament file and the database (made new if unset)."""
    if out is None:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        out = Path.cwd() / f"mafiatour-simulation-{stamp}"
        number = 1
        while out.exists():
            number += 1
            out = out.with_name(f"mafiatour-simulation-{stamp}-{number}")
    out.mkdir(parents=True, exist_ok=True)
    if (out / DATABASE_FILE).exists():
        raise FileExistsError(f"{out / DATABASE_FILE} exists: choose another --out folder")
    return out


async def _delivered(app, meter: UpdateMeter) -> None:
    """Wait until the outbox has sent everything recorded."""
    async with asyncio.timeout(DELIVERY_WAIT):
        while True:
            with meter.apart():
                async with app.uow_factory() as uow:
                    counts = await uow.outbox.status_counts()
            if not counts.get(DeliveryStatus.PENDING) and not counts.get(DeliveryStatus.SENDING):
                return
            await asyncio.sleep(0.1)


async def simulate(options: SimulationOptions, out: TextIO) -> SimulationResult:
    """Play a whole tournament, print the progress and the report, write the files."""
    started = time.perf_counter()
    entry = entry_of(options.regulation)
    players = players_for(entry.regulation, options.players)
    cast = cast_of(
        options.seed,
        players,
        max(stage_tables(entry.regulation, players)),
        entry.regulation.team_size,
    )
    folder = new_folder(options.out)
    if options.trace_memory:
        tracemalloc.start()
    scale = max(1, round(options.speed))
    limits = RateLimits(*(limit * scale for limit in TELEGRAM_LIMITS))
    fake = FakeTelegram(enforce_limits=limits)
    await fake.start()
    try:
        settings = _settings(fake, options, folder, limits)
        started_line = say(
            "sim-started",
            regulation=entry.regulation.name.ru,
            players=players,
            seed=str(options.seed),
            speed=f"{options.speed:g}",
            telegram=fake.base_url,
            database=str(folder / DATABASE_FILE),
        )
        out.write(started_line + "\n")
        with ErrorLog() as errors:
            ran = await _run(settings, fake, options, _Script(entry, cast, out))
        figures = figures_of(fake, errors, time.perf_counter() - started)
        channel_posts = channel_feed(fake, CHANNEL_ID, folder)
    finally:
        await fake.stop()
        if options.trace_memory:
            tracemalloc.stop()
    played = ran.played
    live = say("sim-live-games", live=played.live_games)
    report = Report(ran.outcome, channel_posts, figures, (*played.notes, live), folder)
    write_files(report)
    out.write(report_text(report))
    return SimulationResult(
        ran.outcome,
        figures,
        folder,
        ran.meter,
        ran.outbox,
        ran.pictures,
        ran.idle_rss,
        tuple(post.text for post in channel_posts),
        played.notes,
        ran.failures,
    )


def _settings(
    fake: FakeTelegram, options: SimulationOptions, folder: Path, limits: RateLimits
) -> Settings:
    """The bot's settings for the run: the fake Telegram, the run's database and limits, and
    its web application, which serves the Mini App the live games' judges use (plain HTTP:
    the fake Telegram is a local Bot API server)."""
    web_port = _free_port()
    return sandbox_settings(
        fake,
        options.database_url or f"sqlite+aiosqlite:///{folder / DATABASE_FILE}",
        admin_ids=frozenset({ORGANIZER_ID}),
        web_host="127.0.0.1",
        web_port=web_port,
        web_base_url=f"http://127.0.0.1:{web_port}",
        delivery_messages_per_second=limits.total_per_second,
        delivery_private_chat_per_second=limits.private_chat_per_second,
        delivery_group_per_minute=limits.group_per_minute,
    )


@dataclass(frozen=True)
class _Script:
    """Who plays which tournament, and where the progress goes."""

    entry: Entry
    cast: Cast
    out: TextIO


@dataclass(frozen=True)
class _Ran:
    """What a run played through the bot leaves for the report."""

    played: Played
    outcome: Outcome
    meter: UpdateMeter
    outbox: dict[DeliveryStatus, int]
    failures: dict[str, int]
    pictures: PictureFigures
    idle_rss: float


async def _run(
    settings: Settings, fake: FakeTelegram, options: SimulationOptions, script: _Script
) -> _Ran:
    """The tournament played through the real bot, to the last message delivered."""
    # The organizer's "Seat the stage" draws its seeds from the simulation's seed, so the
    # same seed seats every stage the same way.
    seeds = SeededSeeds(f"seating:{options.seed}")
    # The bot's time runs as fast as its people act: protest windows close within the run.
    clock = ScaledClock(datetime.now(UTC), options.speed)
    # The judges' Mini App opens on the bot's time (its launch data expires after 24 hours
    # of it: a run longer than 24 hours / speed failed with 401).
    fake.world.web_app_clock = lambda: clock.now().timestamp()
    # Every task the bot starts inherits the block: the run's transactions are counted;
    # each update's CPU time is metered.
    with counting() as run, CpuMeter():
        async with running_bot(settings, seeds=seeds, clock=clock) as app, serving(app):
            idle_rss = rss_mb()
            meter = UpdateMeter(run)
            meter.trace.take("the bot idle")
            meter.attach(app.dispatcher)
            played = await Tournament(
                fake,
                script.cast,
                people(fake, script.cast),
                script.entry,
                options.seed,
                Pace(options.speed, options.table_speed),
                Progress(script.out, on_stage=meter.enter),
                delivered=functools.partial(_delivered, app, meter),
                live=True,
                registration_in_order=options.registration_in_order,
                created=functools.partial(_page_address, settings.web_base_url, script.out),
            ).run()
            await windows_closed(app.uow_factory, played.tournament_id, DELIVERY_WAIT, meter.apart)
            await _delivered(app, meter)
            meter.mark("the end")
            await fake.wait_idle(quiet=0.3, timeout=WAIT)
            with meter.apart():
                outcome = await read_outcome(app.uow_factory, played.tournament_id, clock.now())
                async with app.uow_factory() as uow:
                    outbox = dict(await uow.outbox.status_counts())
                    failures = await uow.outbox.failure_reasons()
            pictures = app.dispatcher["pictures"].figures
    return _Ran(played, outcome, meter, outbox, failures, pictures, idle_rss)


def _page_address(base_url: str | None, out: TextIO, tournament_id: int) -> None:
    """Where to watch the tournament: its public web page, served while it plays."""
    out.write("\n" + say("sim-page-address", url=f"{base_url}/t/{tournament_id}") + "\n")


def _free_port() -> int:
    """A TCP port nothing listens on now, for the simulation's web application."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
