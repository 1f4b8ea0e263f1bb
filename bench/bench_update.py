"""Benchmark: one update at a time, the bot beside a bare aiogram 3 bot (bench/bare_bot.py: an
echo command and a one-button callback, nothing else) in the same run, every figure a ratio.

Both bots run in processes of their own (mafiatour as `mafiatour run` runs it, long polling,
on a fresh SQLite file), each polling a fake Telegram of its own in this process (the same
implementation, no limits enforced). The updates alternate between the two bots, so a
machine's load falls on both alike:
- `/help` from one of 10 people in turn, each writing about every 2 s (`--pace`): the round
  trip from the message to the bot's answer, median and p95, and p95 over the bot's own median;
- a press on the chief judge's protocol keyboard of a 60-player cup (`--players`: one round
  seated and published before the bot starts; he switches the screen's mode back and forth),
  against a press on the bare bot's button: from the press to its callback answer;
- the `setMyCommands` calls the bot made during the `/help`s (a person's menu is set when it
  would change, not at every command);
- each process's CPU per update over each phase (the figure a busy machine changes least),
  and for the /helps also without the CPU each spends idle (measured for `--idle` seconds
  before: the bot's outbox worker, scheduler and leases; the bare bot's polling), and its
  idle RSS before the first update.

Targets: `/help` median <= 2x the bare bot's and its p95 <= 3x its own median; a protocol
press median <= 3x the bare bot's press; idle RSS <= 1.5x the bare bot's.

Run: .venv/bin/python bench/bench_update.py [--helps 200] [--presses 100] [--players 60]
        [--idle 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from datetime import UTC, datetime
from pathlib import Path

from bench_protocol import cup
from bench_standings import load_average, machine

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.permissions import StaffRole
from domain.services.catalog import build_services
from domain.users import User
from harness.fake_telegram import ChatMessage, FakeTelegram, FakeUser
from harness.simulation.replicas import Replica, free_port
from harness.simulation.replicas.process import cpu_seconds as process_cpu_seconds

ORGANIZER = 1  # bench_protocol.cup's
CHIEF = 9
PEOPLE = range(500_001, 500_011)
HERE = Path(__file__).resolve().parent
START_SECONDS = 120.0
ANSWER_SECONDS = 60.0


async def seated_cup(url: str, players: int) -> None:
    """The cup of bench_protocol with a chief judge, its first round seated and published."""
    engine = create_engine(url)
    await upgrade(engine)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    tournament = await cup(uow_factory, players)
    now = datetime.now(UTC)
    async with uow_factory() as uow:
        await uow.users.save(User(CHIEF, "Chief", None, None, "ru"))
        await uow.staff.appoint(tournament, CHIEF, StaffRole.CHIEF_JUDGE)
        await uow.commit()
    services = build_services(uow_factory)
    preview = await services.rounds_seating.start_stage(
        Actor(ORGANIZER, now), tournament, seed=1, swaps=20_000
    )
    await services.rounds_publication.publish_round(Actor(ORGANIZER, now), tournament, 1)
    assert preview.stage.rounds
    await engine.dispose()


def cpu_seconds(pid: int) -> float:
    """The CPU time so far of a process this benchmark started and keeps running."""
    seconds = process_cpu_seconds(pid)
    assert seconds is not None, f"process {pid} has gone"
    return seconds


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        line = next(line for line in status if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


class Bare:
    """The bare aiogram bot's process."""

    def __init__(self, fake: FakeTelegram, folder: Path) -> None:
        self.fake, self.log = fake, folder / "bare.log"
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {**os.environ, "BOT_TOKEN": self.fake.token, "TELEGRAM_API_BASE": self.fake.base_url}
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, str(HERE / "bare_bot.py"), env=env, stdout=log, stderr=log
            )

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await self.process.wait()


async def timed_ms(action: Awaitable[object]) -> float:
    """How long the update took, from its sending (the awaitable's first step) to its answer."""
    start = time.perf_counter()
    await action
    return (time.perf_counter() - start) * 1000


async def ask_help(user: FakeUser) -> ChatMessage:
    user.send("/help")
    return await user.wait_for(timeout=ANSWER_SECONDS)


def figures(ms: list[float]) -> tuple[float, float]:
    ordered = sorted(ms)
    return statistics.median(ordered), ordered[max(0, round(0.95 * len(ordered)) - 1)]


def ratio_line(what: str, ours: list[float], bare: list[float]) -> str:
    (ours_p50, ours_p95), (bare_p50, bare_p95) = figures(ours), figures(bare)
    return (
        f"{what} ({len(ours)} each): mafiatour p50 {ours_p50:.1f} ms, p95 {ours_p95:.1f} ms, "
        f"max {max(ours):.1f} ms; bare aiogram p50 {bare_p50:.1f} ms, p95 {bare_p95:.1f} ms; "
        f"median ratio {ours_p50 / bare_p50:.2f}x, p95 ratio {ours_p95 / bare_p95:.2f}x, "
        f"mafiatour's p95 / its median {ours_p95 / ours_p50:.2f}x"
    )


def cpu_line(what: str, before: list[float], after: list[float], count: int) -> str:
    """The processes' CPU per update over a phase (idle work included: the outbox's cycles,
    the polling), the figure a busy machine changes least."""
    ours, bare = ((end - start) / count * 1000 for start, end in zip(before, after, strict=True))
    return (
        f"CPU of the process per {what}: mafiatour {ours:.1f} ms, bare aiogram {bare:.1f} ms, "
        f"ratio {ours / bare:.2f}x"
    )


async def idle_cpu(pids: tuple[int, int], seconds: float) -> tuple[float, float]:
    """Each process's CPU seconds per second while no update comes (the bot's outbox worker,
    reminder scheduler and leases keep working; the bare bot only long-polls)."""
    before = [cpu_seconds(pid) for pid in pids]
    await asyncio.sleep(seconds)
    ours, bare = (
        (cpu_seconds(pid) - start) / seconds for pid, start in zip(pids, before, strict=True)
    )
    return ours, bare


def net_cpu_line(
    before: list[float],
    after: list[float],
    count: int,
    idling: tuple[float, float],
    seconds: float,
) -> str:
    """The CPU per update over a phase without what each process spends idle over as long
    (`idle_cpu`): what the updates themselves cost."""
    ours, bare = (
        (end - start - rate * seconds) / count * 1000
        for start, end, rate in zip(before, after, idling, strict=True)
    )
    return (
        f"idle CPU: mafiatour {idling[0] * 1000:.1f} ms/s, bare aiogram {idling[1] * 1000:.1f} "
        f"ms/s; per /help without it: mafiatour {ours:.1f} ms, bare aiogram {bare:.1f} ms, "
        f"ratio {ours / bare:.2f}x"
    )


async def helps(
    ours: FakeTelegram, bare: FakeTelegram, count: int, pace: float
) -> tuple[list[float], list[float]]:
    """`count` /help to each bot, alternating, from the ten people in turn."""
    mine = [ours.user(person, f"P{person}") for person in PEOPLE]
    theirs = [bare.user(person, f"P{person}") for person in PEOPLE]
    times: tuple[list[float], list[float]] = ([], [])
    gap = pace / len(PEOPLE) / 2  # each person writes to each bot every `pace` seconds
    for number in range(count):
        for side, users in enumerate((mine, theirs)):
            user = users[number % len(users)]
            times[side].append(await timed_ms(ask_help(user)))
            await asyncio.sleep(gap)
    return times


async def presses(
    ours: FakeTelegram, bare: FakeTelegram, count: int, pace: float
) -> tuple[list[float], list[float]]:
    """The chief judge opens table 1's protocol and switches its mode back and forth; the
    bare bot's button is pressed as often, alternating."""
    chief = ours.user(CHIEF, "Chief")
    chief.send("/protocol")
    games = await chief.wait_for(lambda m: bool(m.buttons), ANSWER_SECONDS)
    await chief.press(games, games.buttons[0][0][0]).answer(ANSWER_SECONDS)
    screen = await chief.wait_for(lambda m: len(m.buttons) > 5, ANSWER_SECONDS)
    modes = [data for data in callback_data(ours, screen) if ":m:" in data]
    other = bare.user(CHIEF, "Chief")
    other.send("/start")
    button = await other.wait_for(timeout=ANSWER_SECONDS)
    times: tuple[list[float], list[float]] = ([], [])
    for number in range(count):
        times[0].append(await timed_ms(press(chief, screen, modes[number % 2])))
        await asyncio.sleep(pace / 2)
        times[1].append(await timed_ms(press(other, button, "press")))
        await asyncio.sleep(pace / 2)
    return times


async def press(user: FakeUser, message: ChatMessage, data: str) -> None:
    await user.press(message, callback_data=data).answer(ANSWER_SECONDS)


def callback_data(fake: FakeTelegram, message: ChatMessage) -> list[str]:
    stored = fake.world.chats[message.chat_id].messages[message.message_id]
    return [button.get("callback_data", "") for button in stored.inline_buttons()]


async def started(fake: FakeTelegram, person: int) -> None:
    """Until the bot answers (the bare bot has no health check)."""
    user = fake.user(person, "Probe")
    async with asyncio.timeout(START_SECONDS):
        while True:
            user.send("/help")
            try:
                await user.wait_for(timeout=2.0)
                return
            except TimeoutError:
                continue


async def run(args: argparse.Namespace, folder: Path) -> None:
    url = f"sqlite+aiosqlite:///{folder / 'bot.sqlite3'}"
    await seated_cup(url, args.players)
    ours, bare = FakeTelegram(token="700001:BENCH-OURS"), FakeTelegram(token="700002:BENCH-BARE")
    await ours.start()
    await bare.start()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("WEBHOOK_", "WEB_", "REDIS"))},
        "BOT_TOKEN": ours.token,
        "TELEGRAM_API_BASE": ours.base_url,
        "DATABASE_URL": url,
        "WEB_HOST": "127.0.0.1",
        "WEB_PORT": str(free_port()),
        "LOG_LEVEL": "WARNING",
        "LOG_FORMAT": "json",
    }
    replica, other = Replica(1, env, folder), Bare(bare, folder)
    try:
        await asyncio.gather(replica.start(), other.start())
        await asyncio.gather(started(ours, 400_000), started(bare, 400_000))
        await ours.wait_idle(quiet=1.0, timeout=START_SECONDS)  # the round's posts sent
        assert replica.process is not None and other.process is not None
        idle = rss_mb(replica.process.pid), rss_mb(other.process.pid)
        pids = (replica.process.pid, other.process.pid)
        idling = await idle_cpu(pids, args.idle)
        menus = ours.stats.calls["setMyCommands"]
        before, started_at = [cpu_seconds(pid) for pid in pids], time.perf_counter()
        help_times = await helps(ours, bare, args.helps, args.pace)
        after_helps, helps_seconds = [cpu_seconds(pid) for pid in pids], time.perf_counter()
        helps_seconds -= started_at
        menus = ours.stats.calls["setMyCommands"] - menus
        press_times = await presses(ours, bare, args.presses, args.pace)
        after_presses = [cpu_seconds(pid) for pid in pids]
    finally:
        await asyncio.gather(replica.stop(), other.stop())
        await ours.stop()
        await bare.stop()
    print(f"== one update at a time, mafiatour beside a bare aiogram 3 bot ({load_average()})")
    print(f"  {ratio_line('/help from 10 people in turn', *help_times)}")
    print(f"  {cpu_line('/help', before, after_helps, args.helps)}")
    print(f"  {net_cpu_line(before, after_helps, args.helps, idling, helps_seconds)}")
    print(f"  setMyCommands during the /helps: {menus}")
    what = f"a press on the chief judge's protocol keyboard, {args.players} players"
    print(f"  {ratio_line(what, *press_times)}")
    print(f"  {cpu_line('press', after_helps, after_presses, args.presses)}")
    print(
        f"  idle RSS: mafiatour {idle[0]:.0f} MB, bare aiogram {idle[1]:.0f} MB, "
        f"ratio {idle[0] / idle[1]:.2f}x"
    )
    print(f"  errors logged by mafiatour: {len(replica.errors())}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--helps", type=int, default=200)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between two updates")
    parser.add_argument(
        "--idle", type=float, default=20.0, help="seconds each process's idle CPU is measured"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        asyncio.run(run(args, Path(scratch)))
    print("targets: /help median <= 2x bare, its p95 <= 3x its median; press <= 3x; RSS <= 1.5x")
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
