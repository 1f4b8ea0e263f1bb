"""A registration, a paid mark, a check-in, a withdrawal and a promotion replan the person's own
reminders alone, and his teams' (`domain.services.reminders`, `participants_touched`,
`teams_touched`), on SQLite and PostgreSQL: what is left waiting is what a whole replan of the
tournament leaves, and the other players' reminders are not even read."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from decimal import Decimal

from sqlalchemy import event

from bot.db.models import ParticipantRow
from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.registration import Participant, ParticipantStatus
from domain.services import reminders
from domain.services.catalog import Services
from tests.integration.test_tournament_lifecycle import (
    ADMIN,
    ADMINS,
    NOW,
    _form,
    _open_tournament,
    _people,
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


async def _join(services: Services, cup_id: int, number: int, team_id: int) -> Participant:
    actor = Actor(1000 + number, NOW)
    mine = await services.registration.register(actor, cup_id, _form(number), team_id=team_id)
    assert mine.participant is not None
    return mine.participant


async def _unchanged_by_a_whole_replan(uow_factory: SqlUnitOfWorkFactory, cup_id: int) -> None:
    async with uow_factory() as uow:
        await reminders.replan_reminders(uow, cup_id, NOW)
        assert uow.scheduled_pushes.changed is False


async def test_a_team_tournament_s_steps_leave_what_a_whole_replan_leaves(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    cup = await _open_tournament(
        uow_factory,
        "siberia-ural-teams",
        registration_deadline=NOW + timedelta(days=5),
        entry_fee=Decimal(500),
        timetable_json=TIMES,
        capacity=5,
    )
    await _people(uow_factory, *(1000 + number for number in range(1, 8)))
    ids = {captain: (await _register(uow_factory, cup, captain)).id for captain in (1, 4)}
    first = await services.teams.create_team(Actor(1001, NOW), cup.id, "Сибирь")
    second = await services.teams.create_team(Actor(1004, NOW), cup.id, "Урал")
    for number, team in ((2, first), (3, first), (5, second), (6, second)):
        ids[number] = (await _join(services, cup.id, number, team.team.id)).id
    # The sixth holds the waiting list's place in "Урал": the captain hears it is incomplete.
    waiting = await _waiting(uow_factory, cup.id)
    assert f"team:{first.team.id}" not in waiting and f"team:{second.team.id}" in waiting
    assert f"unpaid:{ids[6]}" not in waiting and f"unpaid:{ids[5]}" in waiting
    await _unchanged_by_a_whole_replan(uow_factory, cup.id)
    # A member of "Сибирь" withdraws: his team is short, the waiting one completes "Урал".
    await services.registration.withdraw(Actor(1002, NOW), cup.id)
    waiting = await _waiting(uow_factory, cup.id)
    assert f"team:{first.team.id}" in waiting and f"team:{second.team.id}" not in waiting
    assert f"unpaid:{ids[2]}" not in waiting and f"checkin:{ids[2]}" not in waiting
    assert f"unpaid:{ids[6]}" in waiting and f"checkin:{ids[6]}" in waiting
    await _unchanged_by_a_whole_replan(uow_factory, cup.id)
    # The captain of "Сибирь" takes it out: no reminder of it or of its members is left.
    await services.teams.withdraw_team(Actor(1001, NOW), first.team.id)
    waiting = await _waiting(uow_factory, cup.id)
    gone = {f"team:{first.team.id}", f"unpaid:{ids[1]}", f"unpaid:{ids[3]}", f"checkin:{ids[3]}"}
    assert not gone & set(waiting) and f"unpaid:{ids[5]}" in waiting
    await _unchanged_by_a_whole_replan(uow_factory, cup.id)


async def _team_steps(
    uow_factory: SqlUnitOfWorkFactory, services: Services, base: int, size: int
) -> tuple[int, int, int, int]:
    """In a full cup of `size` players, one of them a team's captain: the statements of a
    registration into his team (it waits) and of a withdrawal that promotes him, and the
    participants' rows each reads."""
    cup = await _open_tournament(
        uow_factory,
        "siberia-ural-teams",
        registration_deadline=NOW + timedelta(days=5),
        entry_fee=Decimal(500),
        timetable_json=TIMES,
        capacity=size,
    )
    for number in range(base, base + size):
        await _register(uow_factory, cup, number)
    team = await services.teams.create_team(Actor(1000 + base, NOW), cup.id, f"Команда {base}")
    await _people(uow_factory, 1000 + base + size)
    with counting() as registration, _participants_read() as registration_rows:
        joined = await _join(services, cup.id, base + size, team.team.id)
    with counting() as withdrawal, _participants_read() as withdrawal_rows:
        notices = await services.registration.withdraw(Actor(1000 + base + 1, NOW), cup.id)
    assert joined.status is ParticipantStatus.WAITING
    assert {n.chat_id for n in notices} == {1000 + base, 1000 + base + size}
    return (
        registration.statements,
        len(registration_rows),
        withdrawal.statements,
        len(withdrawal_rows),
    )


@contextmanager
def _participants_read() -> Iterator[list[object]]:
    """The participants' rows read from the database inside the block (one statement may
    read the whole list: its rows tell)."""
    rows: list[object] = []

    def loaded(row: object, *_context: object) -> None:  # "refresh" tells its attributes too
        rows.append(row)

    event.listen(ParticipantRow, "load", loaded)
    event.listen(ParticipantRow, "refresh", loaded)
    try:
        yield rows
    finally:
        event.remove(ParticipantRow, "load", loaded)
        event.remove(ParticipantRow, "refresh", loaded)


async def test_a_team_registration_and_a_promotion_cost_the_same_in_a_big_list(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    small = await _team_steps(uow_factory, services, 100, 6)
    big = await _team_steps(uow_factory, services, 200, 30)
    assert big == small
