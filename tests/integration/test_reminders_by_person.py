"""A registration, a paid mark, a check-in and a withdrawal replan the person's own reminders
alone (`domain.services.reminders`, `participants_touched`), on SQLite and PostgreSQL: what is
left waiting is what a whole replan of the tournament leaves, and the other players'
reminders are not even read."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services import reminders
from domain.services.catalog import Services
from tests.integration.test_tournament_lifecycle import (
    ADMIN,
    ADMINS,
    NOW,
    _open_tournament,
    _register,
)

TIMES = json.dumps(
    [{"day": 1, "events": [{"kind": "game", "time": "11:00", "stage": "qualifying"}]}]
)


async def _waiting(uow_factory: SqlUnitOfWorkFactory, tournament_id: int) -> dict[str, object]:
    prefix = f"reminder:{tournament_id}:"
    async with uow_factory() as uow:
        pushes = await uow.scheduled_pushes.waiting(prefix)
    return {key.removeprefix(prefix): push for key, push in pushes.items()}


async def test_single_person_steps_leave_what_a_whole_replan_leaves(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    cup = await _open_tournament(
        uow_factory,
        registration_deadline=NOW + timedelta(days=5),
        entry_fee=Decimal(500),
        timetable_json=TIMES,
        capacity=4,
    )
    people = [await _register(uow_factory, cup, number) for number in range(1, 7)]
    admin = Actor.of(ADMIN, NOW, ADMINS)
    await services.registration.mark_paid(admin, people[0].id, True)
    await services.checkin.check_in(Actor(people[1].user_id or 0, NOW), cup.id)
    # A withdrawal frees a place: the first waiting player is promoted and now reminded.
    await services.registration.withdraw(Actor(people[2].user_id or 0, NOW), cup.id)
    stepwise = await _waiting(uow_factory, cup.id)
    assert "unpaid:1" not in stepwise and "unpaid:2" in stepwise
    assert "checkin:2" not in stepwise and "checkin:1" in stepwise
    assert "unpaid:3" not in stepwise and "checkin:3" not in stepwise
    assert "unpaid:5" in stepwise and "unpaid:6" not in stepwise  # 6 still waits
    async with uow_factory() as uow:
        await reminders.replan_reminders(uow, cup.id, NOW)
        assert uow.scheduled_pushes.changed is False
        await uow.commit()
    assert await _waiting(uow_factory, cup.id) == stepwise


async def test_a_paid_mark_costs_as_many_statements_in_a_big_list_as_in_a_small_one(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    cup = await _open_tournament(
        uow_factory,
        registration_deadline=NOW + timedelta(days=5),
        entry_fee=Decimal(500),
        capacity=100,
    )
    people = [await _register(uow_factory, cup, number) for number in range(1, 9)]
    admin = Actor.of(ADMIN, NOW, ADMINS)
    with counting() as small:
        await services.registration.mark_paid(admin, people[0].id, True)
    people += [await _register(uow_factory, cup, number) for number in range(9, 25)]
    with counting() as big:
        await services.registration.mark_paid(admin, people[-1].id, True)
    assert big.statements == small.statements
