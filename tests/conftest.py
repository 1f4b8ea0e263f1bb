"""Databases for the tests: a fresh SQLite file, and a fresh PostgreSQL database per test.

PostgreSQL is the one these machines run on 127.0.0.1:5432 (`.ci/run` starts it if needed);
`MAFIATOUR_TEST_POSTGRES_URL` points the tests elsewhere.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db.engine import create_engine, create_session_factory
from bot.db.migrate import upgrade
from bot.db.uow import SqlUnitOfWorkFactory

POSTGRES_URL = os.environ.get(
    "MAFIATOUR_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
DATABASES = ("sqlite", "postgresql")


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _fresh_postgres_database() -> str:
    name = f"mt_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(_asyncpg_dsn(POSTGRES_URL))
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    return make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)


async def _drop_postgres_database(url: str) -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(POSTGRES_URL))
    try:
        await connection.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    finally:
        await connection.close()


async def make_database_url(kind: str, folder: Path) -> str:
    """An empty database of `kind` ("sqlite" or "postgresql")."""
    if kind == "sqlite":
        return f"sqlite+aiosqlite:///{folder / 'mafiatour.sqlite3'}"
    return await _fresh_postgres_database()


@pytest.fixture(params=DATABASES)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of an empty database, once for SQLite and once for PostgreSQL."""
    url = await make_database_url(request.param, tmp_path)
    yield url
    if request.param == "postgresql":
        await _drop_postgres_database(url)


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a database migrated to the newest schema."""
    engine = create_engine(database_url)
    await upgrade(engine)
    yield engine
    await engine.dispose()


@pytest.fixture
def uow_factory(engine: AsyncEngine) -> SqlUnitOfWorkFactory:
    return SqlUnitOfWorkFactory(create_session_factory(engine))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    """On CI (`CI=true`) a skipped test fails: the PostgreSQL and Redis tests must run there,
    never be skipped for a missing server."""
    outcome = yield
    report = outcome.get_result()
    if (
        os.environ.get("CI", "").lower() in ("true", "1")
        and report.skipped
        and not hasattr(report, "wasxfail")
    ):
        report.outcome = "failed"
        report.longrepr = f"skipped on CI, where every test must run: {report.longrepr}"
