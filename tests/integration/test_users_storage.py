"""People and tournaments stored and read back as domain objects, on both databases."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.db.transactions import counting
from bot.db.uow import SqlUnitOfWorkFactory
from domain.services.catalog import Services
from domain.tournament import Tournament, TournamentState
from domain.users import User


async def test_first_contact_stores_the_person_in_the_default_language(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    user = await services.users.remember_user(
        telegram_id=7_000_000_001,
        first_name="Анна",
        last_name=None,
        username="anna",
        default_locale="ru",
    )
    assert user == User(7_000_000_001, "Анна", None, "anna", "ru")
    async with uow_factory() as uow:
        assert await uow.users.get(7_000_000_001) == user


async def test_a_chosen_language_survives_later_contact(services: Services) -> None:
    await services.users.remember_user(
        telegram_id=5,
        first_name="Bob",
        last_name=None,
        username=None,
        default_locale="ru",
    )
    await services.users.choose_language(5, "en")
    again = await services.users.remember_user(
        telegram_id=5,
        first_name="Bobby",
        last_name="K",
        username="bk",
        default_locale="ru",
    )
    assert again.locale == "en"
    assert again.display_name == "Bobby K"


async def test_a_unit_of_work_left_without_commit_stores_nothing(
    uow_factory: SqlUnitOfWorkFactory,
) -> None:
    async with uow_factory() as uow:
        await uow.users.save(User(9, "Eve", None, None, "ru"))
    async with uow_factory() as uow:
        assert await uow.users.get(9) is None


async def test_a_tournament_is_numbered_by_the_database(uow_factory: SqlUnitOfWorkFactory) -> None:
    async with uow_factory() as uow:
        await uow.users.save(User(1, "Org", None, None, "ru"))
        created = await uow.tournaments.add(
            Tournament(
                id=0,
                title="Чёрный ворон",
                regulation_id="black-raven-cup",
                state=TournamentState.DRAFT,
                timezone="Asia/Omsk",
                created_by=1,
                created_at=datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
            )
        )
        await uow.commit()
    async with uow_factory() as uow:
        stored = await uow.tournaments.get(created.id)
    assert stored is not None and created.id > 0
    assert stored.title == "Чёрный ворон" and stored.state is TournamentState.DRAFT


async def test_a_known_person_with_the_same_names_costs_no_transaction(
    uow_factory: SqlUnitOfWorkFactory,
    services: Services,
) -> None:
    names = {"first_name": "Анна", "last_name": None, "username": "anna", "default_locale": "ru"}
    stored = await services.users.remember_user(telegram_id=11, **names)
    with counting() as same:
        assert await services.users.remember_user(telegram_id=11, known=stored, **names) == stored
    renamed = {**names, "username": "anna_k"}
    with counting() as changed:
        user = await services.users.remember_user(telegram_id=11, known=stored, **renamed)
    assert same.transactions == 0 and changed.transactions == 1
    async with uow_factory() as uow:
        assert await uow.users.get(11) == user and user.username == "anna_k"


async def test_a_first_contact_read_as_unknown_is_stored(
    uow_factory: SqlUnitOfWorkFactory, services: Services
) -> None:
    user = await services.users.remember_user(
        telegram_id=12,
        first_name="Bob",
        last_name=None,
        username=None,
        default_locale="en",
        known=None,
    )
    async with uow_factory() as uow:
        assert await uow.users.get(12) == user
