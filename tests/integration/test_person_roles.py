"""A person's roles as his /help and his menu show them, read in one statement."""

from __future__ import annotations

from dataclasses import replace

from bot.db.sender_reads import read_sender
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services.catalog import build_services
from domain.services.users import PersonRole
from domain.tournament import TournamentState
from domain.users import User
from tests.factories import CHIEF_JUDGE, FIRST_JUDGE, FIRST_PLAYER, NOW, ORGANIZER, seed_tournament

NEWCOMER = 777_001
APPOINTED = 777_002


async def _roles(
    uow_factory: SqlUnitOfWorkFactory, user_id: int, admin: bool = False
) -> tuple[PersonRole, ...]:
    """His roles read on their own, checked against those from the standing a /help reads
    with the sender's conversation state (`bot.db.sender_reads`): they agree."""
    actor = Actor(user_id, NOW, is_admin=admin)
    users = build_services(uow_factory).users
    async with uow_factory() as uow:
        connection = await uow.session.connection()
        read = await read_sender(connection, f"conversation-of-{user_id}", user_id, True)
    assert read.person is not None
    roles = await users.roles_of(actor)
    assert await users.roles_of(actor, known=read.person.standing) == roles
    return roles


async def test_each_person_s_roles_while_running_and_once_finished(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    seeded = await seed_tournament(uow_factory, players=4, judges=1)
    async with uow_factory() as uow:
        await uow.users.save(User(APPOINTED, "A", None, None, "ru"))
        await uow.staff.appoint_organizer(APPOINTED, ORGANIZER, NOW)
        await uow.commit()
    assert await _roles(uow_factory, NEWCOMER) == ()
    assert await _roles(uow_factory, NEWCOMER, admin=True) == (PersonRole.ADMIN,)
    assert await _roles(uow_factory, APPOINTED) == (PersonRole.ORGANIZER,)
    assert await _roles(uow_factory, ORGANIZER) == (PersonRole.ORGANIZER,)
    assert await _roles(uow_factory, CHIEF_JUDGE) == (PersonRole.CHIEF_JUDGE,)
    assert await _roles(uow_factory, FIRST_JUDGE) == (PersonRole.TABLE_JUDGE,)
    assert await _roles(uow_factory, FIRST_PLAYER) == (PersonRole.PLAYER,)
    async with uow_factory() as uow:
        await uow.tournaments.save(replace(seeded.tournament, state=TournamentState.FINISHED))
        await uow.commit()
    # A finished tournament's judges have nothing left to judge; its author and players stay.
    assert await _roles(uow_factory, CHIEF_JUDGE) == ()
    assert await _roles(uow_factory, FIRST_JUDGE) == ()
    assert await _roles(uow_factory, ORGANIZER) == (PersonRole.ORGANIZER,)
    assert await _roles(uow_factory, FIRST_PLAYER) == (PersonRole.PLAYER,)
