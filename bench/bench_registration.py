"""Benchmark: a registration step's cost by the size of the tournament (issue 27: O(1), the
same at 300 registered players as at 30) and a registration burst's throughput.

On a fresh SQLite file (or PostgreSQL: `--database postgresql`, a fresh database from
MAFIATOUR_BENCH_POSTGRES_URL), two open tournaments with an entry fee, a deadline and a
timetable (so every player has an unpaid-fee and a check-in reminder waiting) are filled
through the use cases a registration's updates run (`/start` by the link:
`open_registration_link`; the summary's confirmation: `register`), one to 30 players, one to
`--players`. Then 20 more register in each, in turns, and the organizer marks 20 of each
paid, in turns; printed side by side: the median milliseconds of a step in each. A step
O(1) in the tournament's size costs the same in both columns. Then a burst in a third
tournament: `--players` people open the link and confirm at once (`--concurrency` at a
time), printed as updates a second (the two updates with a transaction, the /start and the
confirmation press; the nickname, club and city answers touch only the conversation's
state). The burst through Telegram and the whole bot is `bench_simulation.py`'s
"registration burst". `--profile FILE` writes the cProfile stats of the one-by-one part.

Run: .venv/bin/python bench/bench_registration.py [--players 300] [--database sqlite|postgresql]
        [--concurrency 30] [--profile FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from bench_simulation import POSTGRES_URL, _postgres
from bench_standings import load_average, machine
from sqlalchemy.engine import make_url

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.invites import Invite, InviteKind
from domain.registration import Application
from domain.services.catalog import Services, build_services
from domain.tournament import Tournament, TournamentState
from domain.users import User

ORGANIZER = 1
FIRST = 10_000
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TIMES = json.dumps(
    [{"day": 1, "events": [{"kind": "game", "time": "11:00", "stage": "qualifying"}]}]
)
# The steps timed at each size: 20 registrations and 20 paid marks in a tournament of 30
# registered and in one of `--players`, taken in turns (so the machine's load, which drifts,
# weighs on both columns alike).
SMALL, WINDOW = 30, 20
# Apart from one another, the Telegram ids of the three tournaments' players.
BLOCK = 100_000
# A registration's updates that open a unit of work: /start by the link, the confirmation.
STEPS_PER_REGISTRATION = 2


@dataclass
class Steps:
    """Seconds per step, by the tournament's size when it ran."""

    registering: dict[str, list[float]] = field(default_factory=lambda: {"small": [], "all": []})
    paying: dict[str, list[float]] = field(default_factory=lambda: {"small": [], "all": []})
    burst_updates_per_s: float = 0.0


async def _open_cup(uow_factory: SqlUnitOfWorkFactory, first: int, players: int) -> Invite:
    async with uow_factory() as uow:
        for telegram_id in (ORGANIZER, *range(first, first + players)):
            await uow.users.save(User(telegram_id, f"U{telegram_id}", None, None, "ru"))
        cup = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Cup",
                regulation_id="black-raven-cup",
                state=TournamentState.REGISTRATION_OPEN,
                timezone="Europe/Moscow",
                created_by=ORGANIZER,
                created_at=NOW,
                venue="Club",
                starts_on=date(2026, 12, 20),
                capacity=players,
                registration_deadline=NOW + timedelta(days=10),
                entry_fee=Decimal(500),
                timetable_json=TIMES,
            )
        )
        invite = Invite(uuid.uuid4().hex[:16], InviteKind.REGISTRATION, cup.id, None, NOW)
        await uow.invites.add(invite)
        await uow.commit()
    return invite


async def _registers(services: Services, invite: Invite, telegram_id: int) -> int:
    """One person's registration as his updates run it: the link opened, the form confirmed."""
    actor = Actor(telegram_id, NOW)
    opened = await services.registration.open_registration_link(actor, invite.payload)
    assert opened is not None and opened[1].participant is None
    assert invite.tournament_id is not None
    number = telegram_id - FIRST
    mine = await services.registration.register(
        actor,
        invite.tournament_id,
        Application(f"Player {number}", f"Club {number % 40}", "City"),
    )
    assert mine.participant is not None
    return mine.participant.id


async def _timed(into: list[float], step: Awaitable[object]) -> None:
    started = time.perf_counter()
    await step
    into.append(time.perf_counter() - started)


async def _one_by_one(uow_factory: SqlUnitOfWorkFactory, players: int, steps: Steps) -> None:
    services = build_services(uow_factory)
    cups = {"small": (FIRST, SMALL), "all": (FIRST + BLOCK, players)}
    invites, ids = {}, {}
    for size, (first, registered) in cups.items():
        invites[size] = await _open_cup(uow_factory, first, registered + WINDOW)
        ids[size] = [
            await _registers(services, invites[size], first + number)
            for number in range(registered)
        ]
    for number in range(WINDOW):
        for size, (first, registered) in cups.items():
            step = _registers(services, invites[size], first + registered + number)
            await _timed(steps.registering[size], step)
    for number in range(WINDOW):
        for size in cups:
            mark = services.registration.mark_paid(Actor(ORGANIZER, NOW), ids[size][number], True)
            await _timed(steps.paying[size], mark)


async def _burst(
    uow_factory: SqlUnitOfWorkFactory, players: int, concurrency: int, steps: Steps
) -> None:
    first = FIRST + 2 * BLOCK
    invite = await _open_cup(uow_factory, first, players)
    services = build_services(uow_factory)
    gate = asyncio.Semaphore(concurrency)

    async def person(telegram_id: int) -> None:
        async with gate:
            await _registers(services, invite, telegram_id)

    began = time.perf_counter()
    await asyncio.gather(*(person(first + number) for number in range(players)))
    elapsed = time.perf_counter() - began
    steps.burst_updates_per_s = players * STEPS_PER_REGISTRATION / elapsed


@asynccontextmanager
async def _database(database: str, folder: Path) -> AsyncIterator[str]:
    if database == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / f'{uuid.uuid4().hex}.sqlite3'}"
        return
    name = f"bench_registration_{uuid.uuid4().hex[:8]}"
    await _postgres("create", name)
    try:
        yield make_url(POSTGRES_URL).set(database=name).render_as_string(False)
    finally:
        await _postgres("drop", name)


async def _run(args: argparse.Namespace, folder: Path) -> Steps:
    steps = Steps()
    async with _database(args.database, folder) as url:
        engine = create_engine(url)
        try:
            await upgrade(engine)
            uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
            await _profiled(args.profile, lambda: _one_by_one(uow_factory, args.players, steps))
            await _burst(uow_factory, args.players, args.concurrency, steps)
        finally:
            await engine.dispose()
    return steps


async def _profiled(into: str | None, run: Callable[[], Awaitable[None]]) -> None:
    """The one-by-one registrations, under cProfile when asked (`--profile FILE`)."""
    if into is None:
        await run()
        return
    profile = cProfile.Profile()
    profile.enable()
    try:
        await run()
    finally:
        profile.disable()
        profile.dump_stats(into)


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--concurrency", type=int, default=30)
    parser.add_argument("--profile", help="write the one-by-one run's cProfile stats here")
    args = parser.parse_args()
    if not SMALL < args.players < BLOCK - WINDOW:
        parser.error(f"--players: more than {SMALL}, fewer than {BLOCK - WINDOW}")
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        before = load_average()
        steps = asyncio.run(_run(args, Path(scratch)))
    registering, paying = steps.registering, steps.paying
    print(
        f"== {args.database}: {args.players} registrations one after another, then a burst "
        f"({before} at the start, {load_average()} at the end)"
    )
    rows = [
        (f"median of {WINDOW} steps, in turns", f"at {SMALL} registered", f"at {args.players}"),
        ("registration (2 steps)", _ms(registering["small"]), _ms(registering["all"])),
        ("paid mark", _ms(paying["small"]), _ms(paying["all"])),
    ]
    for name, small, large in rows:
        print(f"  {name:<34}{small:>18}{large:>18}")
    print(
        f"  burst: {args.players} people register at once ({args.concurrency} at a time): "
        f"{steps.burst_updates_per_s:.1f} updates/s (/start and confirmation)"
    )
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
