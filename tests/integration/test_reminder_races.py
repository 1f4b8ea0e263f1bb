"""Two transactions replanning one tournament's reminders at once, on PostgreSQL (READ
COMMITTED, where each would read the facts before the other commits): the reminders left
waiting are what a fresh replan makes of the committed facts, however they interleave (each
replan takes the tournament's advisory lock and reads its facts anew:
`SqlTournamentRepository.lock`). SQLite serialises its writers with BEGIN IMMEDIATE already.

Each race runs `REPETITIONS` times on a fresh tournament: an interleaving that loses is not
met every time."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import datetime, timedelta
from decimal import Decimal

import pytest

from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services import reminders
from domain.services.catalog import Services
from tests.factories import ORGANIZER, seed_tournament
from tests.integration.test_reminders import GAME_DAY, timetable_text
from tests.integration.test_reminders import NOW as GAME_NOW
from tests.integration.test_reminders_by_person import TIMES, _waiting
from tests.integration.test_tournament_lifecycle import (
    NOW,
    _form,
    _open_tournament,
    _people,
    _register,
)

pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)

REPETITIONS = 10


async def _stale_keys(
    uow_factory: SqlUnitOfWorkFactory, tournament_id: int, now: datetime
) -> list[str]:
    """The keys whose stored reminder differs from what a fresh replan of the tournament
    stores (missing, left over, or another time or text)."""
    stored = await _waiting(uow_factory, tournament_id)
    async with uow_factory() as uow:
        await reminders.replan_reminders(uow, tournament_id, now)
        await uow.commit()
    fresh = await _waiting(uow_factory, tournament_id)
    return sorted(key for key in stored.keys() | fresh.keys() if stored.get(key) != fresh.get(key))


def _report(stale: dict[int, list[str]]) -> str:
    each = {repetition: f"{len(keys)}, as {keys[0]}" for repetition, keys in stale.items()}
    return f"{len(stale)}/{REPETITIONS} races left stale reminders (by repetition): {each}"


async def test_a_timetable_saved_while_a_round_is_published_moves_the_round_s_reminders(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    organizer = Actor(ORGANIZER, GAME_NOW)
    stale: dict[int, list[str]] = {}
    for repetition in range(REPETITIONS):
        seeded = await seed_tournament(uow_factory)
        tid = seeded.tournament.id
        async with uow_factory() as uow:
            tournament = await uow.tournaments.get(tid)
            assert tournament is not None
            await uow.tournaments.save(replace(tournament, starts_on=GAME_DAY))
            await uow.commit()
        await services.timetables.set_timetable(organizer, tid, timetable_text())
        await services.rounds_seating.start_stage(organizer, tid, seed=7, swaps=2_000)
        await asyncio.gather(
            services.timetables.set_timetable(organizer, tid, timetable_text("12:30")),
            services.rounds_publication.publish_round(organizer, tid, 1),
        )
        keys = await _stale_keys(uow_factory, tid, GAME_NOW)
        if keys:
            stale[repetition] = keys
    assert not stale, _report(stale)


async def test_two_players_joining_a_team_at_once_leave_its_captain_s_reminder_right(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    stale: dict[int, list[str]] = {}
    for repetition in range(REPETITIONS):
        cup = await _open_tournament(
            uow_factory,
            "siberia-ural-teams",
            registration_deadline=NOW + timedelta(days=5),
            entry_fee=Decimal(500),
            timetable_json=TIMES,
            capacity=30,
        )
        base = 100 * repetition
        captain, first, second = base + 1, base + 2, base + 3
        await _people(uow_factory, *(1000 + number for number in (captain, first, second)))
        await _register(uow_factory, cup, captain)
        team = await services.teams.create_team(Actor(1000 + captain, NOW), cup.id, "Сибирь")
        # The captain alone: his team is incomplete, and he is reminded of it.
        assert f"team:{team.team.id}" in await _waiting(uow_factory, cup.id)
        await asyncio.gather(
            *(
                services.registration.register(
                    Actor(1000 + number, NOW), cup.id, _form(number), team_id=team.team.id
                )
                for number in (first, second)
            )
        )
        keys = await _stale_keys(uow_factory, cup.id, NOW)
        if keys:
            stale[repetition] = keys
    assert not stale, _report(stale)
