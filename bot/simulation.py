"""The offline demonstration: the real bot against the bundled fake Telegram, with scripted
people, printed as the people would see their chats."""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.fake_telegram import FakeTelegram, FakeUser
from bot.sandbox import running_bot, sandbox_settings


@dataclass(frozen=True)
class SimulationFigures:
    """What the run cost: Telegram calls by kind, updates handled, wall time."""

    updates: int
    messages_sent: int
    edits: int
    callback_answers: int
    wall_seconds: float


async def _visitor_meets_the_bot(anna: FakeUser, bob: FakeUser) -> None:
    anna.send("/start")
    await anna.wait_for()
    anna.send("/help")
    await anna.wait_for()
    bob.send("/start")
    await bob.wait_for()
    bob.send("/lang")
    question = await bob.wait_for()
    await bob.press(question, button_text="English")
    await bob.wait_for()
    bob.send("/help")
    await bob.wait_for()


def _print_chat(out: TextIO, person: FakeUser) -> None:
    out.write(f"\n── chat with {person.first_name} ──\n")
    for message in person.messages:
        who = "bot" if message.from_bot else person.first_name
        for number, line in enumerate((message.text or "").splitlines()):
            out.write(f"{who if number == 0 else '':>6} │ {line}\n")
        for row in message.buttons:
            out.write(f"{'':>6} │ " + "  ".join(f"[{text}]" for text, _ in row) + "\n")


async def simulate(out: TextIO, workdir: Path | None = None) -> SimulationFigures:
    """Run the scripted scenario and print each chat; returns the run's figures."""
    started = time.perf_counter()
    fake = FakeTelegram()
    await fake.start()
    try:
        with tempfile.TemporaryDirectory(prefix="mafiatour-") as scratch:
            folder = workdir or Path(scratch)
            url = f"sqlite+aiosqlite:///{folder / 'simulation.sqlite3'}"
            async with running_bot(sandbox_settings(fake, url)):
                anna = fake.user(1001, "Анна", language_code="ru")
                bob = fake.user(1002, "Bob", language_code="en")
                await _visitor_meets_the_bot(anna, bob)
                await fake.wait_idle()
            for person in (anna, bob):
                _print_chat(out, person)
    finally:
        await fake.stop()
    calls = fake.stats.calls
    return SimulationFigures(
        updates=fake.world.delivered_update_id,
        messages_sent=calls["sendMessage"],
        edits=calls["editMessageText"],
        callback_answers=calls["answerCallbackQuery"],
        wall_seconds=time.perf_counter() - started,
    )
