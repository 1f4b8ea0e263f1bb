"""Benchmark: a registration step's cost by the size of the tournament (issue 27: O(1), the
same at 300 registered players as at 30) and a registration burst's throughput.

On a fresh SQLite file (or PostgreSQL: `--database postgresql`, a fresh database from
MAFIATOUR_BENCH_POSTGRES_URL), open tournaments with an entry fee, a deadline and a
timetable (so every player has an unpaid-fee and a check-in reminder waiting) are filled
through the use cases a registration's updates run (`/start` by the link:
`open_registration_link`; the summary's confirmation: `register`), one to 30 players, one to
`--players`, each full. Then, in turns in the two (so the machine's load, which drifts,
weighs on both alike), 20 of each step: a registration (onto the waiting list), a
withdrawal that promotes the first waiting player, the organizer's paid mark; and in two
team tournaments of the same sizes a registration into a team (its captain told, the team's
reminder moved). Printed side by side, at 30 and at `--players`, a step's median time, its
CPU (`time.process_time`, the figure the machine's load changes least), its statements and
the participants' rows it read: a step O(1) in the tournament's size costs the same in both
columns. Then a burst in a fresh tournament: `--players` people open the link and confirm
at once (`--concurrency` at a time), printed as updates a second (the two updates with a
transaction, the /start and the confirmation press; the nickname, club and city answers
touch only the conversation's state). The burst through Telegram and the whole bot is
`bench_simulation.py`'s "registration burst". `--profile FILE` writes the cProfile stats of
the one-by-one part.

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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from bench_simulation import POSTGRES_URL, _postgres
from bench_standings import load_average, machine
from sqlalchemy import event
from sqlalchemy.engine import make_url

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.models import ParticipantRow
from bot.db.transactions import counting
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
# The steps measured at each size: 20 of each in a tournament of 30 registered and in one of
# `--players`, taken in turns.
SMALL, WINDOW = 30, 20
# Apart from one another, the Telegram ids of the tournaments' players.
BLOCK = 100_000
# A registration's updates that open a unit of work: /start by the link, the confirmation.
STEPS_PER_REGISTRATION = 2
INDIVIDUAL, TEAMS = "black-raven-cup", "siberia-ural-teams"
# The steps printed, in order.
STEPS = ("registration (2 steps)", "withdrawal, a promotion", "paid mark", "team registration")


@dataclass
class Cost:
    """One step: its wall-clock seconds, its CPU seconds, its statements and the participants'
    rows it read."""

    seconds: float
    cpu: float
    statements: int
    rows: int


@dataclass
class Steps:
    """The steps measured, by kind and by the tournament's size when they ran."""

    costs: dict[tuple[str, str], list[Cost]] = field(default_factory=dict)
    burst_updates_per_s: float = 0.0

    def of(self, step: str, size: str) -> list[Cost]:
        return self.costs.setdefault((step, size), [])


@dataclass
class Cup:
    """A tournament being measured: its link, the Telegram ids of its people (`players`
    registered at the start, then newcomers) and its participants' ids, by Telegram id."""

    invite: Invite
    first: int
    players: int
    ids: dict[int, int] = field(default_factory=dict)
    newcomers: int = 0

    def newcomer(self) -> int:
        self.newcomers += 1
        return self.first + self.players + self.newcomers - 1


async def _open_cup(
    uow_factory: SqlUnitOfWorkFactory, first: int, players: int, regulation: str = INDIVIDUAL
) -> Cup:
    """A tournament with room for `players` (filled later), and the accounts of its people."""
    async with uow_factory() as uow:
        for telegram_id in (ORGANIZER, *range(first, first + players + 3 * WINDOW)):
            await uow.users.save(User(telegram_id, f"U{telegram_id}", None, None, "ru"))
        cup = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Cup",
                regulation_id=regulation,
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
    return Cup(invite, first, players)


async def _registers(
    services: Services, cup: Cup, telegram_id: int, team_id: int | None = None
) -> None:
    """One person's registration as his updates run it: the link opened, the form confirmed."""
    actor = Actor(telegram_id, NOW)
    opened = await services.registration.open_registration_link(actor, cup.invite.payload)
    assert opened is not None and opened[1].participant is None
    assert cup.invite.tournament_id is not None
    number = telegram_id - FIRST
    mine = await services.registration.register(
        actor,
        cup.invite.tournament_id,
        Application(f"Player {number}", f"Club {number % 40}", "City"),
        team_id,
    )
    assert mine.participant is not None
    cup.ids[telegram_id] = mine.participant.id


@contextmanager
def _participants_read() -> Iterator[list[object]]:
    """The participants' rows the ORM builds from the database inside the block."""
    rows: list[object] = []

    def loaded(row: object, _context: object, *_attrs: object) -> None:
        rows.append(row)

    for name in ("load", "refresh"):
        event.listen(ParticipantRow, name, loaded)
    try:
        yield rows
    finally:
        for name in ("load", "refresh"):
            event.remove(ParticipantRow, name, loaded)


async def _measured(into: list[Cost], step: Awaitable[object]) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    with counting() as tally, _participants_read() as rows:
        await step
    elapsed = time.perf_counter() - started
    into.append(Cost(elapsed, time.process_time() - cpu, tally.statements, len(rows)))


async def _filled(services: Services, cups: dict[str, Cup]) -> None:
    for cup in cups.values():
        for telegram_id in range(cup.first, cup.first + cup.players):
            await _registers(services, cup, telegram_id)


async def _one_by_one(uow_factory: SqlUnitOfWorkFactory, players: int, steps: Steps) -> None:
    services = build_services(uow_factory)
    sizes = {"small": (FIRST, SMALL), "all": (FIRST + BLOCK, players)}
    cups = {size: await _open_cup(uow_factory, *shape) for size, shape in sizes.items()}
    teams = {
        size: await _open_cup(uow_factory, first + BLOCK * 3, count + WINDOW, TEAMS)
        for size, (first, count) in sizes.items()
    }
    await _filled(services, cups)
    for cup in teams.values():
        cup.players -= WINDOW
    await _filled(services, teams)
    organizer = Actor(ORGANIZER, NOW)
    for number in range(WINDOW):
        for size, cup in cups.items():
            await _measured(steps.of(STEPS[0], size), _registers(services, cup, cup.newcomer()))
            leaving = Actor(cup.first + number, NOW)
            withdrawal = services.registration.withdraw(leaving, cup.invite.tournament_id or 0)
            await _measured(steps.of(STEPS[1], size), withdrawal)
            payer = cup.ids[cup.first + WINDOW + number]
            paid = services.registration.mark_paid(organizer, payer, True)
            await _measured(steps.of(STEPS[2], size), paid)
        for size, cup in teams.items():
            captain = Actor(cup.first + number, NOW)
            team = await services.teams.create_team(
                captain, cup.invite.tournament_id or 0, f"T{number}"
            )
            joining = _registers(services, cup, cup.newcomer(), team.team.id)
            await _measured(steps.of(STEPS[3], size), joining)


async def _burst(
    uow_factory: SqlUnitOfWorkFactory, players: int, concurrency: int, steps: Steps
) -> None:
    first = FIRST + 2 * BLOCK
    cup = await _open_cup(uow_factory, first, players)
    services = build_services(uow_factory)
    gate = asyncio.Semaphore(concurrency)

    async def person(telegram_id: int) -> None:
        async with gate:
            await _registers(services, cup, telegram_id)

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


def _line(costs: list[Cost]) -> str:
    def median(values: list[float]) -> float:
        return statistics.median(values)

    seconds = median([cost.seconds for cost in costs]) * 1000
    cpu = median([cost.cpu for cost in costs]) * 1000
    statements = median([cost.statements for cost in costs])
    rows = median([cost.rows for cost in costs])
    return f"{seconds:>7.1f}ms{cpu:>7.1f}ms{statements:>6g}{rows:>6g}"


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
    print(
        f"== {args.database}: {args.players} registrations one after another, then a burst "
        f"({before} at the start, {load_average()} at the end)"
    )
    print(f"  median of {WINDOW} steps, in turns: at {SMALL} registered | at {args.players}")
    heads = f"{'time':>9}{'CPU':>9}{'stmts':>6}{'rows':>6}"
    print(f"  {'':<26}{heads} |{heads}")
    for step in STEPS:
        print(f"  {step:<26}{_line(steps.of(step, 'small'))} |{_line(steps.of(step, 'all'))}")
    print(
        f"  burst: {args.players} people register at once ({args.concurrency} at a time): "
        f"{steps.burst_updates_per_s:.1f} updates/s (/start and confirmation)"
    )
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
