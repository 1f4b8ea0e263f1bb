"""Benchmark: a registration's cost by the size of the tournament, its reminders replanned for
the person alone (as the bot does) and, beside it, the whole tournament's plan rebuilt at each
step (as it did before issue 27).

On a fresh SQLite file (or PostgreSQL: `--database postgresql`, a fresh database from
MAFIATOUR_BENCH_POSTGRES_URL), an open tournament with an entry fee, a deadline and a
timetable (so every player has an unpaid-fee and a check-in reminder waiting) takes `--players`
registrations one after another through the use case (`registration.register`), then a paid
mark for each; prints the median milliseconds of a registration and of a paid mark among the
first and the last 50, and the registrations a second. A step O(1) in the tournament's size
costs the same at the end as at the start. The burst's updates a second, through Telegram,
are `bench_simulation.py`'s "registration burst".

Run: .venv/bin/python bench/bench_registration.py [--players 300] [--database sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

from bench_simulation import POSTGRES_URL, _postgres
from bench_standings import load_average, machine
from sqlalchemy.engine import make_url

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWork, SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.registration import Application
from domain.services.catalog import build_services
from domain.services.ports import UnitOfWork
from domain.services.reminders import replan_touched
from domain.tournament import Tournament, TournamentState
from domain.users import User

ORGANIZER = 1
FIRST = 10_000
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
TIMES = json.dumps(
    [{"day": 1, "events": [{"kind": "game", "time": "11:00", "stage": "qualifying"}]}]
)


async def _whole_plan(uow: UnitOfWork, now: datetime) -> None:
    """The after-change step as it was: a participant's write replans his whole tournament."""
    uow.reminders_touched.update(tournament for tournament, _ in uow.participants_touched)
    uow.participants_touched.clear()
    await replan_touched(uow, now)


class _WholeFactory(SqlUnitOfWorkFactory):
    def __call__(self) -> SqlUnitOfWork:
        return SqlUnitOfWork(self._session_factory, after_change=_whole_plan)


async def _open_cup(uow_factory: SqlUnitOfWorkFactory, players: int) -> int:
    async with uow_factory() as uow:
        for telegram_id in (ORGANIZER, *range(FIRST, FIRST + players)):
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
        await uow.commit()
    return cup.id


async def _run(url: str, players: int, whole: bool) -> tuple[list[float], list[float], float]:
    engine = create_engine(url)
    await upgrade(engine)
    sessions = create_session_factory(engine)
    uow_factory = _WholeFactory(sessions) if whole else SqlUnitOfWorkFactory(sessions)
    cup = await _open_cup(uow_factory, players)
    services = build_services(uow_factory)
    registering: list[float] = []
    began = time.perf_counter()
    ids = []
    for number in range(players):
        actor = Actor(FIRST + number, NOW)
        started = time.perf_counter()
        mine = await services.registration.register(
            actor, cup, Application(f"Player {number}", f"Club {number}", "City")
        )
        registering.append(time.perf_counter() - started)
        assert mine.participant is not None
        ids.append(mine.participant.id)
    rate = players / (time.perf_counter() - began)
    paying: list[float] = []
    for participant_id in ids:
        started = time.perf_counter()
        await services.registration.mark_paid(Actor(ORGANIZER, NOW), participant_id, True)
        paying.append(time.perf_counter() - started)
    await engine.dispose()
    return registering, paying, rate


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f}"


async def _one(database: str, folder: Path, players: int, whole: bool) -> str:
    if database == "sqlite":
        url = f"sqlite+aiosqlite:///{folder / f'{uuid.uuid4().hex}.sqlite3'}"
        registering, paying, rate = await _run(url, players, whole)
    else:
        name = f"bench_registration_{uuid.uuid4().hex[:8]}"
        await _postgres("create", name)
        try:
            url = make_url(POSTGRES_URL).set(database=name).render_as_string(False)
            registering, paying, rate = await _run(url, players, whole)
        finally:
            await _postgres("drop", name)
    how = "the whole plan rebuilt at each step" if whole else "the person's reminders alone"
    return (
        f"  {how}: registration median {_ms(registering[:50])} ms among the first 50, "
        f"{_ms(registering[-50:])} ms among the last 50, {rate:.1f} registrations/s; "
        f"paid mark {_ms(paying[:50])} / {_ms(paying[-50:])} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mafiatour-bench-") as scratch:
        before = load_average()
        lines = [
            asyncio.run(_one(args.database, Path(scratch), args.players, whole))
            for whole in (False, True)
        ]
    print(
        f"== {args.database}: {args.players} registrations one after another "
        f"({before} at the start, {load_average()} at the end)"
    )
    print("\n".join(lines))
    print(f"machine: {machine()}")


if __name__ == "__main__":
    main()
