"""Benchmark: thirty table judges pressing their protocols in the same moment, a round's start
at a 300-player cup, through the real bot (its Dispatcher polling a fake Telegram over HTTP,
its outbox worker and scheduler running), all in this process.

The cup (`bench_protocol.cup`) is seated and its first round published before the bot starts;
each of the thirty judges opens his table's protocol, then every `--pause` seconds all thirty
press at once (a mode switch, back and forth: each press stores the draft and redraws the
screen), `--bursts` times. Printed: the press's cost, which the machine's load changes least
(the event loop thread's CPU per press, `harness.simulation.measure.CpuMeter`; the
transactions and statements each press ran, `BEGIN` included; the process's CPU per press),
and the burst's latency distribution: as the bot timed it (`feed_update`), as the fake
Telegram saw it (from getUpdates handing the press out to its answer) and as the judge saw
it (from the press to its answer, and to its screen's edit). The fake Telegram's CPU shares
the loop, so the latencies are higher than in production.
`--bot-process` runs the bot in a process of its own instead: the plain `mafiatour run`, as a
server runs it with Telegram and the judges elsewhere, polling the fake Telegram; nothing of
the harness is in its process, so no update is metered. Printed instead of the meter's
figures, per press over the bursts: the bot's process's CPU and its event loop thread's
(/proc), and this process's (the fake Telegram's and the judges'), which no longer share the
bot's loop (on two cores they run beside it). `--profile FILE` writes cProfile's statistics
of the bursts: this process's whole, so with `--bot-process` the fake Telegram's and the
judges' alone.

Target (issue 27): press p95 <= 150 ms in lockstep, so about 28 presses' CPU plus the queue:
a press must cost a few ms.

Run: .venv/bin/python bench/bench_lockstep.py [--players 300] [--bursts 20]
        [--database sqlite|postgresql] [--profile FILE] [--bot-process]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_simulation import bench_database
from bench_standings import load_average, machine
from bench_update import ORGANIZER, callback_data, seated_cup

from bot.app.heap import settle_start_up
from bot.db.transactions import Tally
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.sandbox import running_bot, sandbox_settings
from harness.simulation.measure import CpuMeter, meter_updates
from harness.simulation.replicas.process import Replica, cpu_seconds, free_port

ANSWER_SECONDS = 60.0
# The mode switches a judge presses back and forth (handlers/callbacks.py ProtocolButton).
MODE_MARK = ":m:"


@dataclass
class PressCost:
    """What the bot measured of one update."""

    seconds: float
    cpu: float
    transactions: int
    statements: int


@dataclass
class Meter:
    """Every update's cost while `recording`, by update id."""

    recording: bool = False
    costs: dict[int, PressCost] = field(default_factory=dict)

    def attach(self, dispatcher: Any) -> None:
        def note(update_id: int, _: float, seconds: float, tally: Tally, cpu: float) -> None:
            if self.recording:
                self.costs[update_id] = PressCost(
                    seconds, cpu, tally.transactions, tally.statements
                )

        meter_updates(dispatcher, lambda update: update.update_id, note)


async def opened(fake: FakeTelegram, judge: FakeUser) -> tuple[ChatMessage, list[str]]:
    """The judge's protocol screen and its two first mode switches."""
    judge.send("/protocol")
    games = await judge.wait_for(lambda m: bool(m.buttons), ANSWER_SECONDS)
    await judge.press(games, games.buttons[0][0][0]).answer(ANSWER_SECONDS)
    screen = await judge.wait_for(lambda m: len(m.buttons) > 5, ANSWER_SECONDS)
    modes = [data for data in callback_data(fake, screen) if MODE_MARK in data]
    return screen, modes[:2]


@dataclass
class Seen:
    """Each press as its judge saw it, in ms: to its answer, and to its screen's edit (when the
    edit reached Telegram)."""

    answers: list[float] = field(default_factory=list)
    edits: list[float] = field(default_factory=list)


async def burst(
    fake: FakeTelegram,
    screens: list[tuple[FakeUser, ChatMessage, list[str]]],
    number: int,
    seen: Seen,
) -> None:
    """Every judge presses at once."""
    edited: dict[int | str | None, float] = {}

    def note(name: str, chat_id: int | str | None, _: str | None, __: str | None) -> None:
        if name == "editmessagetext":
            edited.setdefault(chat_id, time.perf_counter())

    async def one(judge: FakeUser, screen: ChatMessage, modes: list[str]) -> None:
        start = time.perf_counter()
        await judge.press(screen, callback_data=modes[number % 2]).answer(ANSWER_SECONDS)
        seen.answers.append((time.perf_counter() - start) * 1000)
        starts[screen.chat_id] = start

    starts: dict[int | str | None, float] = {}
    fake.before_call = note
    try:
        await asyncio.gather(*(one(*s) for s in screens))
        await fake.wait_idle(quiet=0.2, timeout=ANSWER_SECONDS)
    finally:
        fake.before_call = None
    # A switch to the mode the screen shows already edits nothing (the first burst's may).
    seen.edits += [
        (edited[chat] - start) * 1000 for chat, start in starts.items() if chat in edited
    ]


def spread(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    return (
        f"p50 {statistics.median(ordered):.1f}, p95 {p95:.1f}, max {ordered[-1]:.1f} "
        f"(mean {statistics.fmean(ordered):.1f})"
    )


@dataclass
class Bursts:
    """The bursts as this process saw them."""

    seen: Seen
    cpu: float  # this process's CPU seconds over the bursts
    # Ms from getUpdates handing each press out to its answer, on the fake Telegram's clock.
    handled: list[float]


@dataclass
class BotCpu:
    """The bot's process's CPU seconds over the bursts, and its event loop thread's share."""

    process: float
    loop: float


async def run(args: argparse.Namespace, folder: Path) -> None:
    async with bench_database(args.database, folder) as url:
        await seated_cup(url, args.players)
        fake = FakeTelegram()
        await fake.start()
        try:
            if args.bot_process:
                report_bot_process(args, *await _on_a_bot_process(args, fake, url, folder))
            else:
                report(args, *await _in_this_process(args, fake, url))
        finally:
            await fake.stop()


async def _in_this_process(
    args: argparse.Namespace, fake: FakeTelegram, url: str
) -> tuple[Bursts, list[PressCost]]:
    meter = Meter()
    settings = sandbox_settings(fake, url, admin_ids=frozenset({ORGANIZER}))
    with CpuMeter():
        async with running_bot(settings) as app:
            settle_start_up()  # as `mafiatour run` does once the bot is built
            meter.attach(app.dispatcher)
            screens = await _opened_screens(args, fake)
            meter.recording = True
            bursts = await measured_bursts(args, fake, screens)
            meter.recording = False
    return bursts, list(meter.costs.values())


async def _on_a_bot_process(
    args: argparse.Namespace, fake: FakeTelegram, url: str, folder: Path
) -> tuple[Bursts, BotCpu]:
    """The bot as a server runs it (the plain `mafiatour run`, nothing of the harness in its
    process), its CPU read from /proc over the bursts: the whole process's and its main
    thread's, where `mafiatour run` runs its event loop (`asyncio.run`)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WEBHOOK_", "WEB_", "REDIS"))}
    env |= {
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE": fake.base_url,
        "DATABASE_URL": url,
        "ADMIN_IDS": str(ORGANIZER),
        "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(free_port()),
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "json",
    }
    bot = Replica(1, env, folder)
    await bot.start()
    try:
        screens = await _opened_screens(args, fake)
        # What this process made so far lives to its end: its collections during the bursts
        # walk only what the bursts make, as the bot's own do after its start (`gc.freeze`).
        gc.collect()
        gc.freeze()
        assert bot.process is not None
        pid = bot.process.pid
        before = cpu_seconds(pid) or 0.0, cpu_seconds(pid, thread=pid) or 0.0
        bursts = await measured_bursts(args, fake, screens)
        after = cpu_seconds(pid) or 0.0, cpu_seconds(pid, thread=pid) or 0.0
    finally:
        await bot.stop()
    return bursts, BotCpu(after[0] - before[0], after[1] - before[1])


async def _opened_screens(
    args: argparse.Namespace, fake: FakeTelegram
) -> list[tuple[FakeUser, ChatMessage, list[str]]]:
    """Every judge's protocol screen open, once the round's posts are sent."""
    await fake.wait_idle(quiet=1.0, timeout=120.0)
    judges = [fake.user(j, f"Judge{j}") for j in range(2, 2 + args.players // 10)]
    screens = [(j, *await opened(fake, j)) for j in judges]
    await fake.wait_idle(quiet=0.5, timeout=60.0)
    return screens


async def measured_bursts(
    args: argparse.Namespace,
    fake: FakeTelegram,
    screens: list[tuple[FakeUser, ChatMessage, list[str]]],
) -> Bursts:
    """Each press as its judge and the fake Telegram saw it, and this process's CPU seconds
    over the bursts."""
    profile = cProfile.Profile() if args.profile else None
    seen = Seen()
    handled = len(fake.stats.handling_latencies)
    process = time.process_time()
    if profile:
        profile.enable()
    for number in range(args.bursts):
        await burst(fake, screens, number, seen)
        await asyncio.sleep(args.pause)
    if profile:
        profile.disable()
        profile.dump_stats(args.profile)
    cpu = time.process_time() - process
    latencies = [seconds * 1000 for seconds in fake.stats.handling_latencies[handled:]]
    return Bursts(seen, cpu, latencies)


def report(args: argparse.Namespace, bursts: Bursts, costs: list[PressCost]) -> None:
    _heading(args, len(costs), "all in one process")
    print(f"  the event loop's CPU per press, ms: {spread([c.cpu * 1000 for c in costs])}")
    print(
        f"  per press: transactions {statistics.fmean(c.transactions for c in costs):.2f}, "
        f"statements {statistics.fmean(c.statements for c in costs):.2f}"
    )
    print(
        "  this process's CPU per press (the bot's threads, the fake Telegram, the judges): "
        f"{_per_press(bursts.cpu, bursts)}"
    )
    print(f"  handling time as the bot timed it, ms: {spread([c.seconds * 1000 for c in costs])}")
    _seen(bursts)


def report_bot_process(args: argparse.Namespace, bursts: Bursts, bot: BotCpu) -> None:
    _heading(args, len(bursts.seen.answers), "the bot in a process of its own")
    print(
        f"  the bot's process's CPU per press: {_per_press(bot.process, bursts)} (its event "
        f"loop's thread {_per_press(bot.loop, bursts)}, its other threads "
        f"{_per_press(bot.process - bot.loop, bursts)})"
    )
    print(
        "  this process's CPU per press (the fake Telegram, the judges): "
        f"{_per_press(bursts.cpu, bursts)}"
    )
    _seen(bursts)


def _heading(args: argparse.Namespace, presses: int, where: str) -> None:
    print(
        f"== {args.database}: {args.players} players, {presses} presses in "
        f"{args.bursts} bursts of {args.players // 10}, {where} ({load_average()})"
    )


def _per_press(seconds: float, bursts: Bursts) -> str:
    return f"{seconds / len(bursts.seen.answers) * 1000:.1f} ms"


def _seen(bursts: Bursts) -> None:
    seen = bursts.seen
    print(
        "  from getUpdates handing the press out to its answer, as Telegram saw it, ms: "
        f"{spread(bursts.handled)}"
    )
    print(f"  from the press to its answer, as the judge saw it, ms: {spread(seen.answers)}")
    print(
        f"  from the press to its screen's edit reaching Telegram ({len(seen.edits)} edits), "
        f"ms: {spread(seen.edits)}"
    )
    print(f"machine: {machine()}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--pause", type=float, default=1.5, help="seconds between two bursts")
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--profile", type=Path, default=None)
    parser.add_argument("--bot-process", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        asyncio.run(run(args, Path(scratch)))


if __name__ == "__main__":
    main()
