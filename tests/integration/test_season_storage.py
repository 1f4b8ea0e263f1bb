"""The season's storage: revision 0017 gives every participant of a database its person, and
`copy-data` carries persons, series, rating events and ratings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory
from domain.actor import Actor
from domain.services.catalog import build_services
from tests.conftest import _drop_postgres_database, make_database_url
from tests.operations import OWNER, add_cup_tournament, mafiatour, remember_owner

AT = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
SEASON_TABLES = ("persons", "series", "rating_events", "person_ratings", "season_audit")


async def _rows(url: str, query: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in await connection.execute(text(query))]
    finally:
        await engine.dispose()


async def test_the_migration_gives_each_account_and_each_imported_player_a_person(
    database_url: str,
) -> None:
    engine = create_engine(database_url)
    try:
        await upgrade(engine, "0016")
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO users (telegram_id, first_name, locale) VALUES "
                    "(7, 'Org', 'ru'), (100, 'A', 'ru'), (200, 'B', 'ru')"
                )
            )
            for number in (1, 2):
                await connection.execute(
                    text(
                        "INSERT INTO tournaments (id, title, regulation_id, state, timezone, "
                        "created_by, created_at) VALUES (:id, :title, 'black-raven-cup', "
                        "'running', 'UTC', 7, :at)"
                    ),
                    {"id": number, "title": f"T{number}", "at": AT},
                )
            players = [
                (1, 1, 100, "Старый", AT),
                (2, 2, 100, "Новый", AT.replace(day=20)),
                (3, 1, 200, "Б", AT),
                (4, 1, None, "Гость", AT),
                (5, 2, None, "Гость", AT),
            ]
            for pid, tid, user, nickname, at in players:
                await connection.execute(
                    text(
                        "INSERT INTO participants (id, tournament_id, user_id, nickname, club, "
                        "city, status, registered_at, paid, checked_in) VALUES (:id, :t, :u, "
                        ":n, 'Клуб', 'Омск', 'registered', :at, false, false)"
                    ),
                    {"id": pid, "t": tid, "u": user, "n": nickname, "at": at},
                )
        await upgrade(engine)
    finally:
        await engine.dispose()
    persons = await _rows(database_url, "SELECT id, telegram_id, nickname FROM persons ORDER BY id")
    assert len(persons) == 4
    by_account = {telegram_id: nickname for _, telegram_id, nickname in persons if telegram_id}
    assert by_account == {100: "Новый", 200: "Б"}
    links = dict(await _rows(database_url, "SELECT id, person_id FROM participants"))
    assert links[1] == links[2] and len({links[3], links[4], links[5], links[1]}) == 4


@pytest.fixture
async def sqlite_with_a_season(tmp_path: Path) -> AsyncIterator[str]:
    url = await make_database_url("sqlite", tmp_path)
    engine = create_engine(url)
    await upgrade(engine)
    uow_factory = SqlUnitOfWorkFactory(create_session_factory(engine))
    await remember_owner(uow_factory)
    services = build_services(uow_factory)
    admin = Actor(OWNER, AT, is_admin=True)
    series = await services.series.create_series(admin, "Сезон")
    for title in ("Осень", "Зима"):
        tournament = await add_cup_tournament(uow_factory, title)
        await services.series.attach_tournament(admin, tournament, series)
        await services.series.mark_rated(admin, tournament, True)
    await engine.dispose()
    yield url


@pytest.fixture
async def new_postgres(tmp_path: Path) -> AsyncIterator[str]:
    url = await make_database_url("postgresql", tmp_path)
    yield url
    await _drop_postgres_database(url)


@pytest.mark.postgresql
async def test_copy_data_carries_the_season(sqlite_with_a_season: str, new_postgres: str) -> None:
    assert (await mafiatour(new_postgres, "migrate"))[0] == 0
    status, _, err = await mafiatour(new_postgres, "copy-data", sqlite_with_a_season)
    assert (status, err) == (0, "")
    for table in SEASON_TABLES:
        query = f"SELECT count(*) FROM {table}"
        assert await _rows(new_postgres, query) == await _rows(sqlite_with_a_season, query)
    ratings = "SELECT person_id, overall, red, black, games FROM person_ratings ORDER BY 1"
    copied = await _rows(new_postgres, ratings)
    assert copied == await _rows(sqlite_with_a_season, ratings) and len(copied) == 60
    # The copy goes on: a recompute there gives the same ratings.
    engine = create_engine(new_postgres)
    try:
        services = build_services(SqlUnitOfWorkFactory(create_session_factory(engine)))
        assert await services.series.recompute_ratings() == 54
    finally:
        await engine.dispose()
    assert await _rows(new_postgres, ratings) == copied
