"""One nickname, one holder, on SQLite and PostgreSQL: the storage keeps each participant's
nickname as the rules compare nicknames (`domain.validation.nickname_key`: case and width
ignored), so a registration finds a nickname taken by index, the database itself refuses a
second holder, and the migration fills the keys of participants stored before it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import downgrade, upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.registration import Application, Participant, ParticipantStatus
from domain.services.catalog import build_services
from domain.validation import Invalid
from tests.integration.test_tournament_lifecycle import (
    ADMINS,
    NOW,
    _open_tournament,
    _people,
    _register,
)

# "Игрок 1" as others may type it: in capitals, and in fullwidth digits (NFKC makes them one).
SPELLINGS = ["ИГРОК 1", "игрок \uff11"]


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_another_spelling_of_a_taken_nickname_is_refused(
    uow_factory: SqlUnitOfWorkFactory, spelling: str
) -> None:
    cup = await _open_tournament(uow_factory)
    await _register(uow_factory, cup, 1)
    await _people(uow_factory, 2001)
    with pytest.raises(Invalid, match="nickname-taken"):
        await build_services(uow_factory).registration.register(
            Actor.of(2001, NOW, ADMINS), cup.id, Application(spelling, "Сова", "Омск")
        )


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_the_database_refuses_a_second_holder_of_one_nickname(
    uow_factory: SqlUnitOfWorkFactory, spelling: str
) -> None:
    """What two registrations racing past the rule's check would store is refused by the
    storage as the rule refuses it; a withdrawn player's nickname may be taken again."""
    cup = await _open_tournament(uow_factory)
    first = await _register(uow_factory, cup, 1)
    twin = Participant(
        id=0,
        tournament_id=cup.id,
        user_id=None,
        nickname=spelling,
        club="Сова",
        city="Омск",
        status=ParticipantStatus.REGISTERED,
        registered_at=NOW,
    )
    with pytest.raises(Invalid, match="nickname-taken"):
        async with uow_factory() as uow:
            await uow.participants.add(twin)
            await uow.commit()
    async with uow_factory() as uow:
        await uow.participants.save(replace(first, status=ParticipantStatus.WITHDRAWN))
        await uow.participants.add(twin)
        await uow.commit()
    async with uow_factory() as uow:
        holders = await uow.participants.rivals(cup.id, "Игрок 1")
    assert [p.nickname for p in holders] == [spelling]


async def test_the_migration_fills_the_keys_of_participants_stored_before_it(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade(engine)
        uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
        cup = await _open_tournament(uow_factory, club_quota=5)
        await _register(uow_factory, cup, 1, club="Ворон")
        await downgrade(engine, "0018")
        await upgrade(engine)
        async with uow_factory() as uow:
            found = await uow.participants.rivals(cup.id, "ИГРОК 1")
            same_club = await uow.participants.rivals(cup.id, "Другой", "ВОРОН")
        assert [p.nickname for p in found] == [p.nickname for p in same_club] == ["Игрок 1"]
    finally:
        await engine.dispose()
